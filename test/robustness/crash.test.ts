import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LoggingServer } from '../helpers/fault-server.js';
import { killAndResume, reportOf, treeSite } from './kill-resume.js';
import type { KillPoint } from './kill-resume.js';

/**
 * Kill -9 at random points and resume on the same storage, as a crash would. The points are drawn from a seed that
 * the test names, so a failure can be replayed with CRASH_SEED=<seed>. The full 200-page browser run is
 * bench/robustness/browser-resume.ts.
 */
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 1e6));

/** mulberry32: a small seeded generator, so the drawn kill points can be replayed. */
function generator(seed: number): (low: number, high: number) => number {
    let state = seed >>> 0;
    return (low, high) => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
        return low + Math.floor(unit * (high - low + 1));
    };
}

const draw = generator(SEED);

/**
 * Per mode: the site, the concurrency of the killed runs and of the final run, and the kills. Numbers are page
 * requests since the run started; `take:N` kills right after the N-th request is handed out (in browser mode
 * `take:1` falls while Chromium starts), `snapshot:N` right after the N-th durable snapshot, `write:N` while the N-th
 * snapshot is being written.
 */
const CASES = [
    {
        mode: 'http',
        pages: 60,
        concurrency: 4,
        finalConcurrency: 2,
        delayMillis: 40,
        killPoints: [draw(3, 15), `take:${draw(1, 8)}`, `snapshot:${draw(1, 8)}`, `write:${draw(1, 8)}`, draw(3, 15)] as KillPoint[],
    },
    {
        mode: 'browser',
        pages: 40,
        concurrency: 8,
        finalConcurrency: 3,
        delayMillis: 300,
        killPoints: ['take:1', draw(3, 9), `take:${draw(2, 8)}`, `snapshot:${draw(1, 4)}`, `write:${draw(1, 4)}`] as KillPoint[],
    },
] as const;

describe.each(CASES)('kill -9 in $mode mode at $killPoints (seed ' + SEED + ')', ({ mode, pages, concurrency, finalConcurrency, delayMillis, killPoints }) => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await treeSite(pages, delayMillis);
    });
    afterAll(async () => site.close());

    it('resumes after each kill, also at another concurrency: nothing lost, every page delivered once, refetches bounded by the requests in flight', async () => {
        const options = { mode, startUrls: [`${site.url}/p0`], maxPages: pages, maxConcurrency: concurrency, minConcurrency: concurrency, maxRequestsPerHost: concurrency };
        const final = { maxConcurrency: finalConcurrency, minConcurrency: finalConcurrency, maxRequestsPerHost: finalConcurrency };
        const result = await killAndResume(site, options, [...killPoints], final);
        console.log(`${mode} kill -9 at ${killPoints.join(', ')} (seed ${SEED}): ${result.fetched.length} page requests for ${pages} pages, ${result.refetched} refetched, ${result.seconds.toFixed(0)} s`);
        expect(result.kills, `seed ${SEED}`).toBe(killPoints.length);
        expect(result.finalRun.timedOut, `seed ${SEED}: the resumed crawl hung`).toBe(false);
        expect(result.finalRun.code, result.finalRun.stderr.slice(-2000)).toBe(0);
        expect(result.finalRun.stderr).toContain('resumed');
        expect(reportOf(result.finalRun).stopReason).toBe('limit_reached');
        const report = reportOf(result.finalRun) as { failures?: unknown; pagesFetched: number };
        expect(new Set(result.fetched).size, `seed ${SEED}, final report ${JSON.stringify({ fetched: report.pagesFetched, failures: report.failures })}`).toBe(pages); // nothing lost
        expect(result.delivered).toHaveLength(pages);
        expect(new Set(result.delivered).size).toBe(pages); // each exactly once
        expect(result.refetched, `seed ${SEED}`).toBeLessThanOrEqual(result.kills * concurrency);
    }, 600_000);
});
