import { describe, expect, it } from 'vitest';

import { HostSchedule } from '../../src/frontier/host-schedule.js';

describe('HostSchedule', () => {
    it('holds a host at its in-flight limit and frees it as requests end', () => {
        const hosts = new HostSchedule(2);
        hosts.answered('a');
        hosts.start('a', 0);
        expect(hosts.isFree('a', 0)).toBe(true);
        hosts.start('a', 0);
        expect(hosts.isFull('a')).toBe(true);
        expect(hosts.isFree('a', 0)).toBe(false);
        expect(hosts.isFree('b', 0)).toBe(true); // other hosts are unaffected
        hosts.finish('a');
        expect(hosts.inFlight('a')).toBe(1);
        hosts.finish('a');
        hosts.finish('a'); // an extra finish never goes below zero
        expect(hosts.inFlight('a')).toBe(0);
    });

    it('spaces requests by their delay, and a back-off only ever lengthens a wait', () => {
        const hosts = new HostSchedule(4);
        hosts.start('a', 1000, 500);
        hosts.finish('a');
        expect(hosts.isFree('a', 1499)).toBe(false);
        expect(hosts.isFree('a', 1500)).toBe(true);
        hosts.holdUntil('a', 5000);
        hosts.holdUntil('a', 2000);
        expect(hosts.allowedAt('a')).toBe(5000);
        // the watchdog's last sign of life: a wait that has begun counts up to now
        expect(hosts.latestWait(100, 3000)).toBe(3000);
        expect(hosts.latestWait(100, 6000)).toBe(5000);
    });

    it('gives a host one request at a time until one of its requests has ended', () => {
        const hosts = new HostSchedule(4);
        hosts.start('new', 0);
        expect(hosts.isFull('new')).toBe(true); // a host that may be down risks one page, not four
        hosts.finish('new');
        hosts.answered('new');
        hosts.start('new', 0);
        hosts.start('new', 0);
        expect(hosts.isFull('new')).toBe(false);
        const wider = new HostSchedule(4, 2);
        wider.start('b', 0);
        expect(wider.isFull('b')).toBe(false);
        wider.start('b', 0);
        expect(wider.isFull('b')).toBe(true);
    });

    it('refuses a limit below one request', () => {
        expect(() => new HostSchedule(0)).toThrow(/maxInFlight ≥ 1/);
        expect(() => new HostSchedule(4, 0)).toThrow(/maxInFlightUntilAnswered ≥ 1/);
    });
});
