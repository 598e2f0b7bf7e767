import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Dataset, LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import type { CrawlMode } from '../../src/index.js';
import { page, startSite } from '../helpers/site-server.js';
import type { Route, TestSite } from '../helpers/site-server.js';

log.setLevel(LogLevel.WARNING);

/** A page whose only links are built by JavaScript: one on DOMContentLoaded, one after a slow fetch. */
function jsSite(): Record<string, Route> {
    const script = `
      document.addEventListener('DOMContentLoaded', () => {
        const nav = document.getElementById('list');
        nav.insertAdjacentHTML('beforeend', '<li><a href="/telescopes/refractors">Refractor telescopes</a></li>');
        fetch('/api/more.json').then(r => r.json()).then(items => {
          for (const item of items) nav.insertAdjacentHTML('beforeend', '<li><a href="' + item.href + '">' + item.text + '</a></li>');
        });
      });`;
    return {
        '/': page('Shop', `<main><h1>Shop</h1><p>Welcome to the shop for optics.</p><ul id="list"></ul></main><script>${script}</script>`),
        // Late data: the DOM is quiet long before it arrives, so only waiting for pending requests catches it.
        '/api/more.json': (_req, res) =>
            void setTimeout(
                () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ href: '/telescopes/reflectors', text: 'Reflector telescopes' }])),
                1200,
            ),
        '/telescopes/refractors': page('Refractor telescopes', '<main><h1>Refractor telescopes</h1><p>A refractor telescope uses lenses. Telescope care.</p></main>'),
        '/telescopes/reflectors': page('Reflector telescopes', '<main><h1>Reflector telescopes</h1><p>A reflector telescope uses mirrors. Telescope care.</p></main>'),
    };
}

async function crawlPaths(site: TestSite, mode: CrawlMode): Promise<string[]> {
    const focused = await createFocusedCrawler({
        mode,
        startUrls: [`${site.url}/`],
        query: 'telescope',
        maxPages: 5,
        maxConcurrency: 2,
        stop: 'never',
        storageDir: mkdtempSync(join(tmpdir(), `cf-${mode}-`)),
    });
    await focused.run();
    const { items } = await (await Dataset.open(undefined, { config: focused.focus.config })).getData();
    return items.map((item) => new URL(String(item.url)).pathname).filter((path) => path !== '/').sort();
}

describe('browser mode reads the rendered DOM', () => {
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite(jsSite());
    });
    afterAll(async () => site.close());

    it('finds and scores links that exist only after JavaScript runs (Playwright + Chromium)', async () => {
        const delivered = await crawlPaths(site, 'browser');
        expect(delivered).toEqual(['/telescopes/reflectors', '/telescopes/refractors']);
        expect(site.hits('/api/more.json')).toBeGreaterThan(0);
    }, 90_000);

    it('does not find them in http mode (Cheerio sees the raw HTML)', async () => {
        site.requests.length = 0;
        const delivered = await crawlPaths(site, 'http');
        expect(delivered).toEqual([]);
        expect(site.requests.filter((r) => r.startsWith('/telescopes/'))).toEqual([]);
    });
});

