import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Dataset, KeyValueStore, LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler, pageFocus } from '../../src/index.js';
import type { FocusReport } from '../../src/index.js';
import { page, startSite } from '../helpers/site-server.js';
import type { Route, TestSite } from '../helpers/site-server.js';

log.setLevel(LogLevel.WARNING);

const TOPIC = ['Robotics', 'Robot vision', 'Robot learning', 'Robot arms', 'Robot safety'];
const FILLER = 'Our department offers many services to the community, with friendly staff and long opening hours.';

/** A hub with 40 links: 5 about robots (listed last), 35 about other things; each robot page links to a deeper one. */
function robotSite(): Record<string, string> {
    const routes: Record<string, string> = {};
    const other = Array.from({ length: 35 }, (_, i) => `<li><a href="/misc/item-${i}">Item ${i} of the catalogue</a></li>`).join('');
    const robots = TOPIC.map((t, i) => `<li><a href="/robots/r${i}">${t}</a></li>`).join('');
    routes['/'] = page('Home', `<main><h1>Welcome</h1><p>${FILLER}</p><ul>${other}${robots}</ul></main>`);
    for (let i = 0; i < 35; i++) routes[`/misc/item-${i}`] = page(`Item ${i}`, `<main><h1>Item ${i}</h1><p>${FILLER} Item number ${i} is a chair.</p></main>`);
    TOPIC.forEach((t, i) => {
        routes[`/robots/r${i}`] = page(
            t,
            `<main><h1>${t}</h1><p>Robots and robot research: ${t.toLowerCase()} is studied by our robot lab. Robot ${i}.</p><p><a href="/robots/deep/d${i}">More robot ${t.toLowerCase()} details</a></p></main>`,
        );
        routes[`/robots/deep/d${i}`] = page(`${t} details`, `<main><h1>${t} details</h1><p>Robot details: how each robot is built, robot ${i} of ${t.toLowerCase()}.</p></main>`);
    });
    return routes;
}

async function crawl(options: Parameters<typeof createFocusedCrawler>[0]): Promise<{ report: FocusReport; items: Record<string, unknown>[] }> {
    const storageDir = mkdtempSync(join(tmpdir(), 'cf-http-'));
    const focused = await createFocusedCrawler({ mode: 'http', storageDir, ...options });
    const report = await focused.run();
    const { items } = await (await Dataset.open(undefined, { config: focused.focus.config })).getData();
    const stored = await (await KeyValueStore.open(undefined, { config: focused.focus.config })).getValue<FocusReport>('FOCUS_REPORT');
    expect(stored).toEqual(report);
    return { report, items };
}

