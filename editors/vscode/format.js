// format.js — `netschemac --format` for the extension: the document's text goes through a
// temporary file (the schema's own directory is passed first with -I, so its imports resolve as
// they would from the file itself), and a schema with errors gives no text: nothing changes.
'use strict';
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// Resolves to { text, error }: text is the formatted schema, or null with error saying why.
function formatSchema(compiler, text, importDirs) {
  return new Promise((resolve) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netschema-format-'));
    const file = path.join(dir, 'format.netschema');
    fs.writeFileSync(file, text);
    const args = ['--format', '--write'];
    for (const d of importDirs) args.push('-I', d);
    args.push(file);
    childProcess.execFile(compiler, args, { maxBuffer: 64 << 20 }, (err, _stdout, stderr) => {
      const formatted = err ? null : fs.readFileSync(file, 'utf8');
      fs.rmSync(dir, { recursive: true, force: true });
      let error = '';
      if (err && err.code === 'ENOENT') error = `cannot run '${compiler}'`;
      else if (err) error = String(stderr).split('\n')[0] || `exit status ${err.code}`;
      resolve({ text: formatted, error });
    });
  });
}

module.exports = { formatSchema };
