// Rendering diagnostic (issue 11): tsx bench/focus/diag-rendering.ts [query] [startUrl] [budget]
// Adaptive mode, stop never: when each page was predicted for the browser (a check), refused over plain HTTP (thin or a
// shell) and compared, so a crawl's renders can be told apart.
import { LogLevel, log } from 'crawlee';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';
import { startCorpusServer } from './corpus-server.js';
const [query = 'computing guide email printing', start = 'http://www-cs.stanford.edu/events/calendar/month/2016-01.html', budget = '100'] = process.argv.slice(2);
log.setLevel(LogLevel.ERROR);
const dir = `/tmp/bw/rend-${Date.now()}`;
const server = await startCorpusServer(`${dir}.requests.jsonl`);
const t0 = performance.now();
const focused = await createFocusedCrawler({ mode: 'adaptive', query, startUrls: [start], maxPages: Number(budget), stop: 'never', proxyUrls: [server.proxyUrl], ignoreHttpsErrors: true, storageDir: dir, resume: false, respectRobotsTxt: false });
const ledger: any = (focused.focus as any).renderings;
const pred: any = ledger.predictor;
const events: string[] = [];
const now = () => Math.round(performance.now() - t0);
const origPredict = pred.predict.bind(pred);
pred.predict = (req: any) => { const r = origPredict(req); if (r.renderingType !== 'static' || r.detectionProbabilityRecommendation > 0) events.push(`${now()} predict ${r.renderingType} det=${r.detectionProbabilityRecommendation.toFixed(2)} ${req.url.slice(27)}`); return r; };
const origRefuse = ledger.refusesPlainHttp.bind(ledger);
ledger.refusesPlainHttp = (ctx: any, html: string, page: any) => { const r = origRefuse(ctx, html, page); if (r) events.push(`${now()} refused(thin/shell) ${ctx.request.url.slice(27)}`); return r; };
const origStore = pred.storeResult.bind(pred);
pred.storeResult = (req: any, t: string) => { events.push(`${now()} store ${t} ${(Array.isArray(req) ? req[0] : req).url.slice(27)}`); return origStore(req, t); };
const report: any = await focused.run();
console.log(events.join('\n'));
console.log('wall', now(), JSON.stringify(report.rendering));
await server.close();
process.exit(0);
