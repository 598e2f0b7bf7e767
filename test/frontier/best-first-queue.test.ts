import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BestFirstQueue, DIVERSITY_RATIO, pickDiverse, type QueueItem } from '../../src/frontier/index.js';

const url = (path: string): string => `https://e.com${path}`;
const pathOf = (item: QueueItem<unknown> | undefined): string | undefined => item && new URL(item.url).pathname;

function drain<S>(queue: BestFirstQueue<S>): QueueItem<S>[] {
    const out: QueueItem<S>[] = [];
    for (let item = queue.pop(); item; item = queue.pop()) out.push(item);
    return out;
}

describe('BestFirstQueue (pagesift queue.rs behaviours)', () => {
    it('best_first_pops_highest_score_then_discovery_order', () => {
        const q = new BestFirstQueue<null>();
        q.offer('1', url('/a'), 1, 0.5, null, 10);
        q.offer('2', url('/b'), 1, 2.0, null, 10);
        q.offer('3', url('/c'), 1, 0.5, null, 10);
        expect(pathOf(q.pop())).toBe('/b');
        expect(pathOf(q.pop())).toBe('/a');
        expect(pathOf(q.pop())).toBe('/c');
        expect(q.pop()).toBeUndefined();
    });

    it('best_first_is_bounded_and_evicts_the_worst', () => {
        const q = new BestFirstQueue<null>();
        expect(q.offer('1', url('/a'), 1, 0.1, null, 2)).toEqual({ kind: 'queued' });
        expect(q.offer('2', url('/b'), 1, 0.2, null, 2)).toEqual({ kind: 'queued' });
        expect(q.offer('3', url('/c'), 1, 0.05, null, 2)).toEqual({ kind: 'rejected' });
        expect(q.offer('4', url('/d'), 1, 0.3, null, 2)).toEqual({ kind: 'evicted', key: '1', url: url('/a'), signal: null });
        expect(q.size).toBe(2);
        expect(q.contains('1')).toBe(false);
        expect(q.contains('4')).toBe(true);
        expect(q.offer('4', url('/d'), 1, 0.9, null, 2)).toEqual({ kind: 'already-queued' });
        expect(q.pop()?.score).toBe(0.9);
    });

    it('diverse_pop_leaves_a_saturated_cluster_for_a_close_rival', () => {
        const counts = new Map([['e.com/news', 3]]);
        const scheduled = (cluster: string): number => counts.get(cluster) ?? 0;
        const q = new BestFirstQueue<null>();
        q.offer('1', url('/news/1'), 1, 1.0, null, 10);
        q.offer('2', url('/news/2'), 1, 0.9, null, 10);
        q.offer('3', url('/study/intl'), 1, 0.6, null, 10);
        q.offer('4', url('/about'), 1, 0.2, null, 10);
        // news has used its cap of 3: study (0.6 ≥ 1.0 × 0.5) goes first, then news again
        expect(pathOf(q.popDiverse({ scheduled, cap: 3, proven: () => false }))).toBe('/study/intl');
        expect(pathOf(q.popDiverse({ scheduled, cap: 3, proven: () => false }))).toBe('/news/1');
        // about (0.2) is below the floor 0.45 and may not jump the queue
        expect(pathOf(q.popDiverse({ scheduled, cap: 3, proven: () => false }))).toBe('/news/2');

        const proven = new BestFirstQueue<null>();
        proven.offer('1', url('/news/1'), 1, 1.0, null, 10);
        proven.offer('3', url('/study/intl'), 1, 0.6, null, 10);
        expect(pathOf(proven.popDiverse({ scheduled, cap: 3, proven: (c) => c === 'e.com/news' }))).toBe('/news/1');
    });

    it('diverse pop exploits a proven cluster above the floor before an unproven top', () => {
        const q = new BestFirstQueue<null>();
        q.offer('1', url('/news/1'), 1, 1.0, null, 10);
        q.offer('2', url('/study/a'), 1, 0.7, null, 10);
        q.offer('3', url('/visa/a'), 1, 0.4, null, 10);
        const isStudy = (c: string): boolean => c === 'e.com/study';
        const isVisa = (c: string): boolean => c === 'e.com/visa';
        expect(pathOf(q.popDiverse({ scheduled: () => 0, cap: 3, proven: isStudy }))).toBe('/study/a');
        // visa is proven but 0.4 < 1.0 × DIVERSITY_RATIO: the top goes
        expect(DIVERSITY_RATIO).toBe(0.5);
        expect(pathOf(q.popDiverse({ scheduled: () => 0, cap: 3, proven: isVisa }))).toBe('/news/1');
    });

    it('diverse pop takes the top when every cluster above the floor is full', () => {
        const q = new BestFirstQueue<null>();
        q.offer('1', url('/news/1'), 1, 1.0, null, 10);
        q.offer('2', url('/news/2'), 1, 0.9, null, 10);
        q.offer('3', url('/about'), 1, 0.1, null, 10);
        expect(pathOf(q.popDiverse({ scheduled: () => 5, cap: 3, proven: () => false }))).toBe('/news/1');
    });

    it('picks from a best-first list (a shared store\'s top links) what the diverse pop would take, for random queues and counts', () => {
        const clusters = ['/news', '/study', '/visa', '/about'];
        fc.assert(
            fc.property(
                fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 100 })), { minLength: 1, maxLength: 12 }),
                fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 4, maxLength: 4 }),
                fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
                (links, counts, provenFlags) => {
                    const rule = {
                        scheduled: (cluster: string) => counts[clusters.findIndex((c) => cluster.endsWith(c))] ?? 0,
                        cap: 2,
                        proven: (cluster: string) => provenFlags[clusters.findIndex((c) => cluster.endsWith(c))] ?? false,
                    };
                    const queue = new BestFirstQueue<null>();
                    links.forEach(([cluster, score], i) => queue.offer(String(i), url(`${clusters[cluster]}/${i}`), 1, score / 10, null, 100));
                    // the list a store returns: best first, ties in the order they were queued
                    const listed = [...links.entries()]
                        .map(([i, [cluster, score]]) => ({ key: String(i), url: url(`${clusters[cluster]}/${i}`), score: score / 10 }))
                        .sort((a, b) => b.score - a.score || Number(a.key) - Number(b.key));
                    expect(pickDiverse(listed, rule)?.key).toBe(queue.popDiverse(rule)?.key);
                },
            ),
        );
        expect(pickDiverse([], { scheduled: () => 0, cap: 2, proven: () => false })).toBeUndefined();
    });

    it('rescoring_reorders_by_the_new_scores_and_keeps_ties_in_discovery_order', () => {
        const q = new BestFirstQueue<number>();
        q.offer('1', url('/a'), 1, 0.9, 0.1, 10);
        q.offer('2', url('/b'), 1, 0.5, 0.7, 10);
        q.offer('3', url('/c'), 1, 0.4, 0.7, 10);
        q.rescore((signal) => signal);
        expect(q.peekScore()).toBe(0.7);
        expect(pathOf(q.pop())).toBe('/b');
        expect(pathOf(q.pop())).toBe('/c');
        expect(pathOf(q.pop())).toBe('/a');
        expect(q.size).toBe(0);
        expect(q.contains('1')).toBe(false);
    });

    it('clamps scores: negative and NaN become 0, infinity stays first and serialisable', () => {
        const q = new BestFirstQueue<null>();
        q.offer('neg', url('/neg'), 0, -3, null, 10);
        q.offer('nan', url('/nan'), 0, Number.NaN, null, 10);
        q.offer('inf', url('/inf'), 0, Number.POSITIVE_INFINITY, null, 10);
        const restored = BestFirstQueue.fromJSON<null>(JSON.parse(JSON.stringify(q)));
        expect(drain(restored).map((i) => [i.key, i.score])).toEqual([
            ['inf', Number.MAX_VALUE],
            ['neg', 0],
            ['nan', 0],
        ]);
        expect(q.offer('x', url('/x'), 0, 0, null, 0)).toEqual({ kind: 'rejected' });
        expect(new BestFirstQueue<null>().offer('x', url('/x'), 0, 1, null, 0)).toEqual({ kind: 'rejected' });
    });

    it('a lower re-offer changes nothing; a higher one replaces score and signal but not discovery order', () => {
        const q = new BestFirstQueue<string>();
        q.offer('a', url('/a'), 1, 0.5, 'first', 10);
        q.offer('b', url('/b'), 1, 0.8, 'b', 10);
        expect(q.offer('a', url('/a'), 1, 0.2, 'lower', 10)).toEqual({ kind: 'already-queued' });
        expect(q.offer('a', url('/a'), 1, 0.8, 'higher', 10)).toEqual({ kind: 'already-queued' });
        const first = q.pop();
        expect(first).toEqual({ key: 'a', url: url('/a'), depth: 1, score: 0.8, signal: 'higher' });
        expect(q.takeSignal()).toBe('higher');
        expect(q.takeSignal()).toBeUndefined();
    });

    it('delete removes a key and iteration follows pop order', () => {
        const q = new BestFirstQueue<null>();
        for (const [key, score] of [['a', 0.3], ['b', 0.9], ['c', 0.3], ['d', 0.5]] as const) {
            q.offer(key, url(`/${key}`), 0, score, null, 10);
        }
        expect(q.delete('d')).toBe(true);
        expect(q.delete('d')).toBe(false);
        expect([...q].map((i) => i.key)).toEqual(['b', 'a', 'c']);
        expect(q.size).toBe(3);
    });
});

