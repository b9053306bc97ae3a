// Loads the netschema TextMate grammar with vscode-textmate + vscode-oniguruma and tokenizes text.
'use strict';
const fs = require('fs');
const path = require('path');

// modulesDir: the node_modules directory that holds the pinned vscode-textmate and vscode-oniguruma.
async function loadGrammar(grammarPath, modulesDir) {
  const tm = require(path.join(modulesDir, 'vscode-textmate'));
  const onig = require(path.join(modulesDir, 'vscode-oniguruma'));
  const wasm = fs.readFileSync(path.join(modulesDir, 'vscode-oniguruma', 'release', 'onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new tm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new onig.OnigScanner(sources),
      createOnigString: (s) => new onig.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.netschema') return null;
      const text = fs.readFileSync(grammarPath, 'utf8');
      return tm.parseRawGrammar(text, grammarPath);
    },
  });
  const grammar = await registry.loadGrammar('source.netschema');
  return { grammar, INITIAL: tm.INITIAL };
}

// Returns one array per line of { start, end, text, scopes } (columns are 0-based UTF-16 offsets).
function tokenize({ grammar, INITIAL }, text) {
  const lines = text.split(/\r?\n/);
  let state = INITIAL;
  return lines.map((line) => {
    const r = grammar.tokenizeLine(line, state);
    state = r.ruleStack;
    return r.tokens.map((t) => ({
      start: t.startIndex,
      end: t.endIndex,
      text: line.slice(t.startIndex, t.endIndex),
      scopes: t.scopes,
    }));
  });
}

module.exports = { loadGrammar, tokenize };
