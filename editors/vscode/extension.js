// VS Code extension for netschema: runs `netschemac --check --diagnostics json` on open and on save
// and shows what it reports in the Problems panel, and formats schemas with `netschemac --format`
// (Format Document, and on save with "editor.formatOnSave"). Plain JavaScript, no dependencies.
'use strict';
const vscode = require('vscode');
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const { parseDiagnostics, diskLines } = require('./diagnostics');
const { foldingRanges } = require('./folding');
const { formatSchema } = require('./format');

const SEVERITY = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  note: vscode.DiagnosticSeverity.Information,
};

function activate(context) {
  const collection = vscode.languages.createDiagnosticCollection('netschema');
  const output = vscode.window.createOutputChannel('netschema');
  const reported = new Map(); // checked file -> files it put diagnostics on
  let warnedMissing = false;

  const toRange = (r) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

  function importDirs(doc) {
    const cfg = vscode.workspace.getConfiguration('netschema', doc.uri);
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    const base = folder ? folder.uri.fsPath : path.dirname(doc.uri.fsPath);
    return (cfg.get('importDirs') || []).map((d) =>
      path.resolve(base, d.replace(/\$\{workspaceFolder\}/g, base)));
  }

  function check(doc) {
    if (doc.languageId !== 'netschema' || doc.uri.scheme !== 'file') return;
    const cfg = vscode.workspace.getConfiguration('netschema', doc.uri);
    const compiler = cfg.get('compilerPath') || 'netschemac';
    const file = doc.uri.fsPath;
    const cwd = path.dirname(file);
    const args = ['--check', '--diagnostics', 'json'];
    for (const dir of importDirs(doc)) args.push('-I', dir);
    args.push(file);

    childProcess.execFile(compiler, args, { cwd, maxBuffer: 64 << 20 }, (err, _stdout, stderr) => {
      if (err && err.code === 'ENOENT') {
        if (!warnedMissing) {
          warnedMissing = true;
          vscode.window.showWarningMessage(
            `netschema: cannot run '${compiler}'. Set "netschema.compilerPath" to the netschemac binary.`);
        }
        return;
      }
      const diags = parseDiagnostics(String(stderr), { cwd, mainFile: file, lineText: diskLines(fs) });
      const byFile = new Map([[file, []]]);
      for (const d of diags) {
        const vd = new vscode.Diagnostic(toRange(d.range), d.message, SEVERITY[d.severity]);
        vd.source = 'netschemac';
        if (d.code) vd.code = d.code;
        vd.relatedInformation = d.related.map((n) => new vscode.DiagnosticRelatedInformation(
          new vscode.Location(vscode.Uri.file(n.file), toRange(n.range)), n.message));
        if (!byFile.has(d.file)) byFile.set(d.file, []);
        byFile.get(d.file).push(vd);
      }
      for (const old of reported.get(file) || []) if (!byFile.has(old)) collection.delete(vscode.Uri.file(old));
      for (const [f, list] of byFile) collection.set(vscode.Uri.file(f), list);
      reported.set(file, [...byFile.keys()]);
      output.appendLine(`${compiler} ${args.join(' ')}: ${diags.length} diagnostic(s)`);
    });
  }

  // The whole document, formatted; no edit when netschemac fails (a schema with errors stays as it is).
  async function format(doc) {
    const cfg = vscode.workspace.getConfiguration('netschema', doc.uri);
    const compiler = cfg.get('compilerPath') || 'netschemac';
    const dirs = doc.uri.scheme === 'file' ? [path.dirname(doc.uri.fsPath)] : [];
    const text = doc.getText();
    const r = await formatSchema(compiler, text, dirs.concat(importDirs(doc)));
    if (r.text === null) {
      output.appendLine(`${compiler} --format: ${r.error}; the schema is left as it is`);
      return [];
    }
    if (r.text === text) return [];
    return [vscode.TextEdit.replace(doc.validateRange(new vscode.Range(0, 0, doc.lineCount, 0)), r.text)];
  }

  context.subscriptions.push(
    collection,
    output,
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidSaveTextDocument(check),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.languageId === 'netschema') collection.delete(doc.uri);
    }),
    vscode.languages.registerFoldingRangeProvider('netschema', {
      provideFoldingRanges: (doc) => foldingRanges(doc.getText()).map((r) => new vscode.FoldingRange(
        r.start, r.end, r.kind === 'comment' ? vscode.FoldingRangeKind.Comment : undefined)),
    }),
    vscode.languages.registerDocumentFormattingEditProvider('netschema', { provideDocumentFormattingEdits: format }),
    vscode.commands.registerCommand('netschema.check', () => {
      const editor = vscode.window.activeTextEditor;
      if (editor) check(editor.document);
    }),
  );
  vscode.workspace.textDocuments.forEach(check);
}

function deactivate() {}

module.exports = { activate, deactivate };
