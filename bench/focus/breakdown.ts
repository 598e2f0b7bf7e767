// tsx bench/focus/breakdown.ts <diag.json> <url-substring>...   : score breakdown under the final state
import { readFileSync } from 'node:fs';
import { Focus } from '../../src/focus/focus.js';
import { linkFeatures, provenDemotion, DEPTH_DECAY } from '../../src/focus/link-score.js';
import { TermWeights } from '../../src/focus/weights.js';
import { Locality } from '../../src/focus/locality.js';
const [file, ...subs] = process.argv.slice(2);
const d = JSON.parse(readFileSync(file!, 'utf8'));
const focus = Focus.fromJSON(d.focusState);
const tw = TermWeights.fromJSON(d.focusState.termWeights);
const loc = Locality.fromJSON(d.focusState.locality);
const w = focus.linkWeights;
console.log('weights', w.map((x: number) => x.toFixed(2)).join(' '), 'terms', focus.termWeights.map((x) => x.toFixed(2)).join(' '));
const pool = [...d.takes.map((t: any) => ({ ...t, from: 'taken#' + t.i })), ...d.reserve.map((r: any) => ({ ...r, from: 'reserve' }))];
const names = ['anchor', 'url', 'ctx', 'parent', 'phrase', 'locality'];
for (const sub of subs) {
    for (const e of pool.filter((e: any) => e.url.includes(sub)).slice(0, 3)) {
        const s = e.signal; if (!s || s.fixed !== undefined) continue;
        const f = linkFeatures(s, tw, loc);
        const parts = f.map((x, i) => `${names[i]}=${(x * (w[i] ?? 0)).toFixed(2)}`).join(' ');
        const dem = Math.min(s.furniture ? 0.2 : 1, s.dated ? 0.2 : 1);
        const fac = dem < 1 ? provenDemotion(dem, loc.templateEstimate(s.locality)) : 1;
        console.log(`${e.from} ${e.url.replace('https://www.openehr.org', '')} "${(e.anchor ?? '').slice(0, 30)}" now=${focus.score(s).toFixed(3)} atTake=${(e.score ?? 0).toFixed(3)} | ${parts} | factor=${fac.toFixed(2)} depth=${s.depth} (x${(DEPTH_DECAY ** s.depth).toFixed(2)}) sect=${s.section} cont=${!!s.continues}`);
    }
}
