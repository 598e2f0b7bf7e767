import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { TrapLearner } from '../../src/frontier/index.js';
import { NEAR_DUPLICATE_MIN_WORDS, NearDuplicateIndex, hammingDistance, simHash } from '../../src/frontier/near-duplicate.js';

const VOCABULARY = 'telescope mirror lens focus aperture eyepiece mount tripod filter star planet moon orbit comet nebula galaxy cluster shadow light dark'.split(' ');

/** A deterministic text of `words` words drawn from the vocabulary by a seed. */
function text(seed: number, words = 300): string {
    let state = seed;
    return Array.from({ length: words }, () => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return VOCABULARY[state % VOCABULARY.length];
    }).join(' ');
}

describe('simHash', () => {
    it('is the same for the same text and ignores case and Markdown link targets', () => {
        const body = text(1);
        expect(simHash(body)).toBe(simHash(body.toUpperCase()));
        expect(simHash(`${body} [release notes](https://e.edu/1.0?id=123)`)).toBe(simHash(`${body} [release notes](https://e.edu/2.0?id=456)`));
    });

    it('puts a one-date edit of a long text within 3 bits, and unrelated texts far apart', () => {
        const release = `Firefox release notes, first offered on February 10, 2012. ${text(7, 500)}`;
        const patch = release.replace('February 10', 'February 16');
        expect(hammingDistance(simHash(release)!, simHash(patch)!)).toBeLessThanOrEqual(3);
        expect(hammingDistance(simHash(text(1))!, simHash(text(2))!)).toBeGreaterThan(3);
    });

    it(`gives no SimHash to texts under ${NEAR_DUPLICATE_MIN_WORDS} words`, () => {
        expect(simHash(text(3, NEAR_DUPLICATE_MIN_WORDS - 1))).toBeNull();
        expect(simHash(text(3, NEAR_DUPLICATE_MIN_WORDS))).toMatch(/^[0-9a-f]{16}$/);
    });
});

describe('NearDuplicateIndex', () => {
    it('finds a stored page within 3 bits, not one 4 bits away, and survives JSON', () => {
        const index = new NearDuplicateIndex();
        index.add('0123456789abcdef', 'https://e.edu/a');
        expect(index.find('0123456789abcdef')).toBe('https://e.edu/a');
        expect(index.find('0123456789abcde8')).toBe('https://e.edu/a'); // f→8: 3 bits
        expect(index.find('f123456789abcdef')).toBeUndefined(); // 0→f: 4 bits
        const restored = NearDuplicateIndex.fromJSON(JSON.parse(JSON.stringify(index.toJSON())));
        expect(restored.find('0123456789abcdee')).toBe('https://e.edu/a');
        expect(restored.size).toBe(1);
    });

    it('agrees with a brute-force scan (pigeonhole over four 16-bit bands)', () => {
        const hash = fc.stringMatching(/^[0-9a-f]{16}$/);
        fc.assert(
            fc.property(fc.array(hash, { maxLength: 30 }), hash, fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 4 }), (stored, base, flips) => {
                const index = new NearDuplicateIndex();
                stored.forEach((h, i) => index.add(h, `u${i}`));
                let probe = BigInt(`0x${base}`);
                for (const bit of flips) probe ^= 1n << BigInt(bit);
                const query = probe.toString(16).padStart(16, '0');
                const near = stored.filter((h) => hammingDistance(h, query) <= 3);
                const found = index.find(query);
                if (near.length === 0) expect(found).toBeUndefined();
                else expect(near.map((h) => `u${stored.indexOf(h)}`)).toContain(found);
            }),
        );
    });
});

describe('TrapLearner.markRepeated', () => {
    it('counts a near-duplicate as repeated content, so its template is demoted', () => {
        const learner = new TrapLearner();
        for (let v = 1; v <= 4; v++) {
            const url = `https://e.edu/notes/${v}.0/release`;
            const seen = learner.observe(url, `Release ${'x'.repeat(v)} of the browser with a different date each time.`);
            expect(seen.kind).toBe('new');
            if (v > 1) learner.markRepeated(url); // the caller's SimHash found the first release
        }
        expect(learner.traps().map((t) => t.repeated)).toEqual([3]);
        expect(learner.isDemotedUrl('https://e.edu/notes/5.0/release')).toBe(true);
    });

    it('never counts a page twice', () => {
        const learner = new TrapLearner();
        learner.observe('https://e.edu/a/1', 'same text');
        learner.markRepeated('https://e.edu/a/1');
        learner.markRepeated('https://e.edu/a/1');
        expect(learner.toJSON().templates[0]).toMatchObject({ fetched: 1, repeated: 1 });
    });
});
