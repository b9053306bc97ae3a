// Folding ranges for netschema: one per multi-line { ... } block and /* ... */ comment, found by a
// small scanner that skips strings and comments (no VS Code API here, so plain Node can test it).
'use strict';

// Returns [{ start, end, kind }] with 0-based lines; kind is 'block' or 'comment'.
function foldingRanges(text) {
  const ranges = [];
  const open = []; // lines of unmatched '{'
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '\n') {
      line++;
    } else if (c === '/' && next === '/') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const startLine = line;
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) {
        if (text[i] === '\n') line++;
        i++;
      }
      i++;
      if (line > startLine) ranges.push({ start: startLine, end: line, kind: 'comment' });
    } else if (c === '"') {
      while (i + 1 < text.length && text[i + 1] !== '"' && text[i + 1] !== '\n') i += text[i + 1] === '\\' ? 2 : 1;
      if (text[i + 1] === '"') i++;
    } else if (c === '{') {
      open.push(line);
    } else if (c === '}' && open.length) {
      const startLine = open.pop();
      // Fold up to the line before the '}', so the closing brace stays visible.
      if (line > startLine) ranges.push({ start: startLine, end: line - 1 > startLine ? line - 1 : line, kind: 'block' });
    }
  }
  return ranges.sort((a, b) => a.start - b.start || b.end - a.end);
}

module.exports = { foldingRanges };
