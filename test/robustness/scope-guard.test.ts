import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import { page, startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';

log.setLevel(LogLevel.OFF);

describe('the scope guard in browser mode', () => {
    let site: TestSite;
    let other: TestSite;
    beforeAll(async () => {
        other = await startSite({ '/away': page('Away', '<p>Another site.</p>'), '/style.css': (_req, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('h1 { color: navy; }') });
        // "localhost" is another host name than the seed's 127.0.0.1: out of scope, though the same machine.
        const away = other.url.replace('127.0.0.1', 'localhost');
        site = await startSite({
            '/': page('Telescopes', `<main><h1>Telescopes</h1><p>Telescope guide.</p><a href="/leaves">Telescope that leaves</a></main><link rel="stylesheet" href="${away}/style.css">`),
            '/leaves': page('Leaving', `<main><h1>Telescope page that leaves</h1><p>Telescope text.</p></main><script>setTimeout(() => { location.href = ${JSON.stringify(`${away}/away`)}; }, 50)</script>`),
        });
    });
    afterAll(async () => {
        await site.close();
        await other.close();
    });

    it('stops a script navigation to another host before it is sent, reads the page it left, and lets it load its subresources', async () => {
        const focused = await createFocusedCrawler({
            mode: 'browser',
            startUrls: [`${site.url}/`],
            query: 'telescope',
            maxPages: 5,
            stop: 'never',
            respectRobotsTxt: false,
            storageDir: mkdtempSync(join(tmpdir(), 'cf-scope-')),
        });
        const report = await focused.run();
        expect(report.pagesProcessed).toBe(2);
        expect(report.failures).toEqual({});
        expect(site.hits('/leaves')).toBe(1); // read once, not replaced by an error page and retried
        expect(other.requests).not.toContain('/away');
        // A stylesheet, not an image: images are not downloaded (blockMedia), which browser-crawl.test.ts covers.
        expect(other.requests).toContain('/style.css');
        expect(report.skipped['out-of-scope']).toBeGreaterThanOrEqual(1);
    }, 60_000);
});
