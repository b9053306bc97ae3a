// Tests the VS Code side: TextMate scopes in the corpus, keyword/type/attribute coverage against
// idl/SPEC.md, the extension's manifest, its diagnostics and folding helpers, and extension.js
// against a stand-in VS Code API, on real netschemac output.
//   node test.js NODE_MODULES_DIR NETSCHEMAC
'use strict';
const fs = require('fs');
const path = require('path');
const childProcess = require('child_process');
const { loadGrammar, tokenize } = require('./tm');

const root = path.resolve(__dirname, '..', '..', '..');
const ext = path.join(root, 'editors', 'vscode');
const corpus = path.join(__dirname, '..', 'corpus');
const [modulesDir, netschemac] = process.argv.slice(2);
const failures = [];
let passed = 0;
const check = (ok, what) => (ok ? passed++ : failures.push(what));

// The token of `lines` (from tokenize) that covers 1-based line:col.
function tokenAt(lines, line, col) {
  return (lines[line - 1] || []).find((t) => t.start <= col - 1 && col - 1 < t.end);
}

// Each corpus/NAME.netschema has textmate/NAME.expect: "line:col scope" or "line:col !scope".
function checkExpectations(g) {
  const files = fs.readdirSync(corpus).filter((f) => f.endsWith('.netschema')).sort();
  for (const file of files) {
    const expectFile = path.join(__dirname, file.replace(/\.netschema$/, '.expect'));
    if (!fs.existsSync(expectFile)) {
      failures.push(`${file}: no expectations (${path.relative(root, expectFile)} is missing)`);
      continue;
    }
    const lines = tokenize(g, fs.readFileSync(path.join(corpus, file), 'utf8'));
    fs.readFileSync(expectFile, 'utf8').split('\n').forEach((text, i) => {
      if (!text.trim() || text.startsWith('#')) return;
      const m = /^(\d+):(\d+)\s+(!?)(\S+)\s*$/.exec(text);
      const where = `${path.basename(expectFile)}:${i + 1}`;
      if (!m) return failures.push(`${where}: cannot read '${text}' (want "line:col scope")`);
      const tok = tokenAt(lines, +m[1], +m[2]);
      const has = !!tok && tok.scopes.includes(m[4]);
      const want = m[3] !== '!';
      check(tok && has === want,
        `${where}: ${file}:${m[1]}:${m[2]} ${tok ? JSON.stringify(tok.text) : '(no token)'} ` +
        `${want ? 'lacks' : 'has'} ${m[4]}; scopes: ${tok ? tok.scopes.join(' ') : '-'}`);
    });
  }
}

// The words of the first ``` block after `marker` in SPEC.md.
function specWords(spec, marker) {
  const at = spec.indexOf(marker);
  if (at < 0) throw new Error(`SPEC.md no longer contains '${marker}'`);
  const block = /```\n([\s\S]*?)```/.exec(spec.slice(at));
  return block[1].split(/\s+/).filter(Boolean);
}

