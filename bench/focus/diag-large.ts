// Large-crawl diagnostic: tsx bench/focus/diag-large.ts [pages] — an http-mode crawl of a generated 200,000-page site
// on 127.0.0.1, printing pages/s per thousand pages and the per-page phase times, to see whether per-page costs grow
// with the crawl's state.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LogLevel, log } from 'crawlee';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';

const pages = Number(process.argv[2] ?? 3000);
const SITE = 200_000;
const WORDS = ['solar', 'panel', 'energy', 'garden', 'recipe', 'travel', 'music', 'history', 'battery', 'inverter', 'roof', 'wind'];
const word = (n: number) => WORDS[n % WORDS.length]!;
const server = http.createServer((req, res) => {
    const n = Number(/\/p\/(\d+)\.html/.exec(req.url ?? '')?.[1] ?? 0);
    const links = Array.from({ length: 30 }, (_, i) => (n * 7919 + i * 104729 + i * i) % SITE);
    const body = `<html><head><title>Page ${n} ${word(n)}</title></head><body><main><h1>${word(n)} ${word(n + 3)} ${n}</h1>` +
        `<p>${Array.from({ length: 120 }, (_, i) => word(n * 31 + i * 7)).join(' ')} ${n}</p><ul>` +
        links.map((m) => `<li><a href="/p/${m}.html">${word(m)} ${word(m + 5)} item ${m}</a></li>`).join('') + '</ul></main></body></html>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
log.setLevel(LogLevel.WARNING);
const t0 = Date.now();
let handled = 0;
let last = t0;
const focused = await createFocusedCrawler({
    mode: 'http', query: 'solar panel battery inverter', startUrls: [`${origin}/p/1.html`], maxPages: pages, stop: 'never',
    storageDir: `/tmp/big/s-${Date.now()}`, resume: false, respectRobotsTxt: false, maxRequestsPerHost: 10, minDelayPerHostMillis: 0,
    requestHandler: () => {
        handled++;
        if (handled % 1000 === 0) {
            const now = Date.now();
            console.log(`${handled} pages: ${(1000 / ((now - last) / 1000)).toFixed(1)} pages/s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
            last = now;
            if (process.env.SIZES) {
                const fc: any = focused.focus;
                for (const [name, part] of [['manager', () => fc.manager.toJSON()], ['trapLearner', () => fc.trapLearner.toJSON()], ['focus', () => fc.focus?.toJSON()], ['curve', () => fc.curve.toJSON()], ['delivered', () => [...fc.delivered]]] as const) {
                    const t = performance.now();
                    const json = JSON.stringify(part());
                    console.log(`  ${name}: ${(json.length / 1024).toFixed(0)} KiB in ${(performance.now() - t).toFixed(0)} ms`);
                }
                const m = fc.manager.toJSON();
                for (const [k, v] of Object.entries(m)) { const j = JSON.stringify(v) ?? ''; if (j.length > 20000) console.log(`    manager.${k}: ${(j.length / 1024).toFixed(0)} KiB`); }
            }
        }
    },
} as never);
const report: any = await focused.run();
console.log('wall s', ((Date.now() - t0) / 1000).toFixed(1), 'stop', report.stopReason, JSON.stringify(report.timings));
server.close();
process.exit(0);