type Op =
    | { op: 'offer'; key: number; score: number; room: number }
    | { op: 'pop' }
    | { op: 'diverse'; cap: number; provenMask: number; scheduledMask: number }
    | { op: 'delete'; key: number }
    | { op: 'rescore'; salt: number };

const scoreArb = fc.oneof(fc.constantFrom(0, 0.25, 0.5, 1), fc.double({ min: 0, max: 2, noNaN: true }));
const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant('offer' as const), key: fc.nat(40), score: scoreArb, room: fc.integer({ min: 0, max: 12 }) }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('pop' as const) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('diverse' as const), cap: fc.nat(3), provenMask: fc.nat(15), scheduledMask: fc.nat(15) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.nat(40) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('rescore' as const), salt: fc.nat(7) }) },
);
/** Four clusters: the link's key modulo 4 picks the first path segment. */
const linkUrl = (key: number): string => `https://e.com/c${key % 4}/${key}`;
const clusterIndex = (cluster: string): number => Number(cluster.slice('e.com/c'.length));
const rescoreFn = (salt: number) => (signal: number) => ((signal * 7 + salt) % 5) / 4;

function apply(queue: BestFirstQueue<number>, op: Op): unknown {
    switch (op.op) {
        case 'offer':
            return queue.offer(String(op.key), linkUrl(op.key), op.key % 3, op.score, op.key, op.room);
        case 'pop':
            return queue.pop();
        case 'diverse':
            return queue.popDiverse({
                scheduled: (c) => ((op.scheduledMask >> clusterIndex(c)) & 1) * 3,
                cap: op.cap,
                proven: (c) => ((op.provenMask >> clusterIndex(c)) & 1) === 1,
            });
        case 'delete':
            return queue.delete(String(op.key));
        case 'rescore':
            return queue.rescore(rescoreFn(op.salt));
    }
}

