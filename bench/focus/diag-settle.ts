// Diagnostic (issue 11): how many rendered pages a browser-mode crawl reads at load, and the time per phase:
// `npx tsx bench/focus/diag-settle.ts [budget] [query] [startUrl]` (default: acl2020 dialogue systems, 30 pages).
import { LogLevel, log } from 'crawlee';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';
import { startCorpusServer } from './corpus-server.js';

const [budget = '30', query = 'dialogue systems', start = 'https://virtual.acl2020.org/index.html'] = process.argv.slice(2);
log.setLevel(LogLevel.WARNING);
const dir = `/tmp/diag-settle/s-${Date.now()}`;
const server = await startCorpusServer(`${dir}.requests.jsonl`);
const t0 = performance.now();
const focused = await createFocusedCrawler({
    mode: 'browser', query, startUrls: [start], maxPages: Number(budget), stop: 'never',
    proxyUrls: [server.proxyUrl], ignoreHttpsErrors: true, storageDir: dir, resume: false, respectRobotsTxt: false,
});
const report = await focused.run();
console.log(`wall ${Math.round(performance.now() - t0)} ms, pages ${report.pagesFetched}, rendering ${JSON.stringify(report.rendering)}, timings ${JSON.stringify((report as { timings?: unknown }).timings ?? null)}`);
await server.close();
process.exit(0);