describe('focused crawl in http mode (CheerioCrawler)', () => {
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite(robotSite());
    });
    afterAll(async () => site.close());

    it('fetches the on-topic links first although the page lists them last', async () => {
        site.requests.length = 0;
        const { report, items } = await crawl({ startUrls: [`${site.url}/`], query: ' Robots ', maxPages: 12, maxConcurrency: 1, stop: 'never' });
        expect(report.query).toBe('Robots'); // as the user wrote it, not the normalised term
        expect(Object.keys(report.termEvidence)).toEqual(['robot']);
        const fetched = site.requests.filter((r) => r !== '/robots.txt');
        expect(fetched).toHaveLength(12);
        // seed + 5 robot pages + 5 deep robot pages; of the 35 others only one, the 10th page: exploration's turn
        // (one page in ten goes to a section no fetch has entered)
        expect(fetched.filter((p) => p.startsWith('/robots/'))).toHaveLength(10);
        expect(fetched.filter((p) => p.startsWith('/misc/'))).toHaveLength(1);
        expect(fetched.findIndex((p) => p.startsWith('/misc/'))).toBe(9);
        expect(report.exploration).toEqual({ pages: 1, sectionsOpened: 2 });
        expect(report.pagesFetched).toBe(12);
        expect(report.stopReason).toBe('limit_reached');
        const delivered = items.map((i) => new URL(String(i.url)).pathname);
        // every robot page is delivered, no catalogue page is (the hub lists robot anchors, so it may be)
        expect(delivered.filter((p) => p.startsWith('/robots/'))).toHaveLength(10);
        expect(delivered.filter((p) => p.startsWith('/misc/'))).toHaveLength(0);
        const item = items.find((i) => String(i.url).endsWith('/robots/deep/d0'))!;
        expect(item).toMatchObject({ depth: 2, parentUrl: `${site.url}/robots/r0`, anchorText: 'More robot robotics details' });
        expect(typeof item.markdown).toBe('string');
        expect(item.relevance as number).toBeGreaterThan(0.05);
    });

    it('holds maxPages exactly at concurrency 8', async () => {
        site.requests.length = 0;
        const { report } = await crawl({ startUrls: [`${site.url}/`], query: 'robot', maxPages: 17, maxConcurrency: 8, minConcurrency: 8, maxRequestsPerHost: 8, stop: 'never' });
        expect(site.requests.filter((r) => r !== '/robots.txt')).toHaveLength(17);
        expect(report.pagesFetched).toBe(17);
    });

    it('runs breadth-first without a query and delivers every page', async () => {
        site.requests.length = 0;
        const { report, items } = await crawl({ startUrls: [`${site.url}/`], maxPages: 8, maxConcurrency: 1 });
        expect(report.query).toBeNull();
        expect(items).toHaveLength(8);
        // breadth-first in page order: the hub, then its first links (the misc items)
        expect(site.requests.filter((r) => r !== '/robots.txt').slice(0, 3)).toEqual(['/', '/misc/item-0', '/misc/item-1']);
    });

    it("runs the user's handler after scoring, with the page's relevance", async () => {
        const seen: Array<{ url: string; relevance: number }> = [];
        await crawl({
            startUrls: [`${site.url}/`],
            query: 'robot',
            maxPages: 3,
            maxConcurrency: 1,
            requestHandler: ({ request }) => {
                seen.push({ url: request.url, relevance: pageFocus(request)!.relevance });
            },
        });
        expect(seen).toHaveLength(3);
        expect(seen[1]!.relevance).toBeGreaterThan(seen[0]!.relevance);
    });

    it('asks the delivery gate about one page at a time, delivers what it admits and stops as delivery-limit when it says so', async () => {
        const asked: string[] = [];
        const delivered: string[] = [];
        let inGate = 0;
        let overlapping = false;
        const { report, items } = await crawl({
            startUrls: [`${site.url}/robots/r0`, `${site.url}/robots/r1`, `${site.url}/robots/r2`, `${site.url}/robots/r3`, `${site.url}/robots/r4`],
            query: 'robot',
            maxPages: 11,
            maxConcurrency: 5,
            stop: 'never',
            deliveryGate: {
                admit: async (candidate) => {
                    overlapping ||= inGate > 0;
                    inGate += 1;
                    await new Promise((resolve) => setTimeout(resolve, 20));
                    inGate -= 1;
                    asked.push(candidate.url);
                    return { deliver: asked.length <= 3, stop: asked.length === 3 };
                },
                delivered: (candidate) => void delivered.push(candidate.url),
            },
        });
        expect(overlapping).toBe(false);
        expect(report.stopReason).toBe('delivery-limit');
        // admitted in turn; pushed (and told) as each push completes
        expect(items.map((item) => item.url).sort()).toEqual([...delivered].sort());
        expect([...delivered].sort()).toEqual(asked.slice(0, 3).sort());
        expect(report.relevantPages).toBe(3);
        expect(report.topPages.map((p) => p.url).sort()).toEqual([...delivered].sort());
        expect(report.pagesFetched).toBeLessThan(11);
    });
});

