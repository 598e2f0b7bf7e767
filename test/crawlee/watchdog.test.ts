import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { KeyValueStore, LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FocusedRequestManager, RobotsCache, StallWatchdog, createFocusedCrawler } from '../../src/index.js';
import type { FetchedText, StallState } from '../../src/index.js';
import { treeSite } from '../robustness/kill-resume.js';
import type { LoggingServer } from '../helpers/fault-server.js';

log.setLevel(LogLevel.OFF);

const SEED = 'https://www.e.edu/';

/** A frontier stand-in whose state the test sets by hand. */
function fakeTarget(state: StallState) {
    const reclaims: number[] = [];
    return {
        state,
        reclaims,
        stallState: () => state,
        reclaimStalled: (olderThan: number) => {
            reclaims.push(olderThan);
            return 2;
        },
    };
}

describe('StallWatchdog', () => {
    it('reclaims after the timeout, then stops the crawl when another timeout passes without progress', () => {
        const target = fakeTarget({ pending: true, idleMillis: 0 });
        const events: string[] = [];
        const watchdog = new StallWatchdog(target, { stallTimeoutMillis: 1000, onReclaim: (n) => events.push(`reclaim ${n}`), onStall: () => events.push('stall') });
        expect(watchdog.check(0)).toBe('ok');
        target.state.idleMillis = 999;
        expect(watchdog.check(999)).toBe('ok');
        target.state.idleMillis = 1000;
        expect(watchdog.check(1000)).toBe('reclaimed');
        expect(target.reclaims).toEqual([1000]);
        target.state.idleMillis = 1500;
        expect(watchdog.check(1500)).toBe('waiting');
        target.state.idleMillis = 2000;
        expect(watchdog.check(2000)).toBe('stalled');
        expect(watchdog.check(9000)).toBe('stalled');
        expect(events).toEqual(['reclaim 2', 'stall']); // each once
    });

    it('starts over when progress resumes after a reclaim, and never acts while nothing is pending', () => {
        const target = fakeTarget({ pending: true, idleMillis: 1000 });
        const events: string[] = [];
        const watchdog = new StallWatchdog(target, { stallTimeoutMillis: 1000, onReclaim: () => events.push('reclaim'), onStall: () => events.push('stall') });
        expect(watchdog.check(1000)).toBe('reclaimed');
        target.state.idleMillis = 10; // the reclaimed request was taken
        expect(watchdog.check(1990)).toBe('ok');
        target.state.idleMillis = 1000;
        expect(watchdog.check(2980)).toBe('reclaimed');
        target.state.pending = false;
        target.state.idleMillis = 1e9;
        expect(watchdog.check(1e9)).toBe('ok');
        expect(events).toEqual(['reclaim', 'reclaim']);
    });

    it('refuses a timeout that is not positive', () => {
        expect(() => new StallWatchdog(fakeTarget({ pending: false, idleMillis: 0 }), { stallTimeoutMillis: 0, onReclaim() {}, onStall() {} })).toThrow(/stallTimeoutMillis/);
    });
});

