// Timeline diagnostic (issue 11): tsx bench/focus/diag-timeline.ts <mode> <out.json> [budget] [query] [startUrl]
// Per handler run: rendered or plain HTTP, start/end; the autoscaled pool's concurrency over time; browser launch.
import { writeFileSync } from 'node:fs';
import { LogLevel, log } from 'crawlee';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';
import { startCorpusServer } from './corpus-server.js';

const [mode = 'adaptive', out = '/tmp/bw/tl/out.json', budgetArg = '100', query = 'computing guide email printing', start = 'http://www-cs.stanford.edu/events/calendar/month/2016-01.html'] = process.argv.slice(2);
log.setLevel(LogLevel.WARNING);
const dir = `/tmp/bw/tl/s-${Date.now()}`;
const server = await startCorpusServer(`${dir}.requests.jsonl`);
const t0 = performance.now();
const now = () => Math.round(performance.now() - t0);
const runs: Array<{ url: string; kind: string; start: number; end?: number }> = [];
const events: Array<[number, string]> = [];
const focused = await createFocusedCrawler({
    mode: mode as 'adaptive', query, startUrls: [start], maxPages: Number(budgetArg), stop: 'never',
    proxyUrls: [server.proxyUrl], ignoreHttpsErrors: true, storageDir: dir, resume: false, respectRobotsTxt: false,
    // BROWSER_POOL=1: a browser crawler's autoscaling, as before commit 71b9b5b (for an A/B at the same load).
    ...(process.env.BROWSER_POOL ? { crawlerOptions: { autoscaledPoolOptions: { desiredConcurrency: 1, snapshotterOptions: {}, systemStatusOptions: {} } } } : {}),
    ...(process.env.MIN_CONCURRENCY ? { minConcurrency: Number(process.env.MIN_CONCURRENCY) } : {}),
});
const c: any = focused.crawler;
for (const [name, kind] of [['runRequestHandlerInBrowser', 'browser'], ['runRequestHandlerWithPlainHTTP', 'http'], ['_runRequestHandler', 'task']] as const) {
    const orig = c[name];
    if (typeof orig !== 'function' || (kind === 'task' && mode === 'adaptive' && false)) continue;
    c[name] = async function (this: unknown, ctx: any, ...rest: unknown[]) {
        const run: (typeof runs)[number] = { url: ctx.request.url, kind, start: now() };
        runs.push(run);
        try { return await orig.call(this, ctx, ...rest); } finally { run.end = now(); }
    };
}
const phases: Record<string, number[]> = {};
const timePhase = (obj: any, name: string, label: string) => {
    const orig = obj?.[name];
    if (typeof orig !== 'function') return;
    obj[name] = async function (this: unknown, ...args: unknown[]) {
        const t = performance.now();
        try { return await orig.apply(this, args); } finally { (phases[label] ??= []).push(Math.round(performance.now() - t)); }
    };
};
timePhase(c.browserPool, 'newPage', 'newPage');
timePhase(c, '_handleNavigation', 'navigation');
timePhase(c, '_responseHandler', 'responseHandler');
timePhase(c, '_cleanupContext', 'cleanup');
c.browserPool?.on?.('browserLaunched', () => events.push([now(), 'browserLaunched']));
const samples: Array<[number, number, number, string?]> = [];
const timer = setInterval(() => { const p = c.autoscaledPool; if (p) { const st = p.systemStatus?.getCurrentStatus?.(); const over = st ? ['memInfo', 'eventLoopInfo', 'cpuInfo', 'clientInfo'].filter((k) => st[k]?.isOverloaded).join('+') : ''; samples.push([now(), p.currentConcurrency, p.desiredConcurrency, over]); } }, 250);
const report: any = await focused.run();
clearInterval(timer);
events.push([now(), 'done']);
writeFileSync(out, JSON.stringify({ mode, runs, samples, events, rendering: report?.rendering, timings: report?.timings, phases }));
const tasks = runs.filter((r) => r.kind === 'task');
console.log(mode, 'wall', now(), 'first task', tasks[0]?.start, 'browser launched', events.find((e) => e[1] === 'browserLaunched')?.[0], 'rendering', JSON.stringify(report?.rendering));
await server.close();
process.exit(0);
