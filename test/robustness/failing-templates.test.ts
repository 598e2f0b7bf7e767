import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CrawlMode } from '../../src/index.js';
import { startLoggingServer } from '../helpers/fault-server.js';
import type { LoggingServer } from '../helpers/fault-server.js';
import { page } from '../helpers/site-server.js';
import { crawl } from './crawl.js';

log.setLevel(LogLevel.OFF);

const BUDGET = 100;
/** Issue 10: failing templates take at most 5 % of the budget. */
const MAX_FAILING_SHARE = 0.05;
const TOPICS = ['optics', 'lenses', 'mirrors', 'telescopes', 'prisms', 'filters', 'mounts', 'eyepieces'];

const WORDS = ['aperture', 'focal', 'ratio', 'refractor', 'reflector', 'coating', 'collimation', 'diffraction', 'seeing', 'magnification', 'field', 'objective', 'chromatic', 'aberration', 'baffle', 'dew', 'cooling', 'alignment', 'spider', 'vane'];

/** Words of its own for every guide page (its number written in words), so no two read alike, unlike a filled-in template. */
function prose(i: number): string {
    const words: string[] = [];
    for (let rest = i + 1; rest > 0; rest = Math.floor(rest / WORDS.length)) words.push(WORDS[rest % WORDS.length]!);
    return `${words.join(' ')} and the ${words.reverse().join(' ')} of this part`;
}

/** How the site answers a link of its failing template: a 404, or a soft 404 (an error page served with 200). */
type Failure = '404' | 'soft-404';

/**
 * A site whose pages each link, under anchors naming the query, to pages that do not exist: `keyword_<topic>-<i>.html`
 * pages that are all 404 (a generated link template pointing nowhere, as on a real conference site), or, for soft 404s,
 * `<i>/<topic>-notes.html` below each guide page that all answer "Page not found" with status 200 (a relative link
 * resolved against the wrong base, as on a real institutional site). It also links to more guide pages that exist.
 */
function siteWithFailingTemplate(failure: Failure): Promise<LoggingServer> {
    return startLoggingServer((url) => {
        const guide = /^\/guide\/(\d+)$/.exec(url.pathname);
        const notFound = page('Page not found', '<main><h1>Page not found</h1><p>Sorry, the page you asked for does not exist.</p></main>');
        if (failure === 'soft-404' && /^\/guide\/\d+\/[a-z]+-notes\.html$/.test(url.pathname)) {
            return (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(notFound);
        }
        if (url.pathname !== '/' && !guide) return undefined; // keyword_*.html and everything else: 404
        const i = guide ? Number(guide[1]) : 0;
        const next = [2 * i + 1, 2 * i + 2].map((k) => `<li><a href="/guide/${k}">Telescope optics guide ${k}</a></li>`).join('');
        const target = (topic: string) => (failure === '404' ? `/keyword_${topic}-${i}.html` : `/guide/${i}/${topic}-notes.html`);
        const keywords = TOPICS.map((topic) => `<li><a href="${target(topic)}">Telescope optics: ${topic}</a></li>`).join('');
        return (_req, res) =>
            void res
                .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
                .end(page(`Telescope optics guide ${i}`, `<main><h1>Telescope optics guide ${i}</h1><p>How telescope optics work, part ${i}: ${prose(i)}.</p><ul>${next}</ul><ul>${keywords}</ul></main>`));
    });
}

const failingPath = (failure: Failure) => (failure === '404' ? /^\/keyword_/ : /-notes\.html$/);

describe.each<[CrawlMode, Failure]>([
    ['http', '404'],
    ['browser', '404'],
    ['http', 'soft-404'], // the catch-all page is learned from page texts, the same in every mode
])('a failing link template in %s mode (%s)', (mode, failure) => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await siteWithFailingTemplate(failure);
    });
    afterAll(async () => site.close());

    it(`is demoted after a few failures: it takes at most ${MAX_FAILING_SHARE * 100} % of the budget, and the report names it`, async () => {
        const before = site.requests.length;
        const { report, items } = await crawl({ mode, query: 'telescope optics', startUrls: [`${site.url}/`], maxPages: BUDGET, maxConcurrency: 2, stop: 'never' });
        const pages = site.requests.slice(before).filter((r) => r.path !== '/robots.txt' && r.path !== '/favicon.ico');
        const failing = pages.filter((r) => failingPath(failure).test(r.path));
        console.log(`${mode}: ${failing.length} requests of ${pages.length} to the failing template`, JSON.stringify(report.failures), JSON.stringify(report.failing));
        expect(report.pagesFetched).toBe(BUDGET);
        expect(failing.length).toBeLessThanOrEqual(MAX_FAILING_SHARE * BUDGET);
        if (failure === '404') {
            expect(report.failing).toContainEqual(expect.objectContaining({ part: expect.stringContaining('/keyword_*.html') }));
        } else {
            expect(report.failures['soft-404']).toBeGreaterThan(0);
            expect(report.failing).toContainEqual(expect.objectContaining({ part: expect.stringContaining('/guide/') }));
            // Only the first copy can be delivered: the crawl cannot know a text repeats before it has seen it twice.
            expect(items.filter((item) => item.title === 'Page not found').length).toBeLessThanOrEqual(1);
        }
    }, 240_000);
});
