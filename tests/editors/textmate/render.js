// Renders a schema as HTML coloured by the TextMate grammar (a Dark+-like theme), for the
// screenshot in editors/README.md:  node render.js NODE_MODULES_DIR SCHEMA > out.html
'use strict';
const fs = require('fs');
const path = require('path');
const { loadGrammar, tokenize } = require('./tm');

// Scope prefix -> CSS. The innermost scope with the longest matching prefix wins.
const theme = {
  'comment': 'color:#6a9955',
  'comment.line.documentation': 'color:#8fbc6f;font-style:italic',
  'keyword.control': 'color:#c586c0',
  'keyword.operator': 'color:#d4d4d4',
  'storage.type': 'color:#569cd6',
  'support.type': 'color:#4ec9b0',
  'entity.name.type': 'color:#4ec9b0',
  'entity.name.namespace': 'color:#4ec9b0',
  'variable.other.field': 'color:#9cdcfe',
  'variable.other.constant': 'color:#4fc1ff',
  'variable.other.enummember': 'color:#4fc1ff',
  'meta.attribute': 'color:#dcdcaa',
  'support.constant': 'color:#4fc1ff',
  'string': 'color:#ce9178',
  'constant.character.escape': 'color:#d7ba7d',
  'constant.numeric': 'color:#b5cea8',
  'constant.language': 'color:#569cd6',
  'invalid': 'color:#f44747;text-decoration:underline wavy',
};

function style(scopes) {
  for (let i = scopes.length - 1; i >= 0; i--) {
    let best = '';
    for (const key of Object.keys(theme)) {
      if ((scopes[i] === key || scopes[i].startsWith(key + '.')) && key.length > best.length) best = key;
    }
    if (best) return theme[best];
  }
  return '';
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

(async () => {
  const [modulesDir, schema] = process.argv.slice(2);
  const g = await loadGrammar(path.join(__dirname, '../../../editors/vscode/syntaxes/netschema.tmLanguage.json'), modulesDir);
  const text = fs.readFileSync(schema, 'utf8').replace(/\n$/, '');
  const rows = tokenize(g, text).map((toks, i) =>
    `<tr><td class="n">${i + 1}</td><td>${toks.map((t) => `<span style="${style(t.scopes)}">${esc(t.text)}</span>`).join('')}</td></tr>`);
  const version = require(path.join(modulesDir, 'vscode-textmate', 'package.json')).version;
  process.stdout.write(`<!doctype html><meta charset="utf-8"><style>
body{margin:0;background:#1e1e1e;color:#d4d4d4;font:15px/1.45 "DejaVu Sans Mono",monospace}
.bar{background:#2d2d2d;color:#cccccc;padding:6px 14px;font:13px "DejaVu Sans",sans-serif}
table{border-collapse:collapse;margin:8px 0}td{white-space:pre;padding:0 14px 0 0}
td.n{color:#858585;text-align:right;padding:0 18px 0 14px}
</style><div class="bar">${esc(path.basename(schema))} \u2014 netschema.tmLanguage.json, tokenized by vscode-textmate ${version}</div>
<table>${rows.join('\n')}</table>\n`);
})();
