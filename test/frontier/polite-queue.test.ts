import { describe, expect, it } from 'vitest';

import { PoliteQueue, TrapLearner } from '../../src/frontier/index.js';
import type { DiversityRule, PoliteGate } from '../../src/frontier/index.js';

interface Entry {
    url: string;
    uniqueKey: string;
    depth: number;
}

const entry = (url: string, depth = 1): Entry => ({ url, uniqueKey: url, depth });
const NO_CAP: DiversityRule = { scheduled: () => 0, cap: Infinity, proven: () => false };
const gate = (busyHosts: string[] = [], allowLow = true): PoliteGate => ({ isBusy: (host) => busyHosts.includes(host), diversity: NO_CAP, allowLow });

describe('PoliteQueue (best-first)', () => {
    it('hands out the best link of a free host, parking the better ones whose host is busy', () => {
        const queue = PoliteQueue.bestFirst<Entry>();
        queue.offer(entry('https://a.org/1'), 0.9, 10);
        queue.offer(entry('https://b.org/1'), 0.5, 10);
        const next = queue.next(gate(['a.org']));
        expect(next?.entry.url).toBe('https://b.org/1');
        // Asked again before a hand-out: the same link.
        expect(queue.next(gate(['a.org']))).toBe(next);
        queue.unpark(next!);
        expect(queue.size).toBe(1);
        // The busy host's link went back into the queue, not to the parking lot.
        expect(queue.parkedCount).toBe(0);
        expect(queue.next(gate(['a.org']))).toBeUndefined();
        expect(queue.next(gate())?.entry.url).toBe('https://a.org/1');
    });

    it('keeps its room: a better link pushes out the worst, a worse one is turned away', () => {
        const queue = PoliteQueue.bestFirst<Entry>();
        expect(queue.offer(entry('https://a.org/1'), 0.5, 2).kind).toBe('queued');
        expect(queue.offer(entry('https://a.org/2'), 0.3, 2).kind).toBe('queued');
        const pushed = queue.offer(entry('https://a.org/3'), 0.7, 2);
        expect(pushed).toEqual({ kind: 'evicted', entry: entry('https://a.org/2') });
        expect(queue.offer(entry('https://a.org/4'), 0.1, 2).kind).toBe('rejected');
        expect([...queue.scores()].sort()).toEqual([0.5, 0.7]);
    });

    it('raises a queued link found again with a better score, and never queues one that is not there', () => {
        const queue = PoliteQueue.bestFirst<Entry>();
        queue.offer(entry('https://a.org/1'), 0.2, 10);
        queue.offer(entry('https://a.org/2'), 0.5, 10);
        queue.raise(entry('https://a.org/1', 2), 0.8);
        queue.raise(entry('https://a.org/9'), 0.9);
        expect([...queue.ranked()].map(({ entry: e, score }) => [e.url, e.depth, score])).toEqual([
            ['https://a.org/1', 2, 0.8],
            ['https://a.org/2', 1, 0.5],
        ]);
    });

    it('re-scores queued and parked links, and gives back parked links that now score 0', () => {
        const queue = PoliteQueue.bestFirst<Entry>();
        queue.offer(entry('https://a.org/1'), 0.9, 10);
        queue.offer(entry('https://b.org/1'), 0.5, 10);
        queue.offer(entry('https://c.org/1'), 0.4, 10);
        // a.org is busy: its link stays queued, and b.org's is parked for the hand-out.
        const parked = queue.next(gate(['a.org']));
        expect(parked?.entry.url).toBe('https://b.org/1');
        const failing = queue.rescore((e) => (e.url.startsWith('https://b.org') ? 0 : e.url.startsWith('https://c.org') ? 0.95 : undefined), Infinity);
        expect(failing.map((e) => e.url)).toEqual(['https://b.org/1']);
        expect(queue.parkedCount).toBe(0);
        // A queued link without a score ranks 0; c.org's rose above it.
        expect([...queue.ranked()].map(({ entry: e, score }) => [e.url, score])).toEqual([
            ['https://c.org/1', 0.95],
            ['https://a.org/1', 0],
        ]);
    });

    it('survives a snapshot, parked links included', () => {
        const queue = PoliteQueue.bestFirst<Entry>();
        queue.offer(entry('https://a.org/1'), 0.9, 10);
        queue.offer(entry('https://b.org/1'), 0.5, 10);
        queue.next(gate(['a.org']));
        const restored = PoliteQueue.fromJSON<Entry>(JSON.parse(JSON.stringify(queue.toJSON())), null);
        expect(restored.size).toBe(2);
        expect(restored.parkedCount).toBe(1);
        expect([...restored.urls()].sort()).toEqual(['https://a.org/1', 'https://b.org/1']);
        // The restored queue knows a.org has a queued link: once a.org is free it goes first.
        expect(restored.next(gate())?.entry.url).toBe('https://a.org/1');
    });

    it('takes a queued link out wherever it ranks (an exploration pick)', () => {
        const queue = PoliteQueue.bestFirst<Entry>();
        queue.offer(entry('https://a.org/1'), 0.9, 10);
        queue.offer(entry('https://b.org/x/1'), 0.1, 10);
        queue.remove(entry('https://b.org/x/1'));
        expect(queue.size).toBe(1);
        expect(queue.next(gate(['a.org']))).toBeUndefined();
    });
});

describe('PoliteQueue (breadth-first)', () => {
    it('serves hosts in turn and demoted templates last, only when nothing in flight could find better', () => {
        const traps = new TrapLearner();
        const queue = PoliteQueue.breadthFirst<Entry>(traps);
        for (const url of ['https://a.org/1', 'https://a.org/2', 'https://b.org/1']) queue.offer(entry(url), 0, 10);
        const first = queue.next(gate());
        queue.unpark(first!);
        const second = queue.next(gate());
        queue.unpark(second!);
        expect([first!.entry.url, second!.entry.url]).toEqual(['https://a.org/1', 'https://b.org/1']);
        expect([...queue.scores()]).toEqual([]);
        expect(queue.rescore(() => 0, Infinity)).toEqual([]);
        const restored = PoliteQueue.fromJSON<Entry>(JSON.parse(JSON.stringify(queue.toJSON())), traps);
        expect(restored.next(gate())?.entry.url).toBe('https://a.org/2');
    });

    it('turns a link away when full and nothing demoted can make room', () => {
        const queue = PoliteQueue.breadthFirst<Entry>(new TrapLearner());
        expect(queue.offer(entry('https://a.org/1'), 0, 1).kind).toBe('queued');
        expect(queue.offer(entry('https://a.org/2'), 0, 1).kind).toBe('rejected');
    });
});
