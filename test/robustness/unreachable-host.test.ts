import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import type { CrawlMode } from '../../src/index.js';
import { startLoggingProxy } from '../helpers/logging-proxy.js';
import type { LoggingProxy } from '../helpers/logging-proxy.js';
import { page, startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';

log.setLevel(LogLevel.OFF);

/** Never resolves (RFC 2606): reachable only through the proxy. */
const SITE_HOST = 'optics.invalid';
/** A subdomain the proxy cannot reach (it answers a CONNECT with 502), as a subdomain that is down or missing from a capture. */
const DEAD_HOST = 'forum.optics.invalid';
const GUIDES = 12;
const DEAD_LINKS = 6;
const BUDGET = 10;

/**
 * A guide site whose home links, under anchors naming the query, to six forum threads on a subdomain that cannot be
 * reached, and to guide pages that exist.
 */
function siteWithDeadSubdomain() {
    return startSite((path) => {
        const guide = /^\/guide\/(\d+)$/.exec(path);
        if (path !== '/' && !guide) return undefined;
        const i = guide ? Number(guide[1]) : 0;
        const guides = Array.from({ length: GUIDES }, (_, k) => `<li><a href="/guide/${k + 1}">Telescope optics guide ${k + 1}</a></li>`).join('');
        const threads = Array.from({ length: DEAD_LINKS }, (_, k) => `<li><a href="https://${DEAD_HOST}/t/${k}">Telescope optics forum thread ${k}</a></li>`).join('');
        return page(`Telescope optics guide ${i}`, `<main><h1>Telescope optics guide ${i}</h1><p>How telescope optics work, part ${i}.</p><ul>${threads}</ul><ul>${guides}</ul></main>`);
    });
}

describe.each<CrawlMode>(['http', 'browser', 'adaptive'])('links into a host that cannot be reached, %s mode', (mode) => {
    let site: TestSite;
    let proxy: LoggingProxy;
    beforeAll(async () => {
        site = await siteWithDeadSubdomain();
        proxy = await startLoggingProxy({ [SITE_HOST]: site.url });
    });
    afterAll(async () => {
        await proxy.close();
        await site.close();
    });

    it('spends one page on the dead host, never retries it, and spends the rest of the budget on the site', async () => {
        const focused = await createFocusedCrawler({
            mode,
            startUrls: [`http://${SITE_HOST}/`],
            query: 'telescope optics',
            proxyUrls: [proxy.url],
            maxPages: BUDGET,
            // More slots than the site's host may fill: without the probe rule, the spare ones go to the dead host at once.
            maxConcurrency: 6,
            maxRequestsPerHost: 2,
            maxRequestRetries: 3,
            stop: 'never',
            respectRobotsTxt: false,
            storageDir: mkdtempSync(join(tmpdir(), `cf-dead-host-${mode}-`)),
        });
        const report = await focused.run();

        const tunnels = proxy.requests.filter((r) => r.method === 'CONNECT' && r.host === DEAD_HOST);
        const failed = report.failures['host-unreachable'] ?? 0;
        // Every attempt at the dead host is a page of its own: a host failure of a host that never answered is not retried.
        expect(failed).toBeGreaterThan(0);
        // Chromium itself tries a refused tunnel a few times within one navigation; got-scraping asks once. Adaptive mode
        // renders a page of a host it knows nothing about; a plain-HTTP attempt that cannot reach the host fails at once,
        // with no browser attempt after it.
        expect(tunnels.length).toBeLessThanOrEqual(failed * (mode === 'http' ? 1 : 4));
        // A host that has not answered yet takes one request at a time, and its first failure sinks its other links
        // behind every link of the site: one page of the budget is lost to it, whatever the concurrency.
        expect(failed).toBe(1);
        expect(report.failing).toContainEqual(expect.objectContaining({ part: DEAD_HOST }));
        expect(report.pagesFetched).toBe(BUDGET);
        const guidePages = new Set(proxy.requests.filter((r) => r.host === SITE_HOST && /^\/guide\//.test(r.path)).map((r) => r.path));
        expect(guidePages.size).toBe(BUDGET - 1 - failed);
    }, 180_000);
});
