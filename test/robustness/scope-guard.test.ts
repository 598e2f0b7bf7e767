import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import type { CrawlMode } from '../../src/index.js';
import { page, startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';

log.setLevel(LogLevel.OFF);

/**
 * Browser and adaptive mode (which renders some pages in Chromium and fetches the others over plain HTTP) keep every
 * navigation and redirect inside the scope; http mode's redirects are covered by faults.test.ts.
 */
describe.each<CrawlMode>(['browser', 'adaptive'])('the scope guard in %s mode', (mode) => {
    let site: TestSite;
    let other: TestSite;
    beforeAll(async () => {
        other = await startSite({
            '/away': page('Away', '<p>Another site.</p>'),
            '/moved': page('Moved', '<p>Telescope page on another site.</p>'),
            '/style.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('h1 { color: navy; }'),
        });
        // "localhost" is another host name than the seed's 127.0.0.1: out of scope, though the same machine.
        const away = other.url.replace('127.0.0.1', 'localhost');
        site = await startSite({
            '/': page(
                'Telescopes',
                `<main><h1>Telescopes</h1><p>Telescope guide.</p><a href="/leaves">Telescope that leaves</a><a href="/moved">Telescope that moved</a><a href="/stays">Telescope that stays</a></main><link rel="stylesheet" href="${away}/style.css">`,
            ),
            '/leaves': page('Leaving', `<main><h1>Telescope page that leaves</h1><p>Telescope text.</p></main><script>setTimeout(() => { location.href = ${JSON.stringify(`${away}/away`)}; }, 50)</script>`),
            '/moved': (_req, res) => void res.writeHead(301, { location: `${away}/moved` }).end(),
            '/stays': page('Staying', '<main><h1>Telescope page that stays</h1><p>Telescope text.</p></main>'),
        });
    });
    afterAll(async () => {
        await site.close();
        await other.close();
    });

    it('stops a script navigation and a redirect to another host before they are sent, and reads the pages in scope', async () => {
        const focused = await createFocusedCrawler({
            mode,
            startUrls: [`${site.url}/`],
            query: 'telescope',
            maxPages: 5,
            stop: 'never',
            respectRobotsTxt: false,
            storageDir: mkdtempSync(join(tmpdir(), `cf-scope-${mode}-`)),
        });
        const report = await focused.run();
        expect(other.requests).not.toContain('/away');
        expect(other.requests).not.toContain('/moved');
        expect(report.failures).toEqual({ 'redirect-blocked': 1 });
        expect(site.hits('/moved')).toBe(1); // not retried: a retry cannot fix it
        expect(site.hits('/leaves')).toBeGreaterThanOrEqual(1);
        expect(report.pagesProcessed).toBe(3); // the home, /leaves and /stays; /moved failed
        expect(report.skipped['out-of-scope']).toBeGreaterThanOrEqual(1);
        if (mode === 'browser') {
            expect(site.hits('/leaves')).toBe(1); // read once, not replaced by an error page and retried
            // A stylesheet, not an image: images are not downloaded (blockMedia), which browser-crawl.test.ts covers.
            expect(other.requests).toContain('/style.css');
        }
    }, 90_000);
});

/** A start URL that redirects to another host: the site moved, and the crawl follows it there. */
describe.each<CrawlMode>(['http', 'browser', 'adaptive'])('a start URL that redirects to another host, %s mode', (mode) => {
    let old: TestSite;
    let moved: TestSite;
    let movedUrl: string;
    beforeAll(async () => {
        moved = await startSite({
            '/home': page('Telescopes', '<main><h1>Telescopes</h1><p>Telescope guide.</p><a href="/refractors">Refractor telescopes</a></main>'),
            '/refractors': page('Refractors', '<main><h1>Refractor telescopes</h1><p>A refractor telescope uses lenses.</p></main>'),
        });
        movedUrl = moved.url.replace('127.0.0.1', 'localhost');
        old = await startSite({ '/': (_req, res) => void res.writeHead(301, { location: `${movedUrl}/home` }).end() });
    });
    afterAll(async () => {
        await old.close();
        await moved.close();
    });

    const crawlFrom = async (allowedHosts?: string[]) => {
        const focused = await createFocusedCrawler({
            mode,
            startUrls: [`${old.url}/`],
            query: 'telescope',
            maxPages: 5,
            stop: 'never',
            respectRobotsTxt: false,
            ...(allowedHosts ? { allowedHosts } : {}),
            storageDir: mkdtempSync(join(tmpdir(), `cf-moved-${mode}-`)),
        });
        return focused.run();
    };

    it("brings the target's host into the scope when the scope comes from the start URLs", async () => {
        const report = await crawlFrom();
        expect(moved.hits('/home')).toBeGreaterThanOrEqual(1);
        expect(moved.hits('/refractors')).toBeGreaterThanOrEqual(1); // a link of the moved site, in scope now
        expect(report.failures).toEqual({});
        expect(report.relevantPages).toBe(2);
    }, 90_000);

    it('keeps a scope the user drew: the redirect is blocked', async () => {
        const before = moved.requests.length;
        const report = await crawlFrom(['127.0.0.1']);
        expect(moved.requests.length).toBe(before);
        expect(report.failures).toEqual({ 'redirect-blocked': 1 });
    }, 90_000);
});
