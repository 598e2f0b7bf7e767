import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LoggingServer } from '../helpers/fault-server.js';
import { reportOf, runChild, treeSite } from './kill-resume.js';

/**
 * Issue 15: a browser crawl killed with four requests in flight and none queued. Resumed, it waited forever: the
 * restored requests waited for their host's robots.txt, which only queued links used to request. The recorded state
 * (test/fixtures/hung-resume) names the port of the server it was made on; it is rewritten to this test's server.
 */
const RECORDED = join(import.meta.dirname, '..', 'fixtures', 'hung-resume');
const RECORDED_ORIGIN = 'http://127.0.0.1:33259';

function storageFromRecording(origin: string): string {
    const storageDir = mkdtempSync(join(tmpdir(), 'cf-hung-'));
    const kv = join(storageDir, 'key_value_stores', 'default');
    mkdirSync(kv, { recursive: true });
    for (const file of readdirSync(RECORDED)) writeFileSync(join(kv, file), readFileSync(join(RECORDED, file), 'utf8').replaceAll(RECORDED_ORIGIN, origin));
    return storageDir;
}

describe('the recorded hung resume (browser mode, 4 requests pending, empty queue)', () => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await treeSite(40, 300);
    });
    afterAll(async () => site.close());

    it('hands the pending requests out again and finishes the crawl', async () => {
        const storageDir = storageFromRecording(site.url);
        const options = { mode: 'browser', startUrls: [`${site.url}/p0`], maxPages: 40, maxConcurrency: 8, minConcurrency: 8, maxRequestsPerHost: 8, storageDir };
        const run = await runChild(options, site, { timeoutMillis: 180_000 });
        expect(run.timedOut, `the resumed crawl hung:\n${run.stderr.slice(-2000)}`).toBe(false);
        expect(run.code, run.stderr.slice(-2000)).toBe(0);
        expect(run.stderr).toContain('resumed');
        const report = reportOf(run);
        // On a loaded machine a wrong stop is to be diagnosed from the report, not guessed at.
        const { failures, skipped } = report as unknown as { failures?: unknown; skipped?: unknown };
        expect(report.stopReason, JSON.stringify({ pagesFetched: report.pagesFetched, failures, skipped, stderr: run.stderr.slice(-1500) })).toBe('limit_reached');
        expect(report.pagesFetched).toBe(40);
        const pages = site.requests.map((r) => r.path).filter((path) => /^\/p\d+$/.test(path));
        // the three pages handled before the kill are not fetched again; the four in flight and the 33 never taken are
        expect(pages.filter((path) => ['/p0', '/p1', '/p2'].includes(path))).toEqual([]);
        expect(new Set(pages)).toEqual(new Set(Array.from({ length: 37 }, (_, i) => `/p${i + 3}`)));
        expect(site.hits('/robots.txt')).toBe(1);
    }, 240_000);
});
