// Cost diagnostic (issue 11): tsx bench/focus/diag-cost.ts <plain|focus> <spec.json> [concurrency]
// Runs the cost bench's fixed list once and samples the autoscaled pool's concurrency, so a wall-time gap can be told
// apart from per-page overhead.
import { readFileSync } from 'node:fs';
import { Configuration, LogLevel, PlaywrightCrawler, ProxyConfiguration, log } from 'crawlee';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../src/crawlee/browser.js';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';
import { startCorpusServer } from './corpus-server.js';

const [kind = 'plain', specFile = '', concurrencyArg = '4'] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile, 'utf8')) as { startUrls: string[]; query: string };
const maxConcurrency = Number(concurrencyArg);
const minConcurrency = process.env.FIXED ? maxConcurrency : undefined;
log.setLevel(LogLevel.WARNING);
const dir = `/tmp/dc/${kind}-${Date.now()}`;
const server = await startCorpusServer(`${dir}.requests.jsonl`);
const samples: Array<[number, number, string]> = [];
let crawler: any;
const t0 = Date.now();
const timer = setInterval(() => {
    const pool = crawler?.autoscaledPool;
    if (!pool) return;
    const status = pool.systemStatus?.getCurrentStatus?.();
    const over = status ? ['memInfo', 'eventLoopInfo', 'cpuInfo', 'clientInfo'].filter((k) => status[k]?.isOverloaded).join('+') : '';
    samples.push([Date.now() - t0, pool.currentConcurrency, over]);
}, 500);
let timings: unknown;
if (kind === 'plain') {
    const config = new Configuration({ storageClientOptions: { localDataDirectory: dir } });
    crawler = new PlaywrightCrawler({
        proxyConfiguration: new ProxyConfiguration({ proxyUrls: [server.proxyUrl] }),
        maxConcurrency, ...(minConcurrency ? { minConcurrency } : {}),
        launchContext: { launchOptions: { executablePath: chromiumExecutable(), args: [...CHROMIUM_ARGS, '--ignore-certificate-errors'], headless: true } },
        browserPoolOptions: { useFingerprints: false },
        requestHandler: async () => {},
    }, config);
    await crawler.run(spec.startUrls);
} else {
    const focused = await createFocusedCrawler({
        mode: 'browser', query: spec.query, startUrls: spec.startUrls.slice(0, 1), maxPages: spec.startUrls.length, stop: 'never',
        proxyUrls: [server.proxyUrl], ignoreHttpsErrors: true, storageDir: dir, resume: false, respectRobotsTxt: false,
        maxConcurrency, ...(minConcurrency ? { minConcurrency } : {}),
    });
    crawler = focused.crawler;
    await focused.crawler.addRequests(spec.startUrls, { forefront: true });
    const report: any = await focused.run();
    timings = report.timings;
}
clearInterval(timer);
const wall = Date.now() - t0;
const mean = samples.reduce((s, x) => s + x[1], 0) / Math.max(1, samples.length);
const overloaded = samples.filter((s) => s[2]).length;
const cpu = process.cpuUsage();
console.log(kind, 'wall', wall, 'node cpu s', ((cpu.user + cpu.system) / 1e6).toFixed(1), 'mean concurrency', mean.toFixed(2), 'overloaded samples', overloaded, 'of', samples.length);
console.log(samples.filter((_, i) => i % 4 === 0).map((s) => `${(s[0] / 1000).toFixed(0)}s:${s[1]}${s[2] ? `(${s[2]})` : ''}`).join(' '));
if (timings) console.log(JSON.stringify(timings));
await server.close();
process.exit(0);
