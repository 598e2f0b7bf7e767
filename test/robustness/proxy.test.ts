import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CRAWLEE_FOCUS_USER_AGENT, createFocusedCrawler } from '../../src/index.js';
import type { CrawlMode } from '../../src/index.js';
import { startLoggingProxy } from '../helpers/logging-proxy.js';
import type { LoggingProxy } from '../helpers/logging-proxy.js';
import { startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';
import { telescopeSite } from '../helpers/telescope-site.js';

log.setLevel(LogLevel.OFF);

/** Never resolves (RFC 2606): the site is reachable only through the proxy, and a direct connection fails. */
const SITE_HOST = 'telescopes.invalid';
const BUDGET = 12;

describe.each<CrawlMode>(['http', 'browser', 'adaptive'])('every request through the proxy, %s mode', (mode) => {
    let site: TestSite;
    let proxy: LoggingProxy;
    beforeAll(async () => {
        site = await startSite(telescopeSite());
        proxy = await startLoggingProxy({ [SITE_HOST]: site.url });
    });
    afterAll(async () => {
        await proxy.close();
        await site.close();
    });

    it('reaches a host only the proxy knows, with the crawl user agent, and sends nothing to any other host', async () => {
        const focused = await createFocusedCrawler({
            mode,
            startUrls: [`http://${SITE_HOST}/`],
            query: 'telescope',
            proxyUrls: [proxy.url],
            maxPages: BUDGET,
            maxConcurrency: 2,
            stop: 'never',
            storageDir: mkdtempSync(join(tmpdir(), `cf-proxy-${mode}-`)),
        });
        const report = await focused.run();

        // A request around the proxy cannot resolve the host: it would fail, or (adaptive detection) count as "needs a browser".
        expect(report.failures).toEqual({});
        expect(report.pagesFetched).toBe(BUDGET);
        expect(report.pagesProcessed).toBe(BUDGET);
        const proxied = proxy.requests.filter((r) => r.host === SITE_HOST);
        expect(proxied.map((r) => r.path)).toContain('/robots.txt');
        const pagePaths = new Set(proxied.map((r) => r.path).filter((p) => p !== '/robots.txt' && p !== '/favicon.ico'));
        expect(pagePaths.size).toBe(BUDGET);
        expect(proxied.filter((r) => r.userAgent !== CRAWLEE_FOCUS_USER_AGENT)).toEqual([]);
        // Adaptive mode reads the static pages over plain HTTP, which reaches the site only through the proxy.
        if (mode === 'adaptive') expect(report.rendering.http).toBeGreaterThan(0);
        expect(report.rendering.browser + report.rendering.http).toBe(BUDGET);
        // Where the time went, per page (the cost bench prints it): every phase measured, the browser's read only there
        expect(report.timings.pages).toBe(BUDGET);
        expect(Object.values(report.timings.millisPerPage).every((ms) => ms >= 0)).toBe(true);
        if (mode === 'browser') expect(report.timings.millisPerPage.read).toBeGreaterThan(report.timings.millisPerPage.extract);

        // Nothing else, Chromium's own update and sign-in services included (see CHROMIUM_ARGS).
        expect(proxy.requests.filter((r) => r.host !== SITE_HOST)).toEqual([]);
    }, 180_000);
});
