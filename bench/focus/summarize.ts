// Pools the crawls of selection JSON files by query, crawler and budget: tsx bench/focus/summarize.ts <selection.json>...
import { readFileSync } from 'node:fs';

import { cellTable, summarizeCells } from './report.js';
import type { ResultRow } from './report.js';

const files = process.argv.slice(2);
if (files.length === 0) {
    console.error('usage: tsx bench/focus/summarize.ts <selection.json> [more.json …]  (bench/results/selection.json, bench/results/session-*/…)');
    process.exit(2);
}
const rows = files.flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { rows: ResultRow[] }).rows);
console.log(cellTable(summarizeCells(rows)));