/** Straightforward reference: a list sorted on demand, as pagesift's ordered map behaves. */
class ReferenceQueue {
    entries: { key: string; url: string; depth: number; score: number; signal: number; seq: number }[] = [];
    seq = 0;
    sorted() {
        return [...this.entries].sort((a, b) => b.score - a.score || a.seq - b.seq);
    }
    take(key: string) {
        const i = this.entries.findIndex((e) => e.key === key);
        if (i < 0) return undefined;
        const [e] = this.entries.splice(i, 1);
        return e && { key: e.key, url: e.url, depth: e.depth, score: e.score, signal: e.signal };
    }
    apply(op: Op): unknown {
        switch (op.op) {
            case 'offer': {
                const key = String(op.key);
                const existing = this.entries.find((e) => e.key === key);
                if (existing) {
                    if (op.score > existing.score) Object.assign(existing, { score: op.score, signal: op.key });
                    return { kind: 'already-queued' };
                }
                let evicted;
                if (this.entries.length >= op.room) {
                    const worst = this.sorted().at(-1);
                    if (!worst || worst.score >= op.score) return { kind: 'rejected' };
                    this.take(worst.key);
                    evicted = worst;
                }
                this.entries.push({ key, url: linkUrl(op.key), depth: op.key % 3, score: op.score, signal: op.key, seq: this.seq++ });
                return evicted ? { kind: 'evicted', key: evicted.key, url: evicted.url, signal: evicted.signal } : { kind: 'queued' };
            }
            case 'pop': {
                const top = this.sorted()[0];
                return top && this.take(top.key);
            }
            case 'diverse': {
                const order = this.sorted();
                const top = order[0];
                if (!top) return undefined;
                const cluster = (e: { key: string }) => Number(e.key) % 4;
                const proven = (e: { key: string }) => ((op.provenMask >> cluster(e)) & 1) === 1;
                const full = (e: { key: string }) => ((op.scheduledMask >> cluster(e)) & 1) * 3 >= op.cap && !proven(e);
                const eligible = order.filter((e) => e.score >= top.score * DIVERSITY_RATIO);
                const exploit = proven(top) ? undefined : eligible.find(proven);
                if (exploit) return this.take(exploit.key);
                if (!full(top)) return this.take(top.key);
                return this.take((eligible.find((e) => !full(e)) ?? top).key);
            }
            case 'delete':
                return this.take(String(op.key)) !== undefined;
            case 'rescore':
                for (const e of this.entries) e.score = rescoreFn(op.salt)(e.signal);
                return undefined;
        }
    }
}