describe('browser mode reads pages without their media', () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite({
            '/': page(
                'Observatory',
                `<style>@font-face { font-family: Star; src: url(/star.woff2); } body { font-family: Star; } main { background: url(/sky.png); }</style>
                 <main><h1>Telescope observatory</h1><p>Telescope nights for everyone.</p>
                 <a href="/telescopes/dome"><img src="/dome.png" alt="The telescope dome"></a>
                 <p id="pointer"></p>
                 <script>document.getElementById('pointer').textContent = 'Pointer hover ' + matchMedia('(hover: hover)').matches + ', fine ' + matchMedia('(pointer: fine)').matches;</script></main>`,
            ),
            '/dome.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png),
            '/sky.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(png),
            '/star.woff2': (_req, res) => void res.writeHead(200, { 'content-type': 'font/woff2' }).end(Buffer.alloc(64)),
            '/telescopes/dome': page('Telescope dome', '<main><h1>Telescope dome</h1><p>The telescope dome opens at night.</p></main>'),
        });
    });
    afterAll(async () => site.close());

    const crawl = async (blockMedia?: boolean) => {
        site.requests.length = 0;
        const focused = await createFocusedCrawler({
            mode: 'browser',
            startUrls: [`${site.url}/`],
            query: 'telescope dome',
            maxPages: 3,
            stop: 'never',
            storageDir: mkdtempSync(join(tmpdir(), 'cf-media-')),
            ...(blockMedia === undefined ? {} : { blockMedia }),
        });
        await focused.run();
        const { items } = await (await Dataset.open(undefined, { config: focused.focus.config })).getData();
        return {
            paths: items.map((item) => new URL(String(item.url)).pathname).sort(),
            home: String(items.find((item) => new URL(String(item.url)).pathname === '/')?.markdown ?? ''),
        };
    };

    it('downloads no image or font by default, and still follows an image link by its alt text', async () => {
        const { paths, home } = await crawl();
        expect(paths).toEqual(['/', '/telescopes/dome']);
        expect(site.hits('/dome.png')).toBe(0);
        expect(site.hits('/sky.png')).toBe(0);
        expect(site.hits('/star.woff2')).toBe(0);
        // The flag that turns images off must keep Playwright's headless pointer, which pages may test for.
        expect(home).toContain('Pointer hover true, fine true');
    }, 90_000);

    it('downloads them with blockMedia: false', async () => {
        const { paths, home } = await crawl(false);
        expect(paths).toEqual(['/', '/telescopes/dome']);
        expect(site.hits('/dome.png')).toBeGreaterThan(0);
        expect(site.hits('/sky.png')).toBeGreaterThan(0);
        expect(home).toContain('Pointer hover true, fine true');
    }, 90_000);
});

describe('browser mode waits for a quiet DOM only on kinds of page that change after load', () => {
    // Ten catalogue pages are complete at load; three shelf pages add their link 100 ms after load (a timer, no data
    // request), so only the quiet-DOM wait finds it.
    const shelfScript = (n: number) => `window.addEventListener('load', () => setTimeout(() => document.getElementById('shelf').insertAdjacentHTML('beforeend', '<a href="/telescopes/shelf-${n}">Telescope on shelf ${n}</a>'), 100));`;
    const routes: Record<string, Route> = {
        '/': page('Telescopes', `<main><h1>Telescopes</h1><p>Telescope catalogue and shelves.</p>${Array.from({ length: 10 }, (_, i) => `<a href="/catalogue/${i + 1}">Telescope catalogue ${i + 1}</a> `).join('')}${[1, 2, 3].map((n) => `<a href="/shelf/${n}">Telescope shelf ${n}</a> `).join('')}</main>`),
    };
    for (let i = 1; i <= 10; i++) routes[`/catalogue/${i}`] = page(`Telescope catalogue ${i}`, `<main><h1>Telescope catalogue ${i}</h1><p>Telescope models, page ${i}.</p></main>`);
    for (const n of [1, 2, 3]) {
        routes[`/shelf/${n}`] = page(`Telescope shelf ${n}`, `<main><h1>Telescope shelf ${n}</h1><p>Telescopes on this shelf.</p><p id="shelf"></p></main><script>${shelfScript(n)}</script>`);
        routes[`/telescopes/shelf-${n}`] = page(`Telescope on shelf ${n}`, `<main><h1>Telescope on shelf ${n}</h1><p>A telescope.</p></main>`);
    }
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite(routes);
    });
    afterAll(async () => site.close());

    it('finds every link a shelf page builds after load, and reads catalogue pages at load once their kind is known still', async () => {
        const focused = await createFocusedCrawler({
            mode: 'browser',
            startUrls: [`${site.url}/`],
            query: 'telescope',
            maxPages: 30,
            maxConcurrency: 2,
            stop: 'never',
            storageDir: mkdtempSync(join(tmpdir(), 'cf-settle-')),
        });
        const report = await focused.run();
        expect(report.pagesFetched).toBe(17);
        for (const n of [1, 2, 3]) expect(site.hits(`/telescopes/shelf-${n}`), `shelf ${n}'s late link`).toBe(1);
        // The first catalogue page (and one fetched beside it) waits; the succession rule checks about one in n + 2
        // after: about 1.3 waits expected among the next eight. At most the catalogue's later nine pages and the
        // shelves' telescopes but the first are read at load.
        expect(report.rendering.readAtLoad).toBeGreaterThanOrEqual(3);
        expect(report.rendering.readAtLoad).toBeLessThanOrEqual(11);
    }, 90_000);
});
