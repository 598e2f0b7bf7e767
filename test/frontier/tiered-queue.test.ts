import { describe, expect, it } from 'vitest';
import { TieredQueue, TrapLearner, type DemotionSource } from '../../src/frontier/index.js';
import { shapeKey } from '../../src/url/index.js';

/** A demotion source the test controls: demote templates by example URL, bump the generation or not. */
class ManualDemotion implements DemotionSource {
    generation = 0;
    private readonly demoted = new Set<string>();
    isDemoted(key: string): boolean {
        return this.demoted.has(key);
    }
    demote(exampleUrl: string, bump = true): void {
        this.demoted.add(shapeKey(exampleUrl));
        if (bump) this.generation += 1;
    }
}

const notBusy = (): boolean => false;
const urlsOf = (queue: TieredQueue<unknown>): string[] => [...queue].map((item) => item.url);

function popAll<T>(queue: TieredQueue<T>, busy: (host: string) => boolean = notBusy): string[] {
    const out: string[] = [];
    for (let item = queue.pop({ allowLow: true, busy }); item; item = queue.pop({ allowLow: true, busy })) {
        out.push(item.url);
    }
    return out;
}

describe('TieredQueue', () => {
    it('serves hosts round-robin and skips a busy host without losing its place', () => {
        const queue = new TieredQueue<number>(new ManualDemotion());
        for (const url of ['https://a.com/1', 'https://a.com/2', 'https://a.com/3', 'https://b.com/1', 'https://c.com/1']) {
            queue.push(url, 1, 0);
        }
        expect(queue.size).toBe(5);
        const busyA = (host: string): boolean => host === 'a.com';
        expect(queue.pop({ allowLow: true, busy: busyA })?.url).toBe('https://b.com/1');
        expect(queue.pop({ allowLow: true, busy: busyA })?.url).toBe('https://c.com/1');
        expect(queue.pop({ allowLow: true, busy: busyA })).toBeUndefined();
        expect(queue.size).toBe(3);
        expect(popAll(queue)).toEqual(['https://a.com/1', 'https://a.com/2', 'https://a.com/3']);
    });

    it('interleaves hosts: one long host does not block the others', () => {
        const queue = new TieredQueue<string>(new ManualDemotion());
        queue.push('https://www.a.com/1', 0, 'seed');
        queue.push('https://a.com/2', 1, 'x');
        queue.push('https://b.com/1', 1, 'y');
        queue.push('https://a.com/3', 1, 'z');
        expect(urlsOf(queue)).toEqual(['https://www.a.com/1', 'https://a.com/2', 'https://a.com/3', 'https://b.com/1']);
        const first = queue.pop({ allowLow: false, busy: notBusy });
        expect(first).toEqual({ url: 'https://www.a.com/1', depth: 0, payload: 'seed', fromLow: false });
        expect(popAll(queue)).toEqual(['https://b.com/1', 'https://a.com/2', 'https://a.com/3']);
    });

    it('keeps demoted URLs for last, only when allowed and their host is free', () => {
        const demotion = new ManualDemotion();
        demotion.demote('https://a.com/calendar?month=1');
        const queue = new TieredQueue<null>(demotion);
        queue.push('https://a.com/calendar?month=2', 2, null);
        queue.push('https://a.com/about', 1, null);
        expect(urlsOf(queue)).toEqual(['https://a.com/about', 'https://a.com/calendar?month=2']);
        expect(queue.pop({ allowLow: false, busy: notBusy })?.url).toBe('https://a.com/about');
        expect(queue.pop({ allowLow: false, busy: notBusy })).toBeUndefined();
        expect(queue.pop({ allowLow: true, busy: (h) => h === 'a.com' })).toBeUndefined();
        expect(queue.pop({ allowLow: true, busy: notBusy })).toEqual({
            url: 'https://a.com/calendar?month=2',
            depth: 2,
            payload: null,
            fromLow: true,
        });
        expect(queue.size).toBe(0);
    });

    it('moves entries demoted after queuing to the low tier when it meets them', () => {
        const demotion = new ManualDemotion();
        const queue = new TieredQueue<null>(demotion);
        queue.push('https://a.com/calendar?month=1', 1, null);
        queue.push('https://a.com/calendar?month=2', 1, null);
        queue.push('https://a.com/people', 1, null);
        demotion.demote('https://a.com/calendar?month=9');
        expect(queue.pop({ allowLow: true, busy: notBusy })?.url).toBe('https://a.com/people');
        expect(popAll(queue)).toEqual(['https://a.com/calendar?month=1', 'https://a.com/calendar?month=2']);
    });

    it('evictLow re-sorts after a generation change and evicts the last demoted entry', () => {
        const demotion = new ManualDemotion();
        const queue = new TieredQueue<null>(demotion);
        queue.push('https://a.com/calendar?month=1', 1, null);
        queue.push('https://b.com/x', 1, null);
        queue.push('https://a.com/calendar?month=2', 1, null);
        // demoted without a generation bump: the queue has no reason to look, low stays empty
        demotion.demote('https://a.com/calendar?month=9', false);
        expect(queue.evictLow()).toBeUndefined();
        expect(queue.size).toBe(3);
        demotion.generation += 1;
        expect(queue.evictLow()).toEqual({ url: 'https://a.com/calendar?month=2', depth: 1, payload: null });
        expect(queue.size).toBe(2);
        expect(urlsOf(queue)).toEqual(['https://b.com/x', 'https://a.com/calendar?month=1']);
        expect(queue.evictLow()?.url).toBe('https://a.com/calendar?month=1');
        expect(queue.evictLow()).toBeUndefined();
        expect(popAll(queue)).toEqual(['https://b.com/x']);
    });

    it('works with a TrapLearner as its demotion source', () => {
        const learner = new TrapLearner();
        const queue = new TieredQueue<null>(learner);
        for (let month = 1; month <= 6; month += 1) queue.push(`https://e.edu/cal?m=${month}`, 1, null);
        queue.push('https://e.edu/study', 1, null);
        for (let month = 1; month <= 3; month += 1) {
            const url = queue.pop({ allowLow: false, busy: notBusy })?.url as string;
            learner.observe(url, `Month ${month}: nothing scheduled.`);
        }
        expect(learner.isDemotedUrl('https://e.edu/cal?m=4')).toBe(true);
        // the study page, queued after the calendar, now comes before the rest of it
        expect(queue.pop({ allowLow: false, busy: notBusy })?.url).toBe('https://e.edu/study');
        expect(queue.pop({ allowLow: false, busy: notBusy })).toBeUndefined();
        expect(queue.pop({ allowLow: true, busy: notBusy })).toMatchObject({ url: 'https://e.edu/cal?m=4', fromLow: true });
    });

    it('round-trips through JSON with the same pop sequence', () => {
        const demotion = new ManualDemotion();
        const queue = new TieredQueue<{ parent: string }>(demotion);
        demotion.demote('https://a.com/tag/1');
        for (const url of ['https://a.com/1', 'https://b.com/1', 'https://a.com/tag/2', 'https://a.com/2', 'https://c.com/']) {
            queue.push(url, 2, { parent: 'https://a.com/' });
        }
        queue.pop({ allowLow: false, busy: notBusy });
        const restored = TieredQueue.fromJSON<{ parent: string }>(JSON.parse(JSON.stringify(queue)), demotion);
        expect(restored.toJSON()).toEqual(queue.toJSON());
        expect(restored.size).toBe(queue.size);
        const drain = (q: TieredQueue<{ parent: string }>) => {
            const out = [];
            for (let item = q.pop({ allowLow: true, busy: notBusy }); item; item = q.pop({ allowLow: true, busy: notBusy })) out.push(item);
            return out;
        };
        expect(drain(restored)).toEqual(drain(queue));
    });
});
