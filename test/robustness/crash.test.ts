import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LoggingServer } from '../helpers/fault-server.js';
import { killAndResume, treeSite } from './kill-resume.js';

const PAGES = 40;
const CONCURRENCY = 8;
/** Page requests between two kills: random, but reproducible (the full 200-page run is bench/robustness/browser-resume.ts). */
const KILL_POINTS = [5, 9, 4, 7, 6];

describe('kill -9 under load in browser mode, five times', () => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await treeSite(PAGES, 300);
    });
    afterAll(async () => site.close());

    it('resumes after each kill: every page delivered exactly once, refetches bounded by the requests in flight', async () => {
        const options = { mode: 'browser', startUrls: [`${site.url}/p0`], maxPages: PAGES, maxConcurrency: CONCURRENCY, minConcurrency: CONCURRENCY, maxRequestsPerHost: CONCURRENCY };
        const result = await killAndResume(site, options, KILL_POINTS);
        console.log(`browser kill -9 ×${result.kills}: ${result.fetched.length} page requests for ${PAGES} pages, ${result.refetched} refetched, ${result.seconds.toFixed(0)} s`);
        expect(result.kills).toBe(KILL_POINTS.length);
        expect(result.finalRun.code, result.finalRun.stderr.slice(-2000)).toBe(0);
        expect(result.finalRun.stderr).toContain('resumed');
        expect(JSON.parse(result.finalRun.stdout.trim().split('\n').at(-1)!).stopReason).toBe('limit_reached');
        expect(new Set(result.fetched).size).toBe(PAGES); // nothing lost
        expect(result.delivered).toHaveLength(PAGES);
        expect(new Set(result.delivered).size).toBe(PAGES); // each exactly once
        expect(result.refetched).toBeLessThanOrEqual(result.kills * CONCURRENCY);
    }, 600_000);
});
