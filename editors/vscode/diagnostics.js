// Turns `netschemac --diagnostics json` output into editor-neutral diagnostics (no VS Code API here,
// so tests/editors/textmate/test.js can run it under plain Node).
'use strict';
const path = require('path');

// Offset in UTF-16 code units of the first `count` code points of `text` (clamped to its length).
function codePointsToUtf16(text, count) {
  let i = 0;
  for (let n = 0; n < count && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return i;
}

// A 0-based, end-exclusive range from one diagnostic (or note). netschemac's columns are 1-based
// code points and end_column is inclusive; an empty range has offset == end_offset.
// lineText(file, line0) returns the text of a 0-based line, or undefined.
function toRange(d, file, lineText) {
  if (!d.line) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const sl = d.line - 1;
  const el = (d.end_line || d.line) - 1;
  const sText = lineText(file, sl) || '';
  const eText = el === sl ? sText : lineText(file, el) || '';
  const start = { line: sl, character: codePointsToUtf16(sText, d.column - 1) };
  const empty = d.offset !== undefined && d.offset === d.end_offset;
  const endCol = empty ? d.column - 1 : d.end_column || d.column;
  const end = { line: el, character: codePointsToUtf16(eText, endCol) };
  if (end.line === start.line && end.character < start.character) end.character = start.character;
  return { start, end };
}

// Parses the compiler's stderr. Returns a list of
//   { file, range, severity: 'error'|'warning'|'note', code, message, related: [{ file, range, message }] }.
// cwd: the directory the compiler ran in (relative paths in the output are relative to it).
// mainFile: where diagnostics without a location (and stray non-JSON lines) go.
function parseDiagnostics(stderr, { cwd, mainFile, lineText }) {
  const out = [];
  const where = (d) => (d.file ? path.resolve(cwd, d.file) : mainFile);
  for (const raw of stderr.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    let d;
    try {
      d = JSON.parse(line);
    } catch (e) {
      d = { severity: 'error', code: '', message: line, notes: [] };
    }
    if (!d || typeof d.message !== 'string') continue;
    const file = where(d);
    out.push({
      file,
      range: toRange(d, file, lineText),
      severity: ['error', 'warning', 'note'].includes(d.severity) ? d.severity : 'error',
      code: d.code || '',
      message: d.message,
      related: (d.notes || []).map((n) => {
        const nf = where(n);
        return { file: nf, range: toRange(n, nf, lineText), message: n.message };
      }),
    });
  }
  return out;
}

// A lineText function that reads files from disk, each once.
function diskLines(fs) {
  const cache = new Map();
  return (file, line0) => {
    if (!cache.has(file)) {
      let lines = [];
      try {
        lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
      } catch (e) {
        /* unreadable: columns stay as they are */
      }
      cache.set(file, lines);
    }
    return cache.get(file)[line0];
  };
}

module.exports = { parseDiagnostics, toRange, codePointsToUtf16, diskLines };
