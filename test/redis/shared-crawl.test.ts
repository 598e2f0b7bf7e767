// Crawls shared by several worker processes through one private redis-server: real Crawlee, real HTTP on 127.0.0.1.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { crawlKeys } from '../../src/redis/index.js';
import { dedupKey } from '../../src/url/index.js';
import type { CreateFocusedCrawlerOptions, FocusReport } from '../../src/index.js';
import { redisUnavailable, startRedis } from '../helpers/redis-server.js';
import type { TestRedis } from '../helpers/redis-server.js';
import { SHARED_SITE_QUERY, startSharedSite } from './shared-site.js';
import type { SharedSite } from './shared-site.js';

if (redisUnavailable) console.warn(redisUnavailable);

const WORKER = fileURLToPath(new URL('./fixtures/crawl-worker.ts', import.meta.url));
const WORKERS = 3;
const SITE_PAGES = 400;

interface Scenario {
    mode: 'http' | 'browser';
    maxPages: number;
    /** The victim is killed once the site has served this many distinct pages (about a third of the budget). */
    killAfterPages: number;
    /** Short, so the survivors take the victim's pages soon after the kill; heartbeats every third of it. */
    leaseMillis: number;
    concurrency: number;
    timeoutMillis: number;
}

const SCENARIOS: Scenario[] = [
    { mode: 'http', maxPages: 40, killAfterPages: 12, leaseMillis: 3_000, concurrency: 3, timeoutMillis: 180_000 },
    // Three Chromiums on two cores: fewer pages, and leases long enough for a loaded event loop's heartbeat.
    { mode: 'browser', maxPages: 24, killAfterPages: 8, leaseMillis: 10_000, concurrency: 2, timeoutMillis: 400_000 },
];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type WorkerMessage = { type: 'ready'; workerId: string } | { type: 'report'; report: FocusReport } | { type: 'error'; message: string };

interface Worker {
    child: ChildProcess;
    agent: string;
    storageDir: string;
    messages: WorkerMessage[];
    exited: Promise<void>;
}

const children: ChildProcess[] = [];

function startWorker(options: CreateFocusedCrawlerOptions & { userAgent: string; dieAtDelivery?: number }): Worker {
    const storageDir = options.storageDir!;
    const child = fork(WORKER, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(child);
    const messages: WorkerMessage[] = [];
    child.on('message', (message: WorkerMessage) => messages.push(message));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { child, agent: options.userAgent, storageDir, messages, exited };
}

async function waitFor(done: () => boolean, what: string, timeoutMillis = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMillis;
    while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await sleep(20);
    }
}

/** The URLs in a worker's default dataset (one JSON file per item, as Crawlee's local storage writes them). */
function deliveredUrls(storageDir: string): string[] {
    const dir = join(storageDir, 'datasets', 'default');
    if (!existsSync(dir)) return [];
    const urls: string[] = [];
    for (const name of readdirSync(dir).filter((n) => /^\d+\.json$/.test(n))) {
        try {
            urls.push(String(JSON.parse(readFileSync(join(dir, name), 'utf8')).url));
        } catch {
            // an item cut by the kill: the page was not delivered
        }
    }
    return urls;
}

