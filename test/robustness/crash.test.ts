import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LoggingServer } from '../helpers/fault-server.js';
import { killAndResume, treeSite } from './kill-resume.js';

/**
 * Per mode: pages, concurrency, answer delay, and page requests between two kills (random, but reproducible; the
 * full 200-page browser run is bench/robustness/browser-resume.ts).
 */
const CASES = [
    { mode: 'http', pages: 60, concurrency: 4, delayMillis: 40, killPoints: [12, 15, 14] },
    { mode: 'browser', pages: 40, concurrency: 8, delayMillis: 300, killPoints: [5, 9, 4, 7, 6] },
] as const;

describe.each(CASES)('kill -9 under load in $mode mode, $killPoints.length times', ({ mode, pages, concurrency, delayMillis, killPoints }) => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await treeSite(pages, delayMillis);
    });
    afterAll(async () => site.close());

    it('resumes after each kill: nothing lost, every page delivered exactly once, refetches bounded by the requests in flight', async () => {
        const options = { mode, startUrls: [`${site.url}/p0`], maxPages: pages, maxConcurrency: concurrency, minConcurrency: concurrency, maxRequestsPerHost: concurrency };
        const result = await killAndResume(site, options, [...killPoints]);
        console.log(`${mode} kill -9 ×${result.kills}: ${result.fetched.length} page requests for ${pages} pages, ${result.refetched} refetched, ${result.seconds.toFixed(0)} s`);
        expect(result.kills).toBe(killPoints.length);
        expect(result.finalRun.code, result.finalRun.stderr.slice(-2000)).toBe(0);
        expect(result.finalRun.stderr).toContain('resumed');
        expect(JSON.parse(result.finalRun.stdout.trim().split('\n').at(-1)!).stopReason).toBe('limit_reached');
        expect(new Set(result.fetched).size).toBe(pages); // nothing lost
        expect(result.delivered).toHaveLength(pages);
        expect(new Set(result.delivered).size).toBe(pages); // each exactly once
        expect(result.refetched).toBeLessThanOrEqual(result.kills * concurrency);
    }, 600_000);
});
