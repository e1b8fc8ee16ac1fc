#!/usr/bin/env node
// `npx assay` and `npm run assay`: the CLI as built by `npm install` or `npm run build` (scripts/build-cli.mjs).
import fs from "node:fs";

const built = new URL("../dist/assay.js", import.meta.url);
if (!fs.existsSync(built)) {
  console.error("assay: the CLI is not built yet: run `npm run build:cli` (npm install does it too).");
  process.exit(2);
}
await import(built.href);