describe.skipIf(redisUnavailable !== null)('a focused crawl shared by worker processes through Redis', () => {
    let redis: TestRedis;
    let site: SharedSite;

    beforeAll(async () => {
        redis = await startRedis();
        site = await startSharedSite({ pages: SITE_PAGES, latencyMillis: 300 });
    });
    afterAll(async () => {
        for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await site?.close();
        await redis?.stop();
    });

    const optionsFor = (crawlId: string, i: number, scenario: Scenario) => ({
        startUrls: [`${site.url}/p0`],
        query: SHARED_SITE_QUERY,
        mode: scenario.mode,
        maxPages: scenario.maxPages,
        stop: 'never' as const,
        maxRequestsPerHost: WORKERS * scenario.concurrency,
        minConcurrency: scenario.concurrency,
        maxConcurrency: scenario.concurrency,
        storageDir: mkdtempSync(join(tmpdir(), `cf-worker-${i}-`)),
        // The site's access log tells the workers apart by it.
        userAgent: `cf-test-worker-${i}`,
        redis: { url: redis.url, crawlId, leaseMillis: scenario.leaseMillis },
    });

    it.each(SCENARIOS)('$mode mode, one of 3 workers killed: fetches exactly maxPages distinct pages, delivers each once, and every survivor reports the same stop', async (scenario) => {
        const { maxPages: MAX_PAGES, killAfterPages: KILL_AFTER_PAGES } = scenario;
        const crawlId = `shared-${scenario.mode}`;
        site.hits.length = 0; // one access log per crawl
        const workers = Array.from({ length: WORKERS }, (_, i) => startWorker(optionsFor(crawlId, i, scenario)));
        await waitFor(() => workers.every((w) => w.messages.some((m) => m.type === 'ready')), 'the workers to join', 120_000);
        for (const w of workers) w.child.send('go');

        const distinct = () => new Set(site.hits.map((h) => h.path)).size;
        await waitFor(() => distinct() >= KILL_AFTER_PAGES, `${KILL_AFTER_PAGES} pages`, 240_000);
        const victim = [...workers].sort((a, b) => site.open(b.agent) - site.open(a.agent))[0]!;
        const victimId = (victim.messages.find((m) => m.type === 'ready') as { workerId: string }).workerId;
        const keys = crawlKeys(crawlId).named;
        const admin = redis.client();
        // Snapshot what the victim holds, then kill it: its open requests and its leases (which include them).
        const victimInFlight = site.open(victim.agent);
        const leaseOwners = await admin.hgetall(keys.leaseWorker);
        victim.child.kill('SIGKILL');
        const victimLeases = Object.values(leaseOwners).filter((owner) => owner === victimId).length;
        const survivors = workers.filter((w) => w !== victim);
        await Promise.all(survivors.map((w) => w.exited));
        await victim.exited;

        const reports = survivors.map((w) => (w.messages.find((m) => m.type === 'report') as { report: FocusReport } | undefined)?.report);
        expect(reports.every((r) => r !== undefined), 'every survivor finished with a report').toBe(true);
        const counters = await admin.hgetall(keys.counters);
        const stale = Number(counters.stale ?? 0);
        const fetches = site.hits.length;
        const refetched = fetches - distinct();
        const states = await admin.hgetall(keys.state);
        const done = Object.entries(states).filter(([, state]) => state === 'd').map(([key]) => key);
        // The store keeps dedup keys only once a page is done: map them back to the site's URLs.
        const urlOf = new Map(Array.from({ length: SITE_PAGES }, (_, i) => `${site.url}/p${i}`).map((url) => [dedupKey(url), url]));
        const doneUrls = done.map((key) => urlOf.get(key) ?? key);
        const delivered = workers.flatMap((w) => deliveredUrls(w.storageDir));
        const deliveredTwice = delivered.filter((url, i) => delivered.indexOf(url) !== i);
        const lost = doneUrls.filter((url) => !delivered.includes(url));
        console.log(
            JSON.stringify({
                mode: scenario.mode,
                distinct: distinct(),
                fetches,
                refetched,
                victimInFlight,
                victimLeases,
                stale,
                charged: Number(counters.charged),
                done: done.length,
                delivered: delivered.length,
                perWorker: workers.map((w) => deliveredUrls(w.storageDir).length),
                lost,
                stopReasons: reports.map((r) => r?.stopReason),
            }),
        );

        expect(distinct()).toBe(MAX_PAGES);
        expect(Number(counters.charged)).toBe(MAX_PAGES);
        expect(victimInFlight).toBeGreaterThan(0);
        expect(refetched).toBeLessThanOrEqual(victimLeases + stale);
        expect(deliveredTwice).toEqual([]);
        expect(lost).toEqual([]);
        expect(new Set(reports.map((r) => r!.stopReason)).size).toBe(1);
        expect(reports[0]!.stopReason).toBe('limit_reached');
        // Each survivor's report ends with what all workers did: the same crawl-wide counters.
        for (const report of reports) expect(report!.sharedCrawl).toMatchObject({ crawlId, charged: MAX_PAGES, budget: MAX_PAGES, done: MAX_PAGES, leased: 0 });
        expect(reports[0]!.sharedCrawl!.reclaimed, "the victim's leases were taken back").toBeGreaterThan(0);
        expect(await admin.zcard(keys.leases)).toBe(0);
    }, Math.max(...SCENARIOS.map((s) => s.timeoutMillis)));

    it('a worker killed after committing a page and before writing it: another worker delivers that page, once', async () => {
        const scenario: Scenario = { mode: 'http', maxPages: 24, killAfterPages: 0, leaseMillis: 1_500, concurrency: 2, timeoutMillis: 120_000 };
        const crawlId = 'owed-delivery';
        site.hits.length = 0;
        const workers = [0, 1].map((i) => startWorker({ ...optionsFor(crawlId, i, scenario), ...(i === 0 ? { dieAtDelivery: 4 } : {}) }));
        await waitFor(() => workers.every((w) => w.messages.some((m) => m.type === 'ready')), 'the workers to join', 120_000);
        for (const w of workers) w.child.send('go');
        const [victim, survivor] = workers as [Worker, Worker];
        await Promise.all([victim.exited, survivor.exited]);
        expect(victim.child.signalCode).toBe('SIGKILL');

        const report = (survivor.messages.find((m) => m.type === 'report') as { report: FocusReport } | undefined)?.report;
        expect(report?.stopReason).toBe('limit_reached');
        const keys = crawlKeys(crawlId).named;
        const admin = redis.client();
        const states = await admin.hgetall(keys.state);
        const urlOf = new Map(Array.from({ length: SITE_PAGES }, (_, i) => `${site.url}/p${i}`).map((url) => [dedupKey(url), url]));
        const doneUrls = Object.entries(states).filter(([, state]) => state === 'd').map(([key]) => urlOf.get(key) ?? key);
        const victimItems = deliveredUrls(victim.storageDir);
        const survivorItems = deliveredUrls(survivor.storageDir);
        const delivered = [...victimItems, ...survivorItems];
        // the victim wrote the three pages before the one it died on; the survivor wrote that one for it
        expect(victimItems).toHaveLength(3);
        expect(doneUrls).toHaveLength(scenario.maxPages);
        expect(delivered.sort()).toEqual(doneUrls.sort());
        // the page it died on, and any other it had committed that waited for the delivery gate behind it
        expect(report!.sharedCrawl!.redelivered).toBeGreaterThanOrEqual(1);
        expect(report!.sharedCrawl!.redelivered).toBeLessThanOrEqual(scenario.concurrency);
        expect(report!.sharedCrawl!.done).toBe(scenario.maxPages);
        expect(report!.sharedCrawl!.worker.delivered).toBe(survivorItems.length);
        expect(await admin.zcard(keys.owedDue)).toBe(0);
    }, 120_000);
});
