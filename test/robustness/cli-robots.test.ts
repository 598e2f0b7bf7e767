import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { main } from '../../src/cli/main.js';
import { startLoggingServer } from '../helpers/fault-server.js';
import type { LoggingServer } from '../helpers/fault-server.js';
import { page } from '../helpers/site-server.js';

describe('crawlee-focus crawl --ignore-robots', () => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await startLoggingServer((url) => {
            if (url.pathname === '/robots.txt') return (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /\n');
            if (url.pathname === '/' || url.pathname === '/a') {
                return (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page('Page', '<main><h1>Page</h1><p>Some text.</p><a href="/a">A</a></main>'));
            }
            return undefined;
        });
    });
    afterAll(async () => site.close());
    afterEach(() => vi.restoreAllMocks());

    async function runCli(...flags: string[]): Promise<{ pagesFetched: number; skipped: Record<string, number> }> {
        const out: string[] = [];
        vi.spyOn(console, 'log').mockImplementation((...args) => void out.push(args.join(' ')));
        vi.spyOn(console, 'error').mockImplementation(() => undefined);
        const storage = mkdtempSync(join(tmpdir(), 'cf-cli-robots-'));
        expect(await main(['crawl', `${site.url}/`, '--mode', 'http', '--json', '--storage', storage, ...flags])).toBe(0);
        return JSON.parse(out.at(-1)!);
    }

    it('obeys robots.txt by default, and crawls the disallowed site with the flag', async () => {
        const obeyed = await runCli();
        expect(obeyed.pagesFetched).toBe(0);
        expect(obeyed.skipped['robots-disallowed']).toBe(1);
        site.requests.length = 0;
        const ignored = await runCli('--ignore-robots');
        expect(ignored.pagesFetched).toBe(2);
        expect(site.hits('/robots.txt')).toBe(0);
    }, 60_000);
});
