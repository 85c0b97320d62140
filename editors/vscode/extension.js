// Dédale for VS Code: the grammar (package.json) colours .dd files; this file starts the
// language server, `dedale lsp`, over stdio for .dd files and book.yaml.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("dedale");
  if (!settings.get("server.enabled", true)) return;
  const command = settings.get("server.command", "dedale");
  const run = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "dedale",
    "Dédale",
    { run, debug: run },
    {
      documentSelector: [
        { scheme: "file", language: "dedale" },
        { scheme: "file", pattern: "**/book.yaml" },
      ],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.dd,book.yaml}") },
    },
  );
  client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `Dédale: could not start \`${command} lsp\` (${error.message}). ` +
        "Install Dédale (pip install dedale) or set dedale.server.command.",
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
