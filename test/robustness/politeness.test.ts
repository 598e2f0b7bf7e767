import { LogLevel, log } from 'crawlee';
import { afterEach, describe, expect, it } from 'vitest';

import type { CrawlMode } from '../../src/index.js';
import { startLoggingServer } from '../helpers/fault-server.js';
import type { Handler, LoggingServer, SeenRequest } from '../helpers/fault-server.js';
import { page } from '../helpers/site-server.js';
import { crawl } from './crawl.js';

log.setLevel(LogLevel.ERROR);

const MODES: CrawlMode[] = ['http', 'browser'];

/** A hub linking `count` pages, each answered after `delayMillis`; `special` routes override. */
function hubSite(count: number, delayMillis: number, special: Record<string, Handler> = {}, host?: string): Promise<LoggingServer> {
    const links = Array.from({ length: count }, (_, i) => `<li><a href="/p/${i}">Page ${i}</a></li>`).join('');
    return startLoggingServer((url) => {
        if (special[url.pathname]) return special[url.pathname];
        const isHub = url.pathname === '/';
        if (!isHub && !/^\/p\/\d+$/.test(url.pathname)) return undefined;
        return (_req, res) => {
            const body = isHub ? `<main><h1>Hub</h1><ul>${links}</ul></main>` : `<main><h1>Page ${url.pathname}</h1><p>Text of ${url.pathname}.</p></main>`;
            setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Page', body)), isHub ? 0 : delayMillis);
        };
    }, host);
}

/** Page requests only (no robots.txt, no browser favicon). */
function pageRequests(server: LoggingServer): SeenRequest[] {
    return server.requests.filter((r) => r.path !== '/robots.txt' && r.path !== '/favicon.ico');
}

/** The most requests the server had open at once. */
function maxInFlight(requests: SeenRequest[]): number {
    const events = requests.flatMap((r) => [
        { at: r.at, delta: 1 },
        { at: r.endedAt ?? Infinity, delta: -1 },
    ]);
    events.sort((a, b) => a.at - b.at || a.delta - b.delta);
    let open = 0;
    let max = 0;
    for (const { delta } of events) max = Math.max(max, (open += delta));
    return max;
}

function gaps(requests: SeenRequest[]): number[] {
    const starts = requests.map((r) => r.at).sort((a, b) => a - b);
    return starts.slice(1).map((at, i) => at - starts[i]!);
}

describe.each([...MODES, 'adaptive' as const])('politeness in %s mode', (mode) => {
    const servers: LoggingServer[] = [];
    afterEach(async () => {
        await Promise.all(servers.splice(0).map((s) => s.close()));
    });

    it('keeps at most maxRequestsPerHost requests in flight per host, whatever the concurrency', async () => {
        const site = await hubSite(mode === 'browser' ? 10 : 24, 300);
        servers.push(site);
        await crawl({ mode, startUrls: [`${site.url}/`], maxPages: 100, maxConcurrency: 8, minConcurrency: 8, maxRequestsPerHost: 2 });
        const requests = pageRequests(site);
        // Adaptive mode fetches a page twice when it compares its renderings; both fetches count against the limit.
        if (mode === 'adaptive') expect(new Set(requests.map((r) => r.path)).size).toBe(25);
        else expect(requests.length).toBe(mode === 'http' ? 25 : 11);
        expect(maxInFlight(requests)).toBeLessThanOrEqual(2);
    }, 120_000);

    it('waits minDelayPerHostMillis between two requests to a host', async () => {
        const site = await hubSite(6, 0);
        servers.push(site);
        await crawl({ mode, startUrls: [`${site.url}/`], maxPages: 100, maxConcurrency: 4, minDelayPerHostMillis: 400 });
        const requests = pageRequests(site);
        // Adaptive mode fetches a page twice when it compares its renderings; the second fetch waits its turn too.
        if (mode === 'adaptive') expect(new Set(requests.map((r) => r.path)).size).toBe(7);
        else expect(requests).toHaveLength(7);
        for (const gap of gaps(requests)) expect(gap).toBeGreaterThanOrEqual(380);
    }, 120_000);

    it.skipIf(mode === 'adaptive')('backs off only the host that answered 429 with Retry-After', async () => {
        let throttled = false;
        const busy = await hubSite(4, 50, {
            '/p/0': (_req, res) => {
                if (!throttled) {
                    throttled = true;
                    res.writeHead(429, { 'retry-after': '3', 'content-type': 'text/html' }).end(page('Slow down', '<h1>Too many requests</h1>'));
                } else {
                    res.writeHead(200, { 'content-type': 'text/html' }).end(page('Zero', '<main><h1>Page zero</h1><p>Back again.</p></main>'));
                }
            },
        });
        const calm = await hubSite(mode === 'http' ? 30 : 12, 250, {}, 'localhost');
        servers.push(busy, calm);
        const { delivered } = await crawl({
            mode,
            startUrls: [`${busy.url}/`, `${calm.url}/`],
            maxPages: 100,
            maxConcurrency: 4,
            maxRequestsPerHost: 1,
        });
        // The window is the back-off itself, from the refusal to the retry: no clock-based bound that a slow machine breaks.
        const [refusal, retry] = busy.requests.filter((r) => r.path === '/p/0');
        expect(busy.hits('/p/0')).toBe(2);
        expect(retry!.at - refusal!.at).toBeGreaterThanOrEqual(2900);
        const inWindow = (r: SeenRequest) => r.at > refusal!.at + 50 && r.at < retry!.at;
        expect(pageRequests(busy).filter(inWindow)).toEqual([]);
        expect(pageRequests(calm).filter(inWindow).length).toBeGreaterThanOrEqual(1);
        expect(delivered).toContain('/p/0');
    }, 120_000);
});

