import { describe, expect, it } from 'vitest';

import { LinkReserve } from '../../src/frontier/index.js';

describe('LinkReserve', () => {
    it('holds up to its capacity and reports each lost key once', () => {
        const reserve = new LinkReserve<number>(2);
        expect(reserve.hold('a', 1, 'no-room')).toBe('held');
        expect(reserve.hold('b', 2, 'dry-subtree')).toBe('held');
        expect(reserve.hold('a', 3, 'no-room')).toBe('held'); // same key: replaced, not lost
        expect(reserve.hold('c', 4, 'no-room')).toBe('lost');
        expect(reserve.hold('c', 4, 'no-room')).toBe('lost-again');
        expect(reserve.size).toBe(2);
        expect([...reserve.links('no-room')].map((l) => l.payload)).toEqual([3]);
        expect(() => new LinkReserve(-1)).toThrow(RangeError);
    });

    it('keeps the better sighting of a key held again, by the score given, and takes the newest cause', () => {
        const reserve = new LinkReserve<number>();
        const score = (n: number) => n;
        reserve.hold('a', 0.6, 'no-room', score);
        reserve.hold('a', 0.1, 'dry-subtree', score); // seen again from a weaker page: the evidence of the first stays
        expect([...reserve.links()]).toEqual([{ key: 'a', payload: 0.6, cause: 'dry-subtree' }]);
        reserve.hold('a', 0.9, 'no-room', score);
        expect(reserve.get('a')).toBe(0.9);
        reserve.hold('a', 0.2, 'no-room'); // without a score the newest replaces
        expect(reserve.get('a')).toBe(0.2);
        expect(reserve.get('b')).toBeUndefined();
    });

    it('gives back links dropped for room before those of dry subtrees, each best first, and removes them', () => {
        const reserve = new LinkReserve<number>();
        reserve.hold('dry-high', 0.9, 'dry-subtree');
        reserve.hold('room-low', 0.1, 'no-room');
        reserve.hold('room-high', 0.5, 'no-room');
        reserve.hold('dry-low', 0.2, 'dry-subtree');
        expect(reserve.takeBest(3, (score) => score).map((l) => l.key)).toEqual(['room-high', 'room-low', 'dry-high']);
        expect([...reserve.links()].map((l) => l.key)).toEqual(['dry-low']);
        expect(reserve.takeBest(0, (score) => score)).toEqual([]);
    });

    it('saves its best links and restores them', () => {
        const reserve = new LinkReserve<{ url: string }>();
        for (let i = 0; i < 10; i++) reserve.hold(`k${i}`, { url: `/p${i}` }, i % 2 ? 'no-room' : 'dry-subtree');
        const json = JSON.parse(JSON.stringify(reserve.toJSON(3, (p) => Number(p.url.slice(2)))));
        expect(reserve.size).toBe(10);
        const restored = LinkReserve.fromJSON<{ url: string }>(json);
        expect([...restored.links()].map((l) => [l.key, l.cause])).toEqual([
            ['k9', 'no-room'],
            ['k7', 'no-room'],
            ['k5', 'no-room'],
        ]);
        expect(LinkReserve.fromJSON(undefined).size).toBe(0);
    });
});
