import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { ROBOTS_PARSE_LIMIT, RobotsPolicy, matchesPattern } from '../../src/url/robots.js';
import { SITEMAP_MAX_URLS, parseSitemap } from '../../src/url/sitemap.js';
import { cpuMillis } from '../helpers/cpu-time.js';

const BASE = 'https://e.edu';

describe('RobotsPolicy (RFC 9309)', () => {
    it('lets the longest matching rule decide, and Allow win a tie', () => {
        const policy = RobotsPolicy.parse(['User-agent: *', 'Disallow: /private/', 'Allow: /private/open/', 'Disallow: /tie', 'Allow: /tie'].join('\n'));
        expect(policy.isAllowed(`${BASE}/private/x`)).toBe(false);
        expect(policy.isAllowed(`${BASE}/private/open/x`)).toBe(true);
        expect(policy.isAllowed(`${BASE}/public`)).toBe(true);
        expect(policy.isAllowed(`${BASE}/tie`)).toBe(true);
    });

    it('matches * anywhere and $ at the end, against path and query', () => {
        const policy = RobotsPolicy.parse(['User-agent: *', 'Disallow: /*.pdf$', 'Disallow: /*?sessionid=', 'Disallow: /a*/b'].join('\n'));
        expect(policy.isAllowed(`${BASE}/docs/x.pdf`)).toBe(false);
        expect(policy.isAllowed(`${BASE}/docs/x.pdf?v=2`)).toBe(true);
        expect(policy.isAllowed(`${BASE}/shop?sessionid=42`)).toBe(false);
        expect(policy.isAllowed(`${BASE}/shop?page=2`)).toBe(true);
        expect(policy.isAllowed(`${BASE}/abc/b/c`)).toBe(false);
        expect(policy.isAllowed(`${BASE}/b`)).toBe(true);
    });

    it('uses the group naming crawlee-focus (any case, merged), else the * group', () => {
        const text = [
            'User-agent: *',
            'Disallow: /',
            '',
            'User-agent: Googlebot',
            'User-agent: CRAWLEE-FOCUS/0.1',
            'Disallow: /admin',
            'Crawl-delay: 2',
            '',
            'User-agent: crawlee-focus',
            'Disallow: /tmp',
        ].join('\n');
        const ours = RobotsPolicy.parse(text);
        expect(ours.isAllowed(`${BASE}/page`)).toBe(true);
        expect(ours.isAllowed(`${BASE}/admin/x`)).toBe(false);
        expect(ours.isAllowed(`${BASE}/tmp/x`)).toBe(false);
        expect(ours.crawlDelaySeconds).toBe(2);
        const other = RobotsPolicy.parse(text, 'otherbot');
        expect(other.isAllowed(`${BASE}/page`)).toBe(false);
        expect(other.crawlDelaySeconds).toBeNull();
    });

    it('ends a run of user-agent lines only with a rule (RFC 9309 §2.2.1): other lines leave the agents one group', () => {
        for (const between of ['Crawl-delay: 5', 'Noindex: /x', 'Host: e.edu', 'nonsense line: yes', 'Sitemap: https://e.edu/sitemap.xml']) {
            const policy = RobotsPolicy.parse(['User-agent: crawlee-focus', between, 'User-agent: *', 'Disallow: /private/'].join('\n'));
            expect(policy.isAllowed(`${BASE}/private/page`), between).toBe(false);
            expect(policy.isAllowed(`${BASE}/public`), between).toBe(true);
        }
        const delayed = RobotsPolicy.parse(['User-agent: crawlee-focus', 'Crawl-delay: 5', 'User-agent: *', 'Disallow: /private/'].join('\n'));
        expect(delayed.crawlDelaySeconds).toBe(5);
    });

    it('starts a new group at a user-agent line after a rule, and merges every group that names the crawler (RFC 9309 §2.2.1)', () => {
        const text = [
            'User-agent: other',
            'Disallow: /',
            'User-agent: crawlee-focus',
            'Disallow: /a/',
            'User-agent: *',
            'Disallow: /b/',
            'User-agent: CRAWLEE-FOCUS/2.0',
            'Disallow: /c/',
        ].join('\n');
        const policy = RobotsPolicy.parse(text);
        expect(policy.isAllowed(`${BASE}/a/x`)).toBe(false);
        expect(policy.isAllowed(`${BASE}/c/x`)).toBe(false);
        expect(policy.isAllowed(`${BASE}/b/x`)).toBe(true); // the * group is for crawlers no group names
        expect(policy.isAllowed(`${BASE}/other`)).toBe(true);
        // with no group of its own, the crawler follows the * group
        expect(RobotsPolicy.parse(text, 'somebot').isAllowed(`${BASE}/b/x`)).toBe(false);
        expect(RobotsPolicy.parse(text, 'somebot').isAllowed(`${BASE}/a/x`)).toBe(true);
    });

    it('reads sitemaps whatever the group, ignores comments and rules outside groups; an empty Disallow allows', () => {
        const policy = RobotsPolicy.parse(
            ['Disallow: /orphan', 'Sitemap: https://e.edu/sitemap.xml # main', 'User-agent: * # all', 'Disallow:', 'sitemap: https://e.edu/news.xml'].join('\r\n'),
        );
        expect(policy.sitemaps).toEqual(['https://e.edu/sitemap.xml', 'https://e.edu/news.xml']);
        expect(policy.isAllowed(`${BASE}/orphan`)).toBe(true);
    });

    it('always allows /robots.txt, compares percent-encodings and non-ASCII in one spelling', () => {
        const policy = RobotsPolicy.parse(['User-agent: *', 'Disallow: /', 'Allow: /caf%C3%A9', 'Allow: /%7Euser'].join('\n'));
        expect(policy.isAllowed(`${BASE}/robots.txt`)).toBe(true);
        expect(policy.isAllowed(`${BASE}/café`)).toBe(true);
        expect(policy.isAllowed(`${BASE}/~user/x`)).toBe(true);
        expect(policy.isAllowed(`${BASE}/other`)).toBe(false);
    });

    it('has allow-all and disallow-all policies for missing and unreachable files', () => {
        expect(RobotsPolicy.allowAll().isAllowed(`${BASE}/x`)).toBe(true);
        expect(RobotsPolicy.disallowAll().isAllowed(`${BASE}/x`)).toBe(false);
        expect(RobotsPolicy.disallowAll().isAllowed(`${BASE}/robots.txt`)).toBe(true);
    });

    it('survives hostile files: huge, binary, and patterns built to backtrack', () => {
        const huge = `User-agent: *\n${'Disallow: /x\n'.repeat(100_000)}Disallow: /after-the-limit\n`;
        expect(huge.length).toBeGreaterThan(ROBOTS_PARSE_LIMIT);
        expect(RobotsPolicy.parse(huge).isAllowed(`${BASE}/after-the-limit`)).toBe(true);
        expect(RobotsPolicy.parse('\u0000\u00ff\ufffd:::\n\n').isAllowed(`${BASE}/`)).toBe(true);
        const evil = RobotsPolicy.parse(`User-agent: *\nDisallow: /${'*a'.repeat(40)}b\n`);
        const { result: allowed, millis } = cpuMillis(() => evil.isAllowed(`${BASE}/${'a'.repeat(5000)}`));
        expect(allowed).toBe(true);
        expect(millis).toBeLessThan(1000);
    });

    it('matchesPattern agrees with a regular-expression reference', () => {
        const chars = fc.constantFrom('a', 'b', '/', '*');
        fc.assert(
            fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '/'), maxLength: 12 }), fc.string({ unit: chars, maxLength: 6 }), fc.boolean(), (path, body, anchored) => {
                const pattern = `/${body}${anchored ? '$' : ''}`;
                const source = `^${`/${body}`.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}${anchored ? '$' : ''}`;
                expect(matchesPattern(`/${path}`, pattern)).toBe(new RegExp(source).test(`/${path}`));
            }),
        );
    });
});