describe('FocusedRequestManager under the watchdog', () => {
    it('counts idle time from the last take, handled request or reclaim, less a known back-off', async () => {
        const manager = new FocusedRequestManager();
        await manager.addRequestsBatched([SEED, `${SEED}a`]);
        const start = Date.now();
        const request = (await manager.fetchNextRequest())!;
        expect(manager.stallState(start + 5000)).toEqual({ pending: true, idleMillis: expect.closeTo(5000, -2) });
        await manager.markRequestHandled(request);
        const last = (await manager.fetchNextRequest())!;
        manager.backOffHost(SEED, start + 4000);
        expect(manager.stallState(start + 5000).idleMillis).toBeLessThanOrEqual(1000);
        expect(manager.stallState(start + 3000).idleMillis).toBeLessThanOrEqual(0);
        await manager.markRequestHandled(last);
        expect(manager.stallState().pending).toBe(false);
    });

    it('hands a request lost in flight out again; if the crawler finishes it after all, it is not fetched twice', async () => {
        const manager = new FocusedRequestManager({ maxRequestsPerHost: 1 });
        await manager.addRequestsBatched([SEED, `${SEED}a`]);
        const lost = (await manager.fetchNextRequest())!;
        expect(await manager.fetchNextRequest()).toBeNull(); // the host is busy with the lost request
        expect(manager.reclaimStalled(60_000, Date.now() + 1000)).toBe(0); // not old enough
        expect(manager.reclaimStalled(60_000, Date.now() + 61_000)).toBe(1);
        const again = (await manager.fetchNextRequest())!;
        expect(again.url).toBe(lost.url);
        await manager.markRequestHandled(again);
        const next = (await manager.fetchNextRequest())!;
        expect(next.url).toBe(`${SEED}a`);
        await manager.markRequestHandled(next);
        expect(await manager.isFinished()).toBe(true);
        expect(manager.pagesScheduled).toBe(2);
    });

    it('a restored request whose host robots.txt was never asked for asks for it (the hung resume)', async () => {
        const asked: string[] = [];
        const robots = () => new RobotsCache({ fetchText: async (url): Promise<FetchedText> => (asked.push(url), { status: 404, body: Buffer.alloc(0) }) });
        const first = new FocusedRequestManager({ robots: robots(), maxRequestsPerHost: 4 });
        await first.addRequestsBatched([SEED]);
        await new Promise((resolve) => setTimeout(resolve, 10));
        const seed = (await first.fetchNextRequest())!;
        await first.markRequestHandled(seed);
        first.offerLinks([{ url: `${SEED}a` }, { url: `${SEED}b` }], { url: SEED, depth: 0, relevance: 0, isHub: false });
        while (await first.fetchNextRequest()); // both in flight: the snapshot has them pending, the queue empty
        const state = JSON.parse(JSON.stringify(first.toJSON()));
        asked.length = 0;
        const resumed = FocusedRequestManager.fromJSON(state, { robots: robots(), maxRequestsPerHost: 4 });
        const urls: string[] = [];
        for (let i = 0; i < 50 && urls.length < 2; i++) {
            const request = await resumed.fetchNextRequest();
            if (request) urls.push(request.url);
            else await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(asked).toEqual(['https://www.e.edu/robots.txt']);
        expect(urls.sort()).toEqual([`${SEED}a`, `${SEED}b`]);
    });

    it('a robots.txt fetcher that throws counts as an unreachable server: asked again after each pause, then disallowed', async () => {
        let calls = 0;
        const cache = new RobotsCache({ fetchText: async () => (calls++, Promise.reject(new Error('boom'))), unreachableRetryMillis: [20, 40], log: { info() {}, warning() {} } });
        const pending = cache.ready(SEED);
        expect(cache.hasPendingWork).toBe(true); // the crawl does not end while the host waits for its robots.txt
        const policy = await pending;
        expect(calls).toBe(3);
        expect(policy.isAllowed(`${SEED}x`)).toBe(false);
        expect(cache.hasPendingWork).toBe(false);
    });

    it('a robots.txt that is unreachable for a moment (network error, then 503) does not close the host', async () => {
        const answers: FetchedText[] = [
            { status: 0, body: Buffer.alloc(0) },
            { status: 503, body: Buffer.alloc(0) },
            { status: 200, body: Buffer.from('User-agent: *\nDisallow: /closed/\n') },
        ];
        const cache = new RobotsCache({ fetchText: async () => answers.shift()!, unreachableRetryMillis: [10, 10], log: { info() {}, warning() {} } });
        expect(cache.policyFor(`${SEED}open`)).toBeUndefined(); // the host waits meanwhile
        const policy = await cache.ready(SEED);
        expect(answers).toEqual([]);
        expect(policy.isAllowed(`${SEED}open`)).toBe(true);
        expect(policy.isAllowed(`${SEED}closed/x`)).toBe(false);
    });
});

describe('a crawl that cannot move', () => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await treeSite(20, 0);
    });
    afterAll(async () => site.close());

    it('stops as stalled with a report, keeps its pending requests, and a resume finishes it', async () => {
        const storageDir = mkdtempSync(join(tmpdir(), 'cf-stall-'));
        const options = { mode: 'http' as const, startUrls: [`${site.url}/p0`], maxPages: 20, storageDir, stallTimeoutSecs: 1 };
        // robots.txt that never answers: every page of the host waits for it
        const never = () => new Promise<FetchedText>(() => undefined);
        const started = Date.now();
        const stuck = await createFocusedCrawler({ ...options, fetchText: never });
        const report = await stuck.run();
        expect(report.stopReason).toBe('stalled');
        expect(Date.now() - started).toBeLessThan(30_000);
        expect(report.pagesFetched).toBe(0);
        const stored = await (await KeyValueStore.open(undefined, { config: stuck.focus.config })).getValue<{ stopReason: string }>('FOCUS_REPORT');
        expect(stored?.stopReason).toBe('stalled');

        const resumed = await createFocusedCrawler(options);
        expect(resumed.focus.resumed).toBe(true);
        const final = await resumed.run();
        expect(final.stopReason).toBe('limit_reached');
        expect(final.pagesFetched).toBe(20);
    }, 60_000);
});
