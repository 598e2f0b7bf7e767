import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Configuration, Dataset } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { page, startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';

const PAGES = 60;
const CHILD = join(import.meta.dirname, '..', 'fixtures', 'crawl-child.ts');

/** A chain of hubs: page i links to pages 2i+1 and 2i+2 (a binary tree), every answer 40 ms late. */
async function slowTreeSite(): Promise<TestSite> {
    return startSite((path) => {
        const match = /^\/p(\d+)$/.exec(path);
        if (!match) return undefined;
        const i = Number(match[1]);
        if (i >= PAGES) return undefined;
        const links = [2 * i + 1, 2 * i + 2].filter((k) => k < PAGES).map((k) => `<a href="/p${k}">Page ${k}</a>`).join(' ');
        return (_req, res) => {
            setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(page(`Page ${i}`, `<main><h1>Page ${i}</h1><p>Text of page number ${i}, unique words ${'w'.repeat(i + 1)}.</p>${links}</main>`)), 40);
        };
    });
}

function runChild(options: object, killAfterRequests?: { site: TestSite; count: number }): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        let timer: NodeJS.Timeout | undefined;
        if (killAfterRequests) {
            const { site, count } = killAfterRequests;
            const start = site.requests.length;
            timer = setInterval(() => {
                if (site.requests.length - start >= count) child.kill('SIGKILL');
            }, 5);
        }
        child.on('error', reject);
        child.on('exit', (code, signal) => {
            if (timer) clearInterval(timer);
            resolve({ code, signal, stdout, stderr });
        });
    });
}

describe('kill -9 and resume', () => {
    let site: TestSite;
    beforeAll(async () => {
        site = await slowTreeSite();
    });
    afterAll(async () => site.close());

    it('continues where it stopped: nothing lost, every page delivered once, refetches bounded by requests in flight', async () => {
        const storageDir = mkdtempSync(join(tmpdir(), 'cf-resume-'));
        const concurrency = 4;
        const options = { mode: 'http', startUrls: [`${site.url}/p0`], maxPages: PAGES, maxConcurrency: concurrency, minConcurrency: concurrency, storageDir };
        let kills = 0;
        for (const killAt of [12, 15, 14]) {
            const run = await runChild(options, { site, count: killAt });
            if (run.signal === 'SIGKILL') kills += 1;
        }
        const final = await runChild(options);
        expect(final.code, final.stderr).toBe(0);
        expect(final.stderr).toContain('resumed');
        const report = JSON.parse(final.stdout.trim().split('\n').at(-1)!);
        expect(report.stopReason).toBe('limit_reached');
        expect(kills).toBe(3);

        const fetched = site.requests.filter((r) => /^\/p\d+$/.test(r));
        const distinct = new Set(fetched);
        expect(distinct.size).toBe(PAGES); // nothing lost
        const refetched = fetched.length - distinct.size;
        expect(refetched).toBeLessThanOrEqual(kills * concurrency);

        const config = new Configuration({ storageClientOptions: { localDataDirectory: storageDir }, purgeOnStart: false });
        const { items } = await (await Dataset.open(undefined, { config })).getData();
        const urls = items.map((item) => String(item.url));
        expect(new Set(urls).size).toBe(urls.length); // exactly once
        expect(urls).toHaveLength(PAGES);
    }, 120_000);
});
