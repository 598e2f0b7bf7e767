// Diagnostic crawl: [DIAG_MODE=http|browser|adaptive] tsx bench/focus/diag.ts <query> <out.json> [adaptive|never] [budget] [startUrl]
import { writeFileSync } from 'node:fs';
import { LogLevel, log } from 'crawlee';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';
import { pageFocus } from '../../src/crawlee/focused-crawl.js';
import { startCorpusServer } from './corpus-server.js';

const [query, out, stop = 'adaptive', budgetArg = '100', start = 'https://www.openehr.org/'] = process.argv.slice(2);
log.setLevel(LogLevel.WARNING);
const dir = `/tmp/bw/diag-${Date.now()}`;
const server = await startCorpusServer(`${dir}.requests.jsonl`);
const takes: unknown[] = [];
const pages: unknown[] = [];
const skips: Array<[string, string]> = [];
const drops: Array<[string, number, string]> = [];
const focused = await createFocusedCrawler({
    mode: (process.env.DIAG_MODE ?? 'http') as 'http' | 'browser' | 'adaptive', query, startUrls: [start], maxPages: Number(budgetArg), stop: stop as 'adaptive' | 'never',
    proxyUrls: [server.proxyUrl], ignoreHttpsErrors: true, storageDir: dir, resume: false, respectRobotsTxt: false,
    requestHandler: (ctx: any) => { const pf = pageFocus(ctx.request); pages.push({ url: ctx.request.url, loaded: ctx.request.loadedUrl, ...pf }); },
});
const m: any = focused.focus.manager;
// Pages taken to explore so far (the manager's state keeps the count).
const explorations = (): number => m.sections.toJSON?.().explorations ?? 0;
const origFetch = m.fetchNextRequest.bind(m);
m.fetchNextRequest = async (...a: unknown[]) => {
    const ex0 = explorations(); const r = await origFetch(...a);
    if (r) {
        const fl = m.flights.get(r.id);
        const queueScores = [...m.queue.ranked()].map((x: any) => x.score).sort((a: number, b: number) => b - a);
        takes.push({ i: takes.length, url: r.url, failingNow: m.trapLearner?.isFailingUrl?.(r.url), currentScore: fl ? m.scoreOfEntry(fl.entry) : null, score: fl?.entry.linkScore, depth: fl?.entry.depth, parent: fl?.entry.parentUrl, anchor: fl?.entry.anchorText, signal: fl?.entry.signal, queueSize: queueScores.length, queueMin: queueScores.at(-1), reserve: m.reserve.size, explore: explorations() > ex0 });
    }
    return r;
};
const origCount = m.count.bind(m);
m.count = (reason: string, url: string) => { skips.push([reason, url]); origCount(reason, url); };
const origDrop = m.noteDropped.bind(m);
m.noteDropped = (key: string, entry: any) => { drops.push([entry.url, m.scoreOfEntry(entry), entry.anchorText]); origDrop(key, entry); };
const report = await focused.run();
const focusModel: any = focused.focus.focus;
const probabilityOf = (score: number) => focusModel?.linkProbability(score).probability ?? null;
const reserve = [...m.reserve.links()].map((l: any) => ({ url: l.payload.url, cause: l.cause, score: m.scoreOfEntry(l.payload), p: l.payload.signal ? probabilityOf(m.scoreOfEntry(l.payload)) : null, anchor: l.payload.anchorText, parent: l.payload.parentUrl, signal: l.payload.signal }));
const queue = [...m.queue.ranked()].map((x: any) => ({ url: x.entry.url, score: x.score, p: probabilityOf(x.score) }));
const focusState = focused.focus.focus?.toJSON?.() ?? null;
writeFileSync(out!, JSON.stringify({ query, report, takes, pages, skips, drops, reserve, queue, known: [...m.known], droppedEarlier: m.droppedEarlier, explorations: explorations(), focusState, log: `${dir}.requests.jsonl` }));
await server.close();
process.exit(0);