describe('BestFirstQueue properties', () => {
    it('behaves exactly like a sorted-list reference under any sequence of operations', () => {
        fc.assert(
            fc.property(fc.array(opArb, { maxLength: 200 }), (ops) => {
                const queue = new BestFirstQueue<number>();
                const reference = new ReferenceQueue();
                for (const op of ops) {
                    expect(apply(queue, op)).toEqual(reference.apply(op));
                    expect(queue.size).toBe(reference.entries.length);
                }
                expect([...queue].map((i) => i.key)).toEqual(reference.sorted().map((e) => e.key));
            }),
            { numRuns: 300 },
        );
    });

    it('never holds more than its room', () => {
        fc.assert(
            fc.property(
                fc.integer({ min: 0, max: 20 }),
                fc.array(fc.oneof(fc.record({ key: fc.nat(100), score: scoreArb }), fc.constant('pop' as const)), { maxLength: 300 }),
                (room, steps) => {
                    const queue = new BestFirstQueue<null>();
                    for (const step of steps) {
                        if (step === 'pop') queue.pop();
                        else queue.offer(String(step.key), linkUrl(step.key), 0, step.score, null, room);
                        expect(queue.size).toBeLessThanOrEqual(room);
                    }
                },
            ),
        );
    });

    it('without diversity, popped scores never increase', () => {
        fc.assert(
            fc.property(fc.array(fc.record({ key: fc.nat(200), score: scoreArb }), { maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (offers, room) => {
                const queue = new BestFirstQueue<null>();
                for (const { key, score } of offers) queue.offer(String(key), linkUrl(key), 0, score, null, room);
                const scores = drain(queue).map((i) => i.score);
                for (let i = 1; i < scores.length; i += 1) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1] as number);
            }),
        );
    });

    it('a JSON round trip gives the identical pop sequence and offer outcomes', () => {
        fc.assert(
            fc.property(fc.array(opArb, { maxLength: 120 }), fc.array(opArb, { maxLength: 120 }), (before, after) => {
                const queue = new BestFirstQueue<number>();
                for (const op of before) apply(queue, op);
                const restored = BestFirstQueue.fromJSON<number>(JSON.parse(JSON.stringify(queue)));
                expect(restored.toJSON()).toEqual(queue.toJSON());
                expect(restored.takeSignal()).toEqual(queue.takeSignal());
                for (const op of after) expect(apply(restored, op)).toEqual(apply(queue, op));
                expect(drain(restored)).toEqual(drain(queue));
            }),
            { numRuns: 200 },
        );
    });
});

describe('BestFirstQueue.popBest, scoreOf and setScore (the frontier store leases with them)', () => {
    it('popBest takes the first link in pop order that is accepted, and leaves the rest', () => {
        fc.assert(
            fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.boolean()), { maxLength: 60 }), (links) => {
                const queue = new BestFirstQueue<boolean>();
                links.forEach(([score, accepted], i) => queue.offer(`k${i}`, url(`/${i}`), 1, score, accepted, Infinity));
                const order = [...queue];
                const expected = order.find((item) => item.signal);
                const popped = queue.popBest((item) => item.signal);
                expect(popped?.key).toBe(expected?.key);
                expect([...queue].map((item) => item.key)).toEqual(order.filter((item) => item !== expected).map((item) => item.key));
            }),
            { numRuns: 200 },
        );
    });

    it('setScore moves a queued link up or down; scoreOf reads it', () => {
        const queue = new BestFirstQueue<null>();
        queue.offer('a', url('/a'), 1, 3, null, Infinity);
        queue.offer('b', url('/b'), 1, 2, null, Infinity);
        expect(queue.setScore('a', 1)).toBe(true);
        expect(queue.setScore('missing', 9)).toBe(false);
        expect(queue.scoreOf('a')).toBe(1);
        expect(queue.scoreOf('missing')).toBeUndefined();
        expect(drain(queue).map((item) => item.key)).toEqual(['b', 'a']);
    });
});
