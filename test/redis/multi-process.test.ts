import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashLanes } from '../../src/stat/index.js';
import { RedisFrontierStore, crawlKeys } from '../../src/redis/index.js';
import { commandStats, redisUnavailable, startRedis } from '../helpers/redis-server.js';
import type { TestRedis } from '../helpers/redis-server.js';
import type { WorkerConfig, WorkerMessage } from './fixtures/frontier-worker.js';

if (redisUnavailable) console.warn(redisUnavailable);

const WORKER = fileURLToPath(new URL('./fixtures/frontier-worker.ts', import.meta.url));
const BUDGET = 60;
const WORKERS = 3;
const CONCURRENCY = 4;
/** Short, so the victim's pages come back soon; heartbeats every quarter of it keep the survivors' leases. */
const LEASE_MILLIS = 1_000;
const PAGE_LATENCY_MILLIS = 120;
/** The victim's pages are slow, so that it is surely mid-fetch when it is killed, however loaded the machine. */
const VICTIM_LATENCY_MILLIS = 1_500;
/** The victim is killed once this many pages are charged (about a third of the budget). */
const KILL_AT_CHARGED = 20;
const HOSTS = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Page n of the generated graph: 4 children, plus links back to its parent and a sibling (duplicates to dedup). */
function linksOf(n: number): Array<{ key: string; host: string; score: number }> {
    const targets = [4 * n + 1, 4 * n + 2, 4 * n + 3, 4 * n + 4, Math.floor((n - 1) / 4), n + 1];
    return targets.filter((t) => t >= 0).map((t) => ({ key: `n${t}`, host: `h${t % HOSTS}`, score: hashLanes(`n${t}`)[0] / 2 ** 32 }));
}

