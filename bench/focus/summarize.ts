// Pools the crawls of selection JSON files by query, crawler and budget: tsx bench/focus/summarize.ts <selection.json>...
import { readFileSync } from 'node:fs';

import { cellTable, summarizeCells } from './report.js';
import type { ResultRow } from './report.js';

const files = process.argv.slice(2);
if (files.length === 0) {
    console.error('usage: tsx bench/focus/summarize.ts <selection.json> [more.json …]  (bench/results/selection.json, bench/results/session-*/…)');
    process.exit(2);
}
// A later run with a higher --repeat serves its first crawls from the cache: the same crawl, listed again, with the
// same measurements. A fresh crawl of the same run id (another worktree, `--fresh`) differs in them and counts apart.
const byCrawl = new Map<string, ResultRow>();
for (const row of files.flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { rows: ResultRow[] }).rows)) {
    byCrawl.set(JSON.stringify([row.runId, row.repeat, row.wallSeconds, row.fetched, row.relevantFound, row.stopReason]), row);
}
const rows = [...byCrawl.values()];
console.log(cellTable(summarizeCells(rows)));