describe('the estimated recall in http mode', () => {
    it('learns its link probabilities from every fetched link: pages read, failed fetches and repeated pages alike', async () => {
        const body = (i: number) => `<main><h1>Robot ${i}</h1><p>Robots and robot research: robot ${i} is built in our robot lab, one robot of many.</p></main>`;
        const routes: Record<string, Route> = {};
        // 12 robot links: 4 pages that read, 4 missing (404), 2 that fail (500), 2 copies of the first page
        routes['/'] = page('Robots', `<main><h1>Robots</h1><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/robots/r${i}">Robot ${i}</a></li>`).join('')}</ul></main>`);
        for (const i of [0, 1, 2, 3]) routes[`/robots/r${i}`] = page(`Robot ${i}`, body(i));
        for (const i of [8, 9]) routes[`/robots/r${i}`] = (_req, res) => void res.writeHead(500).end('down');
        for (const i of [10, 11]) routes[`/robots/r${i}`] = page('Robot 0', body(0));
        const site = await startSite(routes);
        try {
            const storageDir = mkdtempSync(join(tmpdir(), 'cf-http-'));
            const focused = await createFocusedCrawler({ mode: 'http', storageDir, startUrls: [`${site.url}/`], query: 'robot', maxPages: 20, maxConcurrency: 2, maxRequestRetries: 0, stop: 'never' });
            const report = await focused.run();
            expect(report.pagesFetched).toBe(13);
            const bins = focused.focus.focus!.toJSON().calibration!.bins;
            const links = bins.reduce((sum, [, count]) => sum + count, 0);
            const productive = bins.reduce((sum, [, , paid]) => sum + paid, 0);
            // the seed teaches nothing; each of the 12 links does, and only the 4 pages read paid off
            expect(links).toBe(12);
            expect(productive).toBe(4);
        } finally {
            await site.close();
        }
    });
});

// [I] acl2020, question answering: the paper list, reached by the anchor "Papers", was still rendering when ten
// quicker menu pages (all blind probes) came back, and the crawl stopped `no_relevant_pages` at 15 pages.
describe('a slow page reached blindly, while quicker menu pages come back irrelevant', () => {
    it('is judged before the crawl stops for nothing relevant, and opens the site', async () => {
        const menu = ['About', 'Contact', 'Visit', 'Sponsors', 'Organizers', 'Volunteers', 'Venue', 'Travel', 'Hotels', 'Dates', 'Press', 'Jobs', 'Code of conduct', 'Help'];
        const topic = Array.from({ length: 8 }, (_, i) => `Robot arms study ${i}`);
        const routes: Record<string, Route> = {
            '/': page('Conference', `<main><h1>Conference</h1><p>${FILLER}</p><ul>${menu.map((m, i) => `<li><a href="/m${i}">${m}</a></li>`).join('')}<li><a href="/list">Programme</a></li></ul></main>`),
            '/list': async (_req, res) => {
                await new Promise((resolve) => setTimeout(resolve, 1500));
                const items = topic.map((t, i) => `<li><a href="/items/${i}">${t}</a>: how robot arms grasp, lift and place parts.</li>`).join('');
                res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Programme', `<main><h1>Programme: robot arms</h1><p>Robot arms and robotic arms research.</p><ul>${items}</ul></main>`));
            },
        };
        menu.forEach((m, i) => { routes[`/m${i}`] = page(m, `<main><h1>${m}</h1><p>${FILLER} ${m} information for guests.</p></main>`); });
        topic.forEach((t, i) => { routes[`/items/${i}`] = page(t, `<main><h1>${t}</h1><p>Robot arms: a study of how robot arms move, number ${i}.</p></main>`); });
        const site = await startSite(routes);
        try {
            const { report } = await crawl({ query: 'robot arms', startUrls: [`${site.url}/`], maxPages: 40, minConcurrency: 8, maxConcurrency: 8 });
            expect(report.stopReason).not.toBe('no_relevant_pages');
            expect(topic.filter((_, i) => site.hits(`/items/${i}`) > 0).length).toBeGreaterThanOrEqual(7);
        } finally {
            await site.close();
        }
    }, 60_000);
});
