import { describe, expect, it } from 'vitest';

import { InFlightRequests } from '../../src/frontier/index.js';
import type { Flight } from '../../src/frontier/index.js';

const flight = (id: string, host = 'a.org'): Flight<{ id: string }, string> => ({ request: { id }, entry: id, host });

describe('InFlightRequests', () => {
    it('tracks requests from hand-out to their end, and retries first-in-first-out unless sent to the front', () => {
        const flights = new InFlightRequests<{ id: string }, string>();
        expect(flights.isIdle).toBe(true);
        flights.start(flight('1'), 100);
        flights.start(flight('2'), 100);
        expect([flights.flying, flights.waiting]).toEqual([2, 0]);
        expect(flights.get('1')?.takenAt).toBe(100);
        const landed = flights.land('1')!;
        expect(flights.land('1')).toBeUndefined(); // once
        flights.retry(landed);
        flights.retry(flight('0'), true);
        expect(flights.retries().map((f) => f.entry)).toEqual(['0', '1']);
        expect(flights.all().map((f) => f.entry)).toEqual(['0', '1', '2']);
        expect(flights.takeRetry((f) => f.entry !== '0')?.entry).toBe('1');
        expect(flights.hasRetry((f) => f.entry === '1')).toBe(false);
        expect(flights.dropRetry('0')?.entry).toBe('0');
        expect(flights.dropRetry('0')).toBeUndefined();
        expect(flights.waiting).toBe(0);
    });

    it('reclaims only the requests held longer than the limit, ahead of every other retry', () => {
        const flights = new InFlightRequests<{ id: string }, string>();
        flights.start(flight('old'), 0);
        flights.start(flight('new'), 9_000);
        flights.retry(flight('waiting'));
        const stalled = flights.reclaimOlderThan(5_000, 10_000);
        expect(stalled.map((f) => f.entry)).toEqual(['old']);
        expect(flights.retries().map((f) => f.entry)).toEqual(['old', 'waiting']);
        expect([flights.flying, flights.get('new')?.entry]).toEqual([1, 'new']);
    });

    it('counts, for each request in flight, the requests handed out after it that have ended: how far it was overtaken', () => {
        const flights = new InFlightRequests<{ id: string }, string>();
        for (const id of ['slow', 'a', 'b', 'c']) flights.start(flight(id), 0);
        flights.land('a');
        flights.land('c');
        expect(flights.get('slow')?.overtaken).toBe(2);
        expect(flights.get('b')?.overtaken).toBe(1); // c was handed out after b; a before it
        flights.land('slow');
        expect(flights.get('b')?.overtaken).toBe(1); // an earlier request ending does not overtake it
        // Handed out again (a retry), a request counts from its new hand-out.
        flights.start(flight('a'), 5);
        flights.land('b');
        expect(flights.get('a')?.overtaken).toBe(0);
        expect([...flights.flyingNow()].map((f) => f.entry)).toEqual(['a']);
    });
});
