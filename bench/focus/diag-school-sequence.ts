// Diagnostic: the school-site test's crawls in its order (http then adaptive mode, three queries each, one process),
// repeated `rounds` times: recall, stop, renders, and the admissions crawl's fetch order. Written to chase an
// intermittent failure of the adaptive-mode test (twenty-ninth session): `npx tsx bench/focus/diag-school-sequence.ts 2`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogLevel, log } from 'crawlee';
import { createFocusedCrawler } from '../../src/index.js';
import { startSchoolSite } from '../../test/helpers/school-site.js';
import type { SchoolQuery } from '../../test/helpers/school-site.js';
log.setLevel(LogLevel.ERROR);
const queries: SchoolQuery[] = ['science department teachers', 'CCA clubs and societies', 'admissions scholarships financial assistance'];
for (let round = 0; round < Number(process.argv[2] ?? 2); round++) {
    for (const mode of ['http', 'adaptive'] as const) {
        const site = await startSchoolSite();
        for (const query of queries) {
            site.requests.length = 0;
            const focused = await createFocusedCrawler({ mode, query, startUrls: [`${site.url}/`], maxPages: 80, storageDir: mkdtempSync(join(tmpdir(), 'cf-school-')) });
            const report = await focused.run();
            const seq = [...new Set(site.requests.map((r) => r.path))];
            const tag = (p: string) => (site.relevant[query].includes(p) ? '*' : '') + p.replace(/^\/news\/\d+\//, 'N:').slice(0, 28);
            console.log(`RUN ${round} ${mode} ${query} recall ${site.recall(query).toFixed(2)} stop ${report.stopReason} fetched ${report.pagesFetched} ${JSON.stringify((report as any).rendering ?? null)}`);
            if (query.startsWith('admissions')) console.log(seq.map((p, i) => `${i}:${tag(p)}`).join('  '));
        }
        await site.close();
    }
}
