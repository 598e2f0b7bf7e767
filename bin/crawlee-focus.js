#!/usr/bin/env node
// Thin launcher: the CLI lives in src/cli and is compiled to dist/ by `npm run build` (run by `npm ci` via `prepare`).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code ?? 0),
  (err) => {
    console.error(`crawlee-focus: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
