// Rendering diagnostic: tsx bench/focus/diag-render.ts <query> <out.json> [mode] [budget] [startUrl]
// Records, per handled page, whether it was rendered, its links and its relevance, and the corpus server's log.
import { writeFileSync } from 'node:fs';
import { LogLevel, log } from 'crawlee';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';
import { pageFocus } from '../../src/crawlee/focused-crawl.js';
import { browserPageOf } from '../../src/crawlee/rendering.js';
import { startCorpusServer } from './corpus-server.js';

const [query, out, mode = 'adaptive', budgetArg = '100', start = 'https://virtual.acl2020.org/index.html'] = process.argv.slice(2);
log.setLevel(LogLevel.WARNING);
const dir = `/tmp/bw/diag-${Date.now()}`;
const server = await startCorpusServer(`${dir}.requests.jsonl`);
const pages: unknown[] = [];
const focused = await createFocusedCrawler({
    mode: mode as 'adaptive', query, startUrls: [start], maxPages: Number(budgetArg),
    proxyUrls: [server.proxyUrl], ignoreHttpsErrors: true, storageDir: dir, resume: false, respectRobotsTxt: false,
    requestHandler: (ctx: any) => {
        const pf = pageFocus(ctx.request);
        pages.push({ i: pages.length, url: ctx.request.url, rendered: browserPageOf(ctx) !== undefined, ...pf });
    },
});
const report = await focused.run();
writeFileSync(out!, JSON.stringify({ query, mode, report, pages, log: `${dir}.requests.jsonl` }));
await server.close();
process.exit(0);
