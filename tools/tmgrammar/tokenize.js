// Tokenize .dd files with Dédale's TextMate grammar, through vscode-textmate and
// vscode-oniguruma (the engine VS Code itself uses). Used by tests/editors.
//
//   node tokenize.js GRAMMAR.json FILE.dd...   -> JSON on stdout:
//   {"FILE.dd": [[[text, [scope, ...]], ...], ...one list of tokens per line], ...}
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

async function main() {
  const [grammarPath, ...files] = process.argv.slice(2);
  if (!grammarPath || files.length === 0) {
    console.error("usage: node tokenize.js GRAMMAR.json FILE.dd...");
    process.exit(2);
  }
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName === "source.dedale") {
        return vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath);
      }
      if (scopeName === "source.yaml") {
        // Editors ship a YAML grammar for the front matter; its own scopes are not tested
        // here, so an empty one stands for it.
        return { scopeName, patterns: [], repository: {} };
      }
      return null;
    },
  });
  const grammar = await registry.loadGrammar("source.dedale");
  const result = {};
  for (const file of files) {
    const lines = fs.readFileSync(file, "utf8").split(/\r?\n/);
    let state = vsctm.INITIAL;
    result[file] = lines.map((line) => {
      const tokens = grammar.tokenizeLine(line, state, 20000);
      if (tokens.stoppedEarly) throw new Error(`${file}: tokenizing a line took too long`);
      state = tokens.ruleStack;
      return tokens.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes]);
    });
  }
  process.stdout.write(JSON.stringify(result));
}

main().catch((error) => {
  console.error(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