describe('parseSitemap (sitemaps.org 0.9)', () => {
    it('reads the <loc> of a urlset, decoding entities and CDATA, http(s) only', () => {
        const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://e.edu/a?x=1&amp;y=2</loc><lastmod>2024-01-01</lastmod></url>
          <url><loc><![CDATA[https://e.edu/b]]></loc></url>
          <url><loc> ftp://e.edu/c </loc></url></urlset>`;
        expect(parseSitemap(xml)).toEqual({ kind: 'urls', urls: ['https://e.edu/a?x=1&y=2', 'https://e.edu/b'] });
    });

    it('tells a sitemap index from a urlset, and reads plain-text sitemaps', () => {
        const index = '<sitemapindex><sitemap><loc>https://e.edu/s1.xml</loc></sitemap></sitemapindex>';
        expect(parseSitemap(index)).toEqual({ kind: 'index', urls: ['https://e.edu/s1.xml'] });
        expect(parseSitemap('https://e.edu/a\nnot a url\nhttp://e.edu/b\n')).toEqual({ kind: 'urls', urls: ['https://e.edu/a', 'http://e.edu/b'] });
    });

    it(`stops at ${SITEMAP_MAX_URLS} URLs`, () => {
        const xml = `<urlset>${'<url><loc>https://e.edu/p</loc></url>'.repeat(SITEMAP_MAX_URLS + 10)}</urlset>`;
        expect(parseSitemap(xml).urls).toHaveLength(SITEMAP_MAX_URLS);
    });
});