/** A site serving the link graph with a fixed latency; logs every hit, as a web server's access log would. */
async function startGraphSite(hits: Array<{ key: string; worker: string }>): Promise<{ url: string; server: Server }> {
    const server = createServer((request, response) => {
        const key = request.url!.split('/').pop()!;
        hits.push({ key, worker: String(request.headers['x-worker-id']) });
        setTimeout(() => {
            response.setHeader('content-type', 'application/json');
            response.end(JSON.stringify(linksOf(Number(key.slice(1)))));
        }, request.headers['x-worker-id'] === 'w1' ? VICTIM_LATENCY_MILLIS : PAGE_LATENCY_MILLIS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(redisUnavailable !== null)('three worker processes share one Redis frontier, one killed with SIGKILL', () => {
    let redis: TestRedis;
    let site: { url: string; server: Server };
    const hits: Array<{ key: string; worker: string }> = [];
    const children: ChildProcess[] = [];

    beforeAll(async () => {
        redis = await startRedis();
        site = await startGraphSite(hits);
    });
    afterAll(async () => {
        for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await new Promise<void>((resolve) => site?.server.close(() => resolve()));
        await redis?.stop();
    });

    it('charges exactly the budget, loses nothing, commits each page once and re-fetches at most the victim\'s leases', async () => {
        const crawlId = 'multi-process';
        const admin = redis.client();
        const messages: WorkerMessage[] = [];
        const exits: Array<Promise<void>> = [];
        for (let i = 0; i < WORKERS; i++) {
            const config: WorkerConfig = {
                redisUrl: redis.url,
                crawlId,
                workerId: `w${i}`,
                siteUrl: site.url,
                concurrency: CONCURRENCY,
                maxPages: BUDGET,
                leaseMillis: LEASE_MILLIS,
                maxInFlightPerHost: 4,
            };
            const child = fork(WORKER, [JSON.stringify(config)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
            child.on('message', (message: WorkerMessage) => messages.push(message));
            exits.push(new Promise((resolve) => child.once('exit', () => resolve())));
            children.push(child);
        }
        const waitFor = async (done: () => boolean, what: string, timeoutMillis = 30_000) => {
            const deadline = Date.now() + timeoutMillis;
            while (!done()) {
                if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
                await sleep(10);
            }
        };
        await waitFor(() => messages.filter((m) => m.type === 'ready').length === WORKERS, 'the workers to connect', 60_000);

        // The crawl starts when every worker is ready: the seed goes in.
        const store = await RedisFrontierStore.open({ redis: admin, crawlId, maxPages: BUDGET, leaseMillis: LEASE_MILLIS, maxInFlightPerHost: 4 });
        const before = commandStats(await admin.info('commandstats'));
        const startedAt = Date.now();
        await store.enqueue([{ key: 'n0', url: `${site.url}/h0/n0`, host: 'h0', depth: 0, score: 1, payload: null }]);
        for (const child of children) child.send('start');

        // Kill the victim mid-run, while it holds leases of pages it is fetching (the site has seen it ask).
        const victim = children[1]!;
        const leaseWorker = crawlKeys(crawlId).named.leaseWorker;
        const victimLeases = async () =>
            Object.entries(await admin.hgetall(leaseWorker))
                .filter(([, worker]) => worker === 'w1')
                .map(([key]) => key);
        const isFetching = (key: string) => hits.some((hit) => hit.key === key && hit.worker === 'w1');
        for (;;) {
            const { charged } = await store.status();
            if (charged >= KILL_AT_CHARGED && (await victimLeases()).some(isFetching)) break;
            if (charged >= BUDGET) throw new Error('the crawl ended before the victim could be killed');
            if (children.some((child) => child.exitCode !== null)) throw new Error(`a worker exited early: ${JSON.stringify(messages.slice(-5))}`);
            await sleep(5);
        }
        victim.kill('SIGKILL');
        await sleep(50); // commands the victim had sent before it died are served
        const victimInFlight = (await victimLeases()).length;
        const hitsAtKill = hits.length;
        const killedAt = Date.now();
        // Recovery: the survivors' next leases after the deadline take the victim's pages back.
        let recoveryMillis = NaN;
        while (children.some((child) => child !== victim && child.exitCode === null)) {
            if ((await victimLeases()).length === 0) {
                recoveryMillis = Date.now() - killedAt;
                break;
            }
            await sleep(10);
        }

        await Promise.all(exits);
        const elapsedMillis = Date.now() - startedAt;
        const after = commandStats(await admin.info('commandstats'));

        const status = await store.status();
        const states = await admin.hgetall(crawlKeys(crawlId).named.state);
        const countState = (code: string) => Object.values(states).filter((s) => s === code).length;
        const distinctHits = new Set(hits.map((h) => h.key));
        const refetched = hits.length - distinctHits.size;
        const okCommits = messages.filter((m): m is Extract<WorkerMessage, { type: 'commit' }> => m.type === 'commit' && m.result === 'ok');
        const finished = messages.filter((m): m is Extract<WorkerMessage, { type: 'finished' }> => m.type === 'finished');
        const scriptCalls = (after.get('evalsha') ?? 0) + (after.get('eval') ?? 0) - (before.get('evalsha') ?? 0) - (before.get('eval') ?? 0);
        console.info(
            `multi-process: charged ${status.charged}, done ${status.done}, distinct pages fetched ${distinctHits.size}, fetches ${hits.length}, ` +
                `re-fetched ${refetched}, victim's leases in flight ${victimInFlight}, hits before the kill ${hitsAtKill}, reclaimed ${status.reclaimed}, ` +
                `stale ${status.stale}, victim's pages back after ${recoveryMillis} ms, crawl ${elapsedMillis} ms, script calls ${scriptCalls} (${(scriptCalls / status.done).toFixed(2)} per page)`,
        );

        for (const { workerId, calls } of finished) {
            const pages = okCommits.filter((m) => m.workerId === workerId).length;
            const perPage = Object.entries(calls).map(([operation, n]) => `${operation} ${(n / pages).toFixed(2)}`);
            console.info(`multi-process: ${workerId} committed ${pages} pages; calls per page: ${perPage.join(', ')}`);
        }

        expect(victim.signalCode).toBe('SIGKILL');
        expect(victimInFlight).toBeGreaterThan(0);
        // Not before the lease ran out (its last heartbeat was a quarter lease before the kill at most)…
        expect(recoveryMillis).toBeGreaterThan(LEASE_MILLIS / 2);
        expect(recoveryMillis).toBeLessThan(LEASE_MILLIS + 2_000); // …and soon after
        // The budget, exactly: distinct URLs charged, and distinct URLs the site served.
        expect(status.charged).toBe(BUDGET);
        expect(distinctHits.size).toBe(BUDGET);
        // Nothing lost: nothing left leased or queued for a retry, and every charged URL done.
        expect(status).toMatchObject({ leased: 0, requeued: 0, done: BUDGET, failed: 0, isFinished: true, finishReason: 'limit_reached' });
        expect(countState('l') + countState('r')).toBe(0);
        expect(countState('d')).toBe(BUDGET);
        for (const key of distinctHits) expect(states[key]).toBe('d');
        // Each page committed once: the counter matches the states, and no worker saw two successful commits of a page.
        expect(new Set(okCommits.map((m) => m.key)).size).toBe(okCommits.length);
        // Fetching is at least once, bounded by what the victim held. Every lease that came back is the victim's, or a
        // survivor's that stalled past its deadline (none, unless the machine is overloaded): such a survivor was fenced
        // out at commit, so it counts as stale.
        expect(status.reclaimed).toBe(victimInFlight + status.stale);
        expect(refetched).toBeGreaterThan(0); // the victim was killed mid-fetch
        expect(refetched).toBeLessThanOrEqual(victimInFlight + status.stale);
        // Both survivors saw the crawl finish.
        expect(finished.map((m) => m.workerId).sort()).toEqual(['w0', 'w2']);
        await store.close();
    }, 120_000);
});
