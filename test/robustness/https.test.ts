import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import type { CrawlMode } from '../../src/index.js';
import { telescopeSite } from '../helpers/telescope-site.js';

log.setLevel(LogLevel.OFF);

const TLS = join(import.meta.dirname, '../fixtures/tls');
const BUDGET = 8;

describe.each<CrawlMode>(['http', 'browser', 'adaptive'])('ignoreHttpsErrors, %s mode', (mode) => {
    let url: string;
    let server: ReturnType<typeof createServer>;
    beforeAll(async () => {
        const routes = telescopeSite();
        server = createServer({ key: readFileSync(join(TLS, 'key.pem')), cert: readFileSync(join(TLS, 'cert.pem')) }, (req, res) => {
            const body = routes[new URL(req.url ?? '/', 'https://127.0.0.1').pathname];
            if (body === undefined) res.writeHead(404).end();
            else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
    });

    it('crawls a site whose certificate nobody trusts (a TLS-intercepting proxy, a test server)', async () => {
        const focused = await createFocusedCrawler({
            mode,
            startUrls: [url],
            query: 'telescope',
            ignoreHttpsErrors: true,
            maxPages: BUDGET,
            maxConcurrency: 2,
            stop: 'never',
            storageDir: mkdtempSync(join(tmpdir(), `cf-https-${mode}-`)),
        });
        const report = await focused.run();
        expect(report.failures).toEqual({});
        expect(report.pagesProcessed).toBe(BUDGET);
        if (mode === 'adaptive') expect(report.rendering.http).toBeGreaterThan(0);
    }, 120_000);
});