// Every keyword, built-in type and attribute that SPEC.md lists appears in the corpus with its scope.
function checkCoverage(g) {
  const spec = fs.readFileSync(path.join(root, 'idl', 'SPEC.md'), 'utf8');
  const keywords = specWords(spec, 'These twelve words are keywords');
  const types = specWords(spec, 'The built-in type names are **not** keywords');
  const attrs = [...new Set([...spec.matchAll(/^\| `@([a-z_]+)/gm)].map((m) => m[1]))];
  check(keywords.length === 12 && types.length === 22 && attrs.length === 18,
    `SPEC.md lists ${keywords.length} keywords, ${types.length} types, ${attrs.length} attributes ` +
    '(expected 12, 22, 18): update the corpus and the editors');
  const tokens = [];
  for (const f of fs.readdirSync(corpus).filter((x) => x.endsWith('.netschema'))) {
    for (const line of tokenize(g, fs.readFileSync(path.join(corpus, f), 'utf8'))) tokens.push(...line);
  }
  const seen = (word, re) => tokens.some((t) => t.text === word && t.scopes.some((s) => re.test(s)));
  for (const k of keywords) check(seen(k, /^(keyword\.control|storage\.type|constant\.language)\./), `keyword '${k}' is never highlighted as one in the corpus`);
  for (const t of types) check(seen(t, /^support\.type\.builtin/), `built-in type '${t}' is never highlighted as one in the corpus`);
  for (const a of attrs) check(seen(a, /^entity\.other\.attribute-name\./), `attribute '@${a}' is never highlighted as one in the corpus`);
}

// package.json points at files that exist and parse, and the grammar's scope name matches.
function checkManifest() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));
  const jsonc = (file) => JSON.parse(fs.readFileSync(path.join(ext, file), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
  const c = pkg.contributes;
  check(c.languages[0].id === 'netschema' && c.languages[0].extensions.includes('.netschema'), 'package.json: language netschema / .netschema');
  check(jsonc(c.languages[0].configuration).comments.lineComment === '//', 'language-configuration.json: lineComment');
  check(jsonc(c.grammars[0].path).scopeName === c.grammars[0].scopeName, 'package.json: grammar scopeName');
  const snippets = jsonc(c.snippets[0].path);
  for (const s of ['component', 'struct', 'enum', 'field', 'input', 'rpc', 'union', '@quantize', '@range', '@sync', '@smooth']) {
    check(snippets[s] && snippets[s].body, `snippets: no '${s}' snippet`);
  }
  const props = c.configuration.properties;
  check(props['netschema.compilerPath'] && props['netschema.importDirs'], 'package.json: settings compilerPath and importDirs');
  check(!pkg.dependencies && fs.existsSync(path.join(ext, pkg.main)), 'package.json: main exists, no dependencies');
  for (const js of ['extension.js', 'diagnostics.js', 'folding.js', 'format.js']) {
    const r = childProcess.spawnSync(process.execPath, ['--check', path.join(ext, js)], { encoding: 'utf8' });
    check(r.status === 0, `node --check ${js}: ${r.stderr}`);
  }
}

// The extension's conversion of a real netschemac run, on a schema with a tab, an 'é' and a note.
function checkDiagnostics() {
  const { parseDiagnostics, diskLines } = require(path.join(ext, 'diagnostics.js'));
  const file = path.join(corpus, 'invalid.netschema');
  const r = childProcess.spawnSync(netschemac, ['--check', '--diagnostics', 'json', 'invalid.netschema'],
    { cwd: corpus, encoding: 'utf8' });
  check(r.status === 1, `netschemac on invalid.netschema exited ${r.status}, expected 1: ${r.stderr}`);
  const ds = parseDiagnostics(r.stderr, { cwd: corpus, mainFile: file, lineText: diskLines(fs) });
  const got = ds.map((d) => `${path.basename(d.file)} ${d.severity} ${d.code} ` +
    `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}` +
    d.related.map((n) => ` [${n.message} ${n.range.start.line}:${n.range.start.character}]`).join(''));
  const want = [
    'invalid.netschema warning W-import-unused 3:0-3:26',
    'invalid.netschema error E-attr-type 6:13-6:27',
    'invalid.netschema error E-attr-args 7:14-7:28',
    'invalid.netschema error E-name-dup 10:7-10:11 [first declared here 5:7]',
    'invalid.netschema error E-lex-escape 13:24-13:26',
    'invalid.netschema error E-lex-number 14:12-14:17',
    'invalid.netschema error E-lex-string 15:21-15:22',
    'invalid.netschema error E-syntax 15:35-15:35',
  ];
  check(JSON.stringify(got) === JSON.stringify(want),
    `diagnostics.js on netschemac's output:\n  got  ${got.join('\n       ')}\n  want ${want.join('\n       ')}`);
  // A code point outside the BMP is two UTF-16 units; a line without location goes to line 0.
  const astral = parseDiagnostics('{"severity":"error","code":"E-x","message":"m","file":"a","line":1,"column":3,"end_line":1,"end_column":3,"offset":5,"end_offset":6,"notes":[]}\nnetschemac: crashed',
    { cwd: '/', mainFile: '/main', lineText: () => 'a\u{1F600}bc' });
  check(astral[0].range.start.character === 3 && astral[0].range.end.character === 4, 'diagnostics.js: astral code points');
  check(astral[1].file === '/main' && astral[1].message === 'netschemac: crashed', 'diagnostics.js: non-JSON lines');
}

function checkFolding() {
  const { foldingRanges } = require(path.join(ext, 'folding.js'));
  const text = fs.readFileSync(path.join(corpus, 'declarations.netschema'), 'utf8');
  const got = foldingRanges(text).map((r) => `${r.start}-${r.end}`).join(' ');
  check(got === '9-12 15-17 20-26 29-31 34-36 43-45 48-50', `folding.js on declarations.netschema: ${got}`);
  const tricky = foldingRanges('struct S { // {\n  string<4> s = "}{";\n  /* }\n  */\n}\n');
  check(JSON.stringify(tricky) === '[{"start":0,"end":3,"kind":"block"},{"start":2,"end":3,"kind":"comment"}]',
    `folding.js skips braces in comments and strings: ${JSON.stringify(tricky)}`);
}

// extension.js itself, against a stand-in for the VS Code API: a save runs the real netschemac and
// fills the diagnostic collection; a compiler that cannot be run gives one warning.
async function checkExtension() {
  const Module = require('module');
  const sets = new Map();
  const warnings = [];
  const on = {};
  let config = { compilerPath: netschemac, importDirs: [] };
  const Uri = { file: (p) => ({ fsPath: p, scheme: 'file' }) };
  const disposable = { dispose() {} };
  const fake = {
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2 },
    Range: class { constructor(a, b, c, d) { this.start = { line: a, character: b }; this.end = { line: c, character: d }; } },
    Diagnostic: class { constructor(range, message, severity) { Object.assign(this, { range, message, severity }); } },
    DiagnosticRelatedInformation: class { constructor(location, message) { Object.assign(this, { location, message }); } },
    Location: class { constructor(uri, range) { Object.assign(this, { uri, range }); } },
    FoldingRange: class { constructor(start, end, kind) { Object.assign(this, { start, end, kind }); } },
    FoldingRangeKind: { Comment: 1 },
    Uri,
    languages: {
      createDiagnosticCollection: () => ({ set: (u, l) => sets.set(u.fsPath, l), delete: (u) => sets.delete(u.fsPath), dispose() {} }),
      registerFoldingRangeProvider: () => disposable,
      registerDocumentFormattingEditProvider: (_sel, p) => ((on.format = p), disposable),
    },
    TextEdit: { replace: (range, newText) => ({ range, newText }) },
    window: { createOutputChannel: () => ({ appendLine() {}, dispose() {} }), showWarningMessage: (m) => warnings.push(m) },
    workspace: {
      getConfiguration: () => ({ get: (k) => config[k] }),
      getWorkspaceFolder: () => undefined,
      onDidOpenTextDocument: (f) => ((on.open = f), disposable),
      onDidSaveTextDocument: (f) => ((on.save = f), disposable),
      onDidCloseTextDocument: (f) => ((on.close = f), disposable),
      textDocuments: [],
    },
    commands: { registerCommand: () => disposable },
  };
  const load = Module._load;
  Module._load = function (request, ...rest) { return request === 'vscode' ? fake : load.call(this, request, ...rest); };
  try {
    require(path.join(ext, 'extension.js')).activate({ subscriptions: [] });
  } finally {
    Module._load = load;
  }
  const file = path.join(corpus, 'invalid.netschema');
  const wait = async (done) => { for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50)); };
  on.save({ languageId: 'netschema', uri: Uri.file(file) });
  await wait(() => sets.has(file));
  const ds = sets.get(file) || [];
  check(ds.length === 8 && ds[0].severity === 1 && ds[1].severity === 0 && ds[1].code === 'E-attr-type' &&
    ds[1].range.start.line === 6 && ds[1].range.start.character === 13 && ds[3].relatedInformation.length === 1,
    `extension.js: diagnostics for invalid.netschema: ${JSON.stringify(ds.map((d) => [d.code, d.severity, d.range]))}`);
  on.save({ languageId: 'netschema', uri: Uri.file(path.join(corpus, 'types.netschema')) });
  await wait(() => sets.has(path.join(corpus, 'types.netschema')));
  check((sets.get(path.join(corpus, 'types.netschema')) || [null]).length === 0, 'extension.js: a valid schema has no diagnostics');
  // Format Document: the text netschemac --format gives, and no edit for a schema with errors.
  const doc = (lines) => ({ languageId: 'netschema', uri: Uri.file(path.join(corpus, 'unsaved.netschema')),
    getText: () => lines.join('\n'), lineCount: lines.length, validateRange: (r) => r });
  const messy = ['package p;', 'component C {   u8 a @smooth(interpolate)@range(0,9);', '  u16 bb; }', ''];
  const tidy = 'package p;\n\ncomponent C {\n    u8  a @range(0, 9) @smooth(interpolate);\n    u16 bb;\n}\n';
  const edits = await on.format.provideDocumentFormattingEdits(doc(messy));
  check(edits.length === 1 && edits[0].newText === tidy, `extension.js: Format Document: ${JSON.stringify(edits)}`);
  const none = await on.format.provideDocumentFormattingEdits(doc(['package p;', 'component C { u8 a @quantize(1); }']));
  check(none.length === 0, `extension.js: Format Document changed a schema with errors: ${JSON.stringify(none)}`);
  config = { compilerPath: path.join(corpus, 'no-such-netschemac'), importDirs: [] };
  on.save({ languageId: 'netschema', uri: Uri.file(file) });
  on.save({ languageId: 'netschema', uri: Uri.file(file) });
  await wait(() => warnings.length > 0);
  await new Promise((r) => setTimeout(r, 200));
  check(warnings.length === 1 && /compilerPath/.test(warnings[0]), `extension.js: a missing compiler warns once: ${JSON.stringify(warnings)}`);
}

(async () => {
  const g = await loadGrammar(path.join(ext, 'syntaxes', 'netschema.tmLanguage.json'), modulesDir);
  checkExpectations(g);
  checkCoverage(g);
  checkManifest();
  checkDiagnostics();
  checkFolding();
  await checkExtension();
  for (const f of failures) console.log(`FAIL textmate: ${f}`);
  console.log(`textmate: ${passed} passed, ${failures.length} failed`);
  process.exit(failures.length ? 1 : 0);
})().catch((e) => {
  console.log(`FAIL textmate: ${e.stack || e}`);
  process.exit(1);
});
