// Frontier microbenchmark: `npm run bench`. Single-threaded, so it measures one core.
import { BestFirstQueue } from '../src/frontier/index.js';
import { cleanUrl, shapeKey } from '../src/url/index.js';
import { collectGarbage, Stopwatch, type Timing } from './measure.js';

const QUEUE_TARGET = 1_000_000; // queue operations per second
const CLEAN_TARGET = 300_000; // cleanUrl + shapeKey per second
const OPERATIONS = 1_000_000;
const ROOM = 10_000;
/** Links offered per popped page: the queue stays full, so offers meet every path (queued, rejected, evicted). */
const OFFERS_PER_POP = 3;

/** Deterministic PRNG (mulberry32), so every run measures the same work. */
function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = Math.imul(state ^ (state >>> 15), 1 | state);
        t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

class HeapSampler {
    peak = 0;
    sample(): void {
        this.peak = Math.max(this.peak, process.memoryUsage().heapUsed);
    }
}

/** Timed rounds per benchmark; the median round is reported, so one noisy round cannot decide the verdict. */
const ROUNDS = 5;

interface Result {
    name: string;
    operations: number;
    rounds: Timing[];
    target: number;
    peakHeap: number;
}

function report({ name, operations, rounds, target, peakHeap }: Result): void {
    const byRate = [...rounds].sort((a, b) => b.cpuSeconds - a.cpuSeconds); // slowest first
    const median = byRate[Math.floor(byRate.length / 2)]!;
    const rate = (timing: Timing): number => operations / timing.cpuSeconds;
    const verdict = rate(median) >= target ? 'PASS' : 'MISS';
    const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
    console.log(
        `${name}: median of ${rounds.length} rounds of ${fmt(operations)} ops: ${median.cpuSeconds.toFixed(3)} s CPU ` +
            `(${median.wallSeconds.toFixed(3)} s wall) = ${fmt(rate(median))} ops/s (target ≥ ${fmt(target)}) ${verdict}; ` +
            `rounds ${fmt(rate(byRate[0]!))}–${fmt(rate(byRate.at(-1)!))} ops/s; peak heap ${(peakHeap / 2 ** 20).toFixed(1)} MiB`,
    );
}

/** Links of a site: a pool larger than the room, so some offers repeat a queued key. */
function linkPool(size: number): { keys: string[]; urls: string[] } {
    const next = random(7);
    const sections = ['news', 'study', 'research', 'about', 'admissions', 'library', 'events', 'people'];
    const urls = Array.from({ length: size }, (_, i) => {
        const host = `dept${Math.floor(next() * 30)}.example.edu`;
        const section = sections[Math.floor(next() * sections.length)] as string;
        return `https://${host}/${section}/item-${i}`;
    });
    return { keys: urls.map((url) => url.replace('https://', '')), urls };
}

function benchQueue(operations: number, sampler: HeapSampler): Timing {
    const { keys, urls } = linkPool(200_000);
    const next = random(42);
    // Draw the random inputs up front so the timing covers the queue, not the generator.
    const picks = Uint32Array.from({ length: operations }, () => Math.floor(next() * keys.length));
    const depths = Uint8Array.from({ length: operations }, () => 1 + Math.floor(next() * 5));
    const scores = Float64Array.from(depths, (depth) => next() * 0.9 ** depth);
    const queue = new BestFirstQueue<number>();
    const stopwatch = new Stopwatch();
    for (let op = 0; op < operations; op += 1) {
        if (op % (OFFERS_PER_POP + 1) === OFFERS_PER_POP) {
            queue.pop();
        } else {
            const i = picks[op] as number;
            const score = scores[op] as number;
            queue.offer(keys[i] as string, urls[i] as string, depths[op] as number, score, score, ROOM);
        }
        if (op % 10_000 === 0) sampler.sample();
    }
    return stopwatch.stop();
}

/**
 * popDiverse's worst case, reported without a target: nothing is proven and every cluster is
 * full, so each pop visits every entry above the floor (here all of a full queue) before taking
 * the top. The crawl pays this once per fetched page.
 */