describe.each(MODES)('robots.txt in %s mode', (mode) => {
    let site: LoggingServer | undefined;
    afterEach(async () => site?.close());

    /** A site whose robots.txt shuts out everyone but crawlee-focus, and names a sitemap of two unlinked pages. */
    async function robotsSite(robotsStatus = 200): Promise<LoggingServer> {
        let self = '';
        const text = (body: string, type = 'text/html; charset=utf-8'): Handler => (_req, res) => void res.writeHead(200, { 'content-type': type }).end(body);
        const server = await startLoggingServer((url) => {
            const routes: Record<string, Handler> = {
                '/robots.txt': (_req, res) =>
                    void res
                        .writeHead(robotsStatus, { 'content-type': 'text/plain' })
                        .end(['User-agent: *', 'Disallow: /', '', 'User-agent: crawlee-focus', 'Disallow: /private/', 'Allow: /private/open', 'Crawl-delay: 0.4', `Sitemap: ${self}/sitemap.xml`].join('\n')),
                '/sitemap.xml': text(`<?xml version="1.0"?><urlset><url><loc>${self}/from-sitemap/1</loc></url><url><loc>${self}/from-sitemap/2</loc></url></urlset>`, 'application/xml'),
                '/': text(page('Home', '<main><h1>Home</h1><a href="/public/1">One</a> <a href="/public/2">Two</a> <a href="/private/secret">Secret</a> <a href="/private/open">Open</a></main>')),
            };
            if (routes[url.pathname]) return routes[url.pathname];
            if (/^\/(public|private|from-sitemap)\//.test(url.pathname)) return text(page(url.pathname, `<main><h1>${url.pathname}</h1><p>Content of ${url.pathname}.</p></main>`));
            return undefined;
        });
        self = server.url;
        return server;
    }

    it('obeys the crawlee-focus group: disallowed pages never fetched, crawl-delay kept, sitemap pages queued', async () => {
        site = await robotsSite();
        const { report, delivered } = await crawl({ mode, startUrls: [`${site.url}/`], maxPages: 50, maxConcurrency: 4 });
        expect(site.hits('/private/secret')).toBe(0);
        expect(report.skipped['robots-disallowed']).toBe(1);
        expect(delivered).toEqual(expect.arrayContaining(['/', '/public/1', '/public/2', '/private/open', '/from-sitemap/1', '/from-sitemap/2']));
        expect(site.requests[0]!.path).toBe('/robots.txt');
        expect(site.requests[0]!.userAgent).toContain('crawlee-focus');
        // the sitemap is read by the robots cache, outside the page schedule
        for (const gap of gaps(pageRequests(site).filter((r) => r.path !== '/sitemap.xml'))) expect(gap).toBeGreaterThanOrEqual(380);
    }, 120_000);

    it('ignores robots.txt and its sitemaps when told to', async () => {
        site = await robotsSite();
        const { report, delivered } = await crawl({ mode, startUrls: [`${site.url}/`], maxPages: 50, maxConcurrency: 4, respectRobotsTxt: false });
        expect(site.hits('/robots.txt')).toBe(0);
        expect(delivered).toContain('/private/secret');
        expect(delivered.filter((p) => p.startsWith('/from-sitemap/'))).toEqual([]);
        expect(report.skipped['robots-disallowed']).toBeUndefined();
    }, 120_000);

    it('treats a host whose robots.txt answers 503 as disallowed (RFC 9309) after asking three times, and says so in the report', async () => {
        site = await robotsSite(503);
        const { report, delivered } = await crawl({ mode, startUrls: [`${site.url}/`], maxPages: 50 });
        expect(site.hits('/robots.txt')).toBe(3);
        expect(pageRequests(site)).toEqual([]);
        expect(delivered).toEqual([]);
        expect(report.skipped['robots-disallowed']).toBe(1);
        expect(report.stopReason).toBe('exhausted');
    }, 120_000);
});
