import { describe, expect, it } from 'vitest';

import { SkipTally } from '../../src/frontier/skip-tally.js';

describe('SkipTally', () => {
    it('counts by reason, largest first, and keeps the first examples of each, cut to a readable length', () => {
        const tally = new SkipTally(2);
        for (const url of ['https://e.org/a', 'https://e.org/b', 'https://e.org/c']) tally.count('duplicate-url', url);
        tally.count('out-of-scope', `https://x.org/${'q'.repeat(400)}`);
        expect(tally.counts()).toEqual({ 'duplicate-url': 3, 'out-of-scope': 1 });
        expect(Object.keys(tally.counts())).toEqual(['duplicate-url', 'out-of-scope']);
        expect(tally.samples('duplicate-url')).toEqual(['https://e.org/a', 'https://e.org/b']);
        expect(tally.samples('out-of-scope')[0]).toHaveLength(301);
        expect(tally.samples('out-of-scope')[0]!.endsWith('…')).toBe(true);
        expect(tally.samples('evicted')).toEqual([]);
    });

    it('adds counts without examples (another worker\'s), and round-trips through JSON', () => {
        const tally = new SkipTally();
        tally.count('evicted', 'https://e.org/a');
        tally.add({ evicted: 4, 'frontier-full': 2 });
        expect(tally.counts()).toEqual({ evicted: 5, 'frontier-full': 2 });
        const copy = SkipTally.fromJSON(JSON.parse(JSON.stringify(tally.toJSON())), 20);
        expect(copy.counts()).toEqual(tally.counts());
        expect(copy.samples()).toEqual(tally.samples());
    });
});