function benchDiverseWorstCase(): void {
    const { keys, urls } = linkPool(ROOM);
    const next = random(5);
    const queue = new BestFirstQueue<null>();
    for (let i = 0; i < ROOM; i += 1) queue.offer(keys[i] as string, urls[i] as string, 1, 0.5 + next() * 0.5, null, ROOM);
    const pops = 2_000;
    queue.popDiverse({ scheduled: () => 0, cap: 1, proven: () => false }); // computes the cluster keys once
    const stopwatch = new Stopwatch();
    for (let i = 0; i < pops; i += 1) queue.popDiverse({ scheduled: () => 1, cap: 1, proven: () => false });
    const { cpuSeconds } = stopwatch.stop();
    const microseconds = (cpuSeconds / pops) * 1e6;
    console.log(
        `BestFirstQueue popDiverse worst case (${ROOM.toLocaleString('en-US')} entries, all above the floor, ` +
            `nothing proven): ${microseconds.toFixed(0)} µs per pop (informational)`,
    );
}

/** URLs as crawlers meet them: trackers, session IDs, deep paths, IDs and query strings. */
function messyUrls(count: number): string[] {
    const next = random(99);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const hex = (length: number): string =>
        Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join('');
    const hosts = ['www.example.edu', 'news.example.edu', 'Shop.Example.com', 'example.org:8080'];
    const words = ['docs', 'study', 'events', 'calendar', 'products', 'item', 'en', 'de', 'archive', 'people'];
    return Array.from({ length: count }, () => {
        const segments = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
            const r = next();
            if (r < 0.5) return pick(words);
            if (r < 0.7) return String(Math.floor(next() * 3000));
            if (r < 0.8) return `${pick(words)}-${hex(24)}`;
            return `${pick(words)}-${Math.floor(next() * 99)}.html`;
        });
        const params: string[] = [];
        if (next() < 0.3) params.push(`utm_source=${pick(words)}`, 'utm_medium=email');
        if (next() < 0.1) params.push(`fbclid=${hex(30)}`);
        if (next() < 0.1) params.push(`sid=${hex(32)}`);
        if (next() < 0.3) params.push(`page=${Math.floor(next() * 40)}`);
        if (next() < 0.2) params.push(`q=${pick(words)}+${pick(words)}`, `sort=${pick(['asc', 'desc'])}`);
        const session = next() < 0.05 ? `;jsessionid=${hex(32).toUpperCase()}` : '';
        const query = params.length > 0 ? `?${params.join('&')}` : '';
        const fragment = next() < 0.1 ? '#top' : '';
        return `https://${pick(hosts)}/${segments.join('/')}${session}${query}${fragment}`;
    });
}

function benchCleaning(operations: number, sampler: HeapSampler): Timing {
    const urls = messyUrls(50_000);
    let checksum = 0;
    const stopwatch = new Stopwatch();
    for (let op = 0; op < operations; op += 1) {
        checksum += shapeKey(cleanUrl(urls[op % urls.length] as string)).length;
        if (op % 10_000 === 0) sampler.sample();
    }
    const timing = stopwatch.stop();
    if (checksum === 0) throw new Error('shapeKey returned empty keys; the benchmark measured nothing.');
    return timing;
}

function run(name: string, target: number, measure: (operations: number, sampler: HeapSampler) => Timing): void {
    measure(OPERATIONS / 10, new HeapSampler()); // warm-up: let the JIT compile the hot paths
    const sampler = new HeapSampler();
    sampler.sample();
    const rounds = Array.from({ length: ROUNDS }, () => {
        collectGarbage(); // so the peak heap is one round's, not the leftovers of the rounds before
        return measure(OPERATIONS, sampler);
    });
    sampler.sample();
    report({ name, operations: OPERATIONS, rounds, target, peakHeap: sampler.peak });
}

console.log(`Node ${process.version}, one core; ${OFFERS_PER_POP} offers per pop, room ${ROOM.toLocaleString('en-US')}`);
run('BestFirstQueue offer+pop', QUEUE_TARGET, benchQueue);
run('cleanUrl + shapeKey', CLEAN_TARGET, benchCleaning);
benchDiverseWorstCase();
