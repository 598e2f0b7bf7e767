import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_SITE_ROOT, demoLabels, startDemoSite, type DemoSite } from '../../src/cli/demo-site.js';

const DEMO_QUERY = 'graduate admissions phd application';

/** Every page directory of the bundled site, as a `/dir/` path. */
const PAGE_PATHS = (readdirSync(DEFAULT_DEMO_SITE_ROOT, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file === 'index.html' || file.endsWith('/index.html'))
    .map((file) => `/${file.slice(0, -'index.html'.length)}`)
    .sort();
const PROGRAM_PATHS = (JSON.parse(readFileSync(join(DEFAULT_DEMO_SITE_ROOT, 'api/programs.json'), 'utf8')) as { programs: { path: string }[] }).programs.map((p) => p.path);

let site: DemoSite;
beforeAll(async () => {
    site = await startDemoSite();
});
afterAll(async () => {
    await site.close();
});

const get = (path: string, init: RequestInit = {}) => fetch(new URL(path, site.url), { redirect: 'manual', ...init });
async function body(path: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
    const response = await get(path);
    return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}
const text = async (path: string) => (await body(path)).bytes.toString('utf8');
/** A calendar page with every digit blanked: what two months have in common. */
const withoutDigits = (html: string) => html.replace(/\d/g, '0');

describe('startDemoSite', () => {
    it('listens on 127.0.0.1 on a random port and records every request', async () => {
        const own = await startDemoSite();
        try {
            expect(own.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
            expect(own.url).not.toBe(site.url);
            await fetch(new URL('/no-such-page?x=1', own.url));
            await fetch(new URL('/graduate/', own.url), { method: 'HEAD' });
            expect(own.requests).toEqual([
                { method: 'GET', path: '/no-such-page?x=1', status: 404 },
                { method: 'HEAD', path: '/graduate/', status: 200 },
            ]);
        } finally {
            await own.close();
        }
    });

    it('finds the bundled site in demo/site at the package root', () => {
        expect(relative(process.cwd(), DEFAULT_DEMO_SITE_ROOT)).toBe(join('demo', 'site'));
    });

    it('rejects with advice when the site folder is missing or the port is taken', async () => {
        await expect(startDemoSite({ root: '/nonexistent/demo/site' })).rejects.toThrow(/no index\.html in .*Pass `root`/);
        const blocker = createServer();
        await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
        const port = (blocker.address() as { port: number }).port;
        try {
            await expect(startDemoSite({ port })).rejects.toThrow(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\).*0 for a free one/);
        } finally {
            await new Promise((resolve) => blocker.close(resolve));
        }
    });
});

describe('duplicate spellings', () => {
    it('is a site of 60 to 90 pages', () => {
        expect(PAGE_PATHS.length).toBeGreaterThanOrEqual(60);
        expect(PAGE_PATHS.length).toBeLessThanOrEqual(90);
    });

    it('serves every page at /dir/ and /dir/index.html with the same bytes', async () => {
        for (const path of PAGE_PATHS) {
            const slash = await body(path);
            const index = await body(`${path}index.html`);
            expect(slash.status, path).toBe(200);
            expect(slash.type, path).toBe('text/html; charset=utf-8');
            expect(index.status, path).toBe(200);
            expect(index.bytes.equals(slash.bytes), path).toBe(true);
        }
    });

    it('ignores ?print=1 and tracking parameters', async () => {
        for (const path of PAGE_PATHS) {
            const plain = (await body(path)).bytes;
            for (const variant of ['?print=1', '?utm_source=newsletter&utm_medium=email', '?fbclid=IwAR0abc', 'index.html?print=1&utm_campaign=x']) {
                const served = await body(`${path}${variant}`);
                expect(served.status, path + variant).toBe(200);
                expect(served.bytes.equals(plain), path + variant).toBe(true);
            }
        }
    });

    it('redirects /dir to /dir/, keeping the query string', async () => {
        const response = await get('/graduate/admissions?utm_source=newsletter');
        expect(response.status).toBe(301);
        expect(response.headers.get('location')).toBe('/graduate/admissions/?utm_source=newsletter');
        expect((await get('/library')).headers.get('location')).toBe('/library/');
    });
});

describe('calendar trap', () => {
    const nextLink = (html: string) => load(html)('a[rel=next]').attr('href');

    it('renders any month, with prev and next links that never run out', async () => {
        let path = '/events/calendar/?month=2026-01';
        const pages: string[] = [];
        for (let step = 0; step < 4; step++) {
            const response = await get(path);
            expect(response.status, path).toBe(200);
            const html = await response.text();
            pages.push(html);
            path = `/events/calendar/${nextLink(html)}`;
        }
        expect(path).toBe('/events/calendar/?month=2026-05');
        expect(new Set(pages).size).toBe(pages.length);
        // Next of next differs from the first page only in its digits.
        expect(new Set(pages.map(withoutDigits)).size).toBe(1);
    });

    it('crosses year boundaries both ways and has a default month', async () => {
        expect(load(await text('/events/calendar/?month=2026-12'))('a[rel=next]').attr('href')).toBe('?month=2027-01');
        expect(load(await text('/events/calendar/index.html?month=2026-01'))('a[rel=prev]').attr('href')).toBe('?month=2025-12');
        expect(load(await text('/events/calendar/?month=9999-12'))('a[rel=next]').attr('href')).toBe('?month=10000-01');
        expect((await get('/events/calendar/?month=10000-01')).status).toBe(200);
        expect(await text('/events/calendar/')).toBe(await text('/events/calendar/?month=2026-01&print=1'));
    });

    it('answers 404 for a month that does not exist', async () => {
        for (const month of ['2026-13', '2026-1', 'January', '']) {
            expect((await get(`/events/calendar/?month=${month}`)).status, month).toBe(404);
        }
    });
});

describe('JavaScript-only navigation', () => {
    it('serves the programme list as JSON, and every programme page exists', async () => {
        const response = await get('/api/programs.json');
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const { programs } = (await response.json()) as { programs: { title: string; path: string }[] };
        expect(programs.length).toBeGreaterThanOrEqual(4);
        for (const programme of programs) {
            const html = await text(programme.path);
            expect(load(html)('h1').text()).toBe(programme.title);
        }
    });

    it('has no link to a programme page in the raw HTML of any page', async () => {
        const programmesPage = await text('/graduate/programs/');
        expect(programmesPage).toContain('<script src="/assets/programs.js">');
        expect(load(programmesPage)('#program-list').children()).toHaveLength(0);
        for (const path of PAGE_PATHS) {
            const hrefs = hrefsOf(await text(path), path);
            for (const programme of PROGRAM_PATHS) expect(hrefs, path).not.toContain(programme);
        }
    });

    it('sends every page with an empty main menu, which menu.js fills with working section links', async () => {
        for (const path of PAGE_PATHS) {
            const $ = load(await text(path));
            expect($('#main-menu').length, path).toBe(1);
            expect($('#main-menu').children(), path).toHaveLength(0);
            expect($('script[src="/assets/menu.js"]').length, path).toBe(1);
        }
        const menuLinks = [...(await text('/assets/menu.js')).matchAll(/\['[^']+', '(\/[^']*)'\]/g)].map((match) => match[1]!);
        expect(menuLinks.length).toBeGreaterThanOrEqual(8);
        for (const link of menuLinks) expect((await get(link)).status, link).toBe(200);
    });
});

describe('site content', () => {
    it('resolves every same-site link in every page', async () => {
        const links = new Set<string>();
        for (const path of PAGE_PATHS) for (const href of hrefsOf(await text(path), path)) links.add(href);
        links.add('/404.html');
        for (const link of links) {
            const response = await get(link);
            const status = response.status === 301 ? (await get(response.headers.get('location')!)).status : response.status;
            expect(status, link).toBe(200);
        }
    });

    it('carries the traps a focused crawler meets on real sites', async () => {
        const allHrefs = new Set<string>();
        const rawHrefs = new Set<string>();
        for (const path of PAGE_PATHS) {
            const html = await text(path);
            for (const href of hrefsOf(html, path)) allHrefs.add(href);
            const $ = load(html);
            $('a[href]').each((_, a) => void rawHrefs.add($(a).attr('href')!));
        }
        const has = (pattern: RegExp) => [...allHrefs].some((href) => pattern.test(href));
        expect(has(/\?utm_source=newsletter&utm_medium=email$/)).toBe(true);
        expect(has(/[?&]fbclid=/)).toBe(true);
        expect(has(/\?print=1$/)).toBe(true);
        expect(has(/\/index\.html$/)).toBe(true);
        expect(has(/\/events\/calendar\/\?month=\d{4}-\d{2}$/)).toBe(true);
        for (const binary of ['/files/brochure.pdf', '/files/data.zip', '/assets/campus.jpg']) expect(allHrefs, binary).toContain(binary);
        expect([...rawHrefs].some((href) => href.startsWith('mailto:'))).toBe(true);
        const newsItems = PAGE_PATHS.filter((path) => /^\/news\/\d{4}\/\d{2}\/[a-z0-9-]+\/$/.test(path));
        expect(newsItems.length).toBeGreaterThanOrEqual(20);
        for (const path of newsItems) expect((await text(path)).toLowerCase(), path).toContain('apply now to our graduate programs');
    });

    it('puts the footer, with graduate admissions, privacy, accessibility and login, on every page', async () => {
        for (const path of PAGE_PATHS) {
            const $ = load(await text(path));
            const footer = $('footer');
            expect(footer.text(), path).toContain('graduate admissions');
            const footerLinks = footer.find('a').map((_, a) => $(a).attr('href')).get();
            for (const target of ['/privacy/', '/accessibility/index.html', '/login/']) expect(footerLinks, path).toContain(target);
        }
    });

    it('has prose pages of 150 to 900 words', async () => {
        const counts = new Map<string, number>();
        for (const path of PAGE_PATHS.filter((p) => p !== '/events/calendar/')) {
            const $ = load(await text(path));
            $('script, style').remove();
            counts.set(path, $('body').text().split(/\s+/).filter(Boolean).length);
        }
        for (const [path, words] of counts) {
            expect(words, path).toBeGreaterThanOrEqual(150);
            expect(words, path).toBeLessThanOrEqual(900);
        }
        expect(Math.max(...counts.values()) - Math.min(...counts.values())).toBeGreaterThan(500);
    });

    it('serves binary files, robots.txt and static assets with their content types', async () => {
        const expected: Record<string, string> = {
            '/files/brochure.pdf': 'application/pdf',
            '/files/data.zip': 'application/zip',
            '/assets/campus.jpg': 'image/jpeg',
            '/assets/style.css': 'text/css; charset=utf-8',
            '/assets/menu.js': 'text/javascript; charset=utf-8',
            '/robots.txt': 'text/plain; charset=utf-8',
        };
        for (const [path, type] of Object.entries(expected)) expect((await body(path)).type, path).toBe(type);
        expect((await body('/files/brochure.pdf')).bytes.subarray(0, 5).toString()).toBe('%PDF-');
        expect((await body('/files/data.zip')).bytes.subarray(0, 2).toString()).toBe('PK');
        expect((await body('/assets/campus.jpg')).bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
        expect(await text('/robots.txt')).toMatch(/User-agent: \*\nAllow: \//);
    });
});

describe('errors', () => {
    it('answers 404 with the site page for unknown paths, file paths with a slash and escapes from the root', async () => {
        for (const path of ['/no/such/page/', '/graduate/admissions/nope', '/files/', '/assets/menu.js/', '/%2e%2e/package.json', '/..%2fpackage.json', '/%E0%A4%A']) {
            const response = await get(path);
            expect(response.status, path).toBe(404);
            const html = await response.text();
            expect(html, path).toContain('Page not found');
            expect(html, path).not.toContain('"devDependencies"');
        }
    });

    it('answers GET and HEAD only', async () => {
        const head = await get('/graduate/', { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(Number(head.headers.get('content-length'))).toBe((await body('/graduate/')).bytes.length);
        expect(await head.text()).toBe('');
        const post = await get('/login/', { method: 'POST', body: 'username=a&password=b' });
        expect(post.status).toBe(405);
        expect(post.headers.get('allow')).toBe('GET, HEAD');
    });
});

describe('demoLabels', () => {
    const labels = demoLabels();

    it('labels 12 to 18 distinct pages for the demo query', () => {
        expect(labels.query).toBe(DEMO_QUERY);
        expect(labels.how.length).toBeGreaterThan(100);
        expect(new Set(labels.relevant).size).toBe(labels.relevant.length);
        expect(labels.relevant.length).toBeGreaterThanOrEqual(12);
        expect(labels.relevant.length).toBeLessThanOrEqual(18);
    });

    it('points at pages that exist, spread over sections and depths, some only reachable through JavaScript', async () => {
        for (const path of labels.relevant) expect((await get(path)).status, path).toBe(200);
        expect(new Set(labels.relevant.map((path) => path.split('/')[1])).size).toBeGreaterThanOrEqual(3);
        expect(labels.relevant.some((path) => path.split('/').filter(Boolean).length >= 4)).toBe(true);
        expect(labels.relevant.filter((path) => PROGRAM_PATHS.includes(path)).length).toBeGreaterThanOrEqual(2);
    });

    it('explains what is wrong with a broken labels file', () => {
        expect(() => demoLabels('/nonexistent')).toThrow(/Cannot read the demo labels at \/nonexistent\/labels\.json/);
    });
});

/** Same-site links of a page as absolute paths with query, resolved against the page's path. */
function hrefsOf(html: string, pagePath: string): string[] {
    const $ = load(html);
    const base = new URL(pagePath, 'http://demo.test');
    return $('a[href], img[src], link[href], script[src]')
        .map((_, element) => $(element).attr('href') ?? $(element).attr('src'))
        .get()
        .map((href: string) => new URL(href, base))
        .filter((url) => url.origin === base.origin)
        .map((url) => `${url.pathname}${url.search}`);
}
