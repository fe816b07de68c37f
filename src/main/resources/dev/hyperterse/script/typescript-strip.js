// Runs once in the TypeScript compiler's context, after the compiler (the global `ts`), and
// returns the function the host calls for each file: (code, fileName) => [javascript] or
// [null, message, line, column] for the first syntax error (line and column 1-based, 0 unknown).
//
// The options make the output what the native stripper (swc) gives, as far as the server can
// tell: types removed and nothing else lowered (ESNext), import/export left as written
// (`Preserve`: `import x = require()` and `export =` become require/module.exports, as in a .cts
// file), imports only used as types dropped, class field initializers run in the constructor
// after parameter properties, comments and source maps left out.
(function (ts) {
  'use strict';
  const compilerOptions = {
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.Preserve,
    useDefineForClassFields: false,
    verbatimModuleSyntax: false,
    removeComments: true,
    sourceMap: false,
    inlineSourceMap: false,
    declaration: false,
  };
  const ERROR = ts.DiagnosticCategory.Error;

  return function strip(code, fileName) {
    const out = ts.transpileModule(code, { fileName, reportDiagnostics: true, compilerOptions });
    const diagnostics = out.diagnostics || [];
    for (let i = 0; i < diagnostics.length; i++) {
      const d = diagnostics[i];
      if (d.category !== ERROR) {
        continue;
      }
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file || d.start === undefined) {
        return [null, message, 0, 0];
      }
      const at = d.file.getLineAndCharacterOfPosition(d.start);
      return [null, message, at.line + 1, at.character + 1];
    }
    return [out.outputText];
  };
})(ts)
