import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { Harvest, subtree } from '../../src/focus/harvest.js';
import { wilson } from '../../src/stat/index.js';

function observeMany(harvest: Harvest, part: string, pages: number, isHit: (i: number) => boolean = () => false): void {
    for (let i = 0; i < pages; i++) harvest.observe(part, isHit(i));
}

describe('Harvest', () => {
    it('drops a part that never pays off once the evidence is clear', () => {
        const harvest = new Harvest();
        observeMany(harvest, 'lib', 10, (i) => i % 2 === 0);
        observeMany(harvest, 'journals', 3);
        expect(harvest.isDry('journals')).toBe(false);
        observeMany(harvest, 'journals', 12);
        expect(harvest.isDry('journals')).toBe(true);
        expect(harvest.isDry('lib')).toBe(false);
        expect(harvest.isProven('lib')).toBe(true);
        expect(harvest.isProven('journals')).toBe(false);
    });

    it('does not dry out parts whose yield is ordinary', () => {
        const harvest = new Harvest();
        for (let i = 0; i < 40; i++) {
            harvest.observe('study', i % 5 === 0);
            harvest.observe('other', i % 4 === 0);
        }
        expect(harvest.isDry('study')).toBe(false);
        expect(harvest.isDry('other')).toBe(false);
    });

    it('declares a zero-yield part dry at 13 pages against 5 hits in 10 (worked numbers of §7.1)', () => {
        expect(wilson(5, 10)[0]).toBeCloseTo(0.2366, 4);
        expect(wilson(0, 3)[1]).toBeCloseTo(0.5615, 4);
        expect(wilson(0, 13)[1]).toBeCloseTo(3.8415 / 16.8415, 4);

        const harvest = new Harvest();
        observeMany(harvest, 'rest', 10, (i) => i < 5);
        observeMany(harvest, 'zero', 12);
        expect(harvest.isDry('zero')).toBe(false);
        harvest.observe('zero', false);
        expect(harvest.isDry('zero')).toBe(true);
    });

    it('proves a productive part against a lone seed page by comparing lower bounds', () => {
        const harvest = new Harvest();
        harvest.observe('seed', true);
        observeMany(harvest, 'study', 4, () => true);
        // lower(4/4) = 0.51 beats lower(1/1) = 0.21, although the seed's upper bound is 1.
        expect(harvest.isProven('study')).toBe(true);
        expect(harvest.isProven('seed')).toBe(false);
    });

    it('gives no verdict on a part without pages', () => {
        const harvest = new Harvest();
        observeMany(harvest, 'lib', 10, () => true);
        expect(harvest.isDry('unseen')).toBe(false);
        expect(harvest.isProven('unseen')).toBe(false);
        expect(harvest.stats('unseen')).toEqual({ pages: 0, hits: 0 });
    });

    it('waits longer for a verdict with a smaller error rate', () => {
        const harvest = new Harvest(0.001);
        observeMany(harvest, 'rest', 10, (i) => i < 5);
        observeMany(harvest, 'zero', 13);
        expect(harvest.isDry('zero')).toBe(false);
        observeMany(harvest, 'zero', 60);
        expect(harvest.isDry('zero')).toBe(true);
    });

    it('rejects an error rate outside (0, 1)', () => {
        expect(() => new Harvest(0)).toThrow(RangeError);
        expect(() => new Harvest(1.5)).toThrow(RangeError);
    });

    it('reports counts per part and in total', () => {
        const harvest = new Harvest();
        harvest.observe('a', true);
        harvest.observe('b', false);
        harvest.observe('a', false);
        expect(harvest.stats('a')).toEqual({ pages: 2, hits: 1 });
        expect(harvest.total).toEqual({ pages: 3, hits: 1 });
        expect([...harvest.parts()]).toEqual([
            ['a', { pages: 2, hits: 1 }],
            ['b', { pages: 1, hits: 0 }],
        ]);
    });

    it('continues identically after a JSON round trip', () => {
        const original = new Harvest(0.01);
        observeMany(original, 'lib', 10, (i) => i % 2 === 0);
        observeMany(original, 'journals', 9);
        const restored = Harvest.fromJSON(JSON.parse(JSON.stringify(original)));
        for (const harvest of [original, restored]) observeMany(harvest, 'journals', 30);
        expect(restored.toJSON()).toEqual(original.toJSON());
        for (const part of ['lib', 'journals']) {
            expect(restored.isDry(part)).toBe(original.isDry(part));
            expect(restored.isProven(part)).toBe(original.isProven(part));
        }
        expect(restored.total).toEqual(original.total);
    });

    it('refuses malformed JSON with a hint', () => {
        expect(() => Harvest.fromJSON({ delta: 0.05, parts: [['a', 1, 2]] })).toThrow(/0 ≤ hits ≤ pages/);
        expect(() => Harvest.fromJSON({} as never)).toThrow(/Harvest#toJSON/);
    });

    it('never calls a part both dry and proven', () => {
        const observation = fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.boolean());
        fc.assert(
            fc.property(fc.array(observation, { maxLength: 300 }), fc.constantFrom(0.001, 0.05, 0.2), (observations, delta) => {
                const harvest = new Harvest(delta);
                for (const [part, hit] of observations) {
                    harvest.observe(part, hit);
                    for (const probe of ['a', 'b', 'c', 'd']) {
                        expect(harvest.isDry(probe) && harvest.isProven(probe)).toBe(false);
                    }
                }
            }),
        );
    });
});

describe('wilson, as Harvest uses it', () => {
    it('uses the two-sided delta: δ = 0.05 matches the classic z = 1.96 interval', () => {
        const classic = (hits: number, n: number): [number, number] => {
            const z = 1.96;
            const p = hits / n;
            const z2 = z * z;
            const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
            const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
            return [Math.max(0, centre - half), Math.min(1, centre + half)];
        };
        for (const [hits, n] of [[0, 1], [3, 4], [5, 40], [40, 40]] as const) {
            const [lower, upper] = wilson(hits, n);
            const [classicLower, classicUpper] = classic(hits, n);
            expect(Math.abs(lower - classicLower)).toBeLessThan(1e-4);
            expect(Math.abs(upper - classicUpper)).toBeLessThan(1e-4);
        }
        expect(wilson(0, 0)).toEqual([0, 1]);
    });
});

describe('subtree', () => {
    const seed = 'e.edu';

    it('follows parent directories on the seed host, skipping the language segment, two levels deep', () => {
        expect(subtree(seed, 'https://journals.e.edu/j1/issue/current')).toBe('journals.e.edu');
        expect(subtree(seed, 'https://www.e.edu/en/research-highlight/story-1')).toBe('e.edu/research-highlight');
        expect(subtree(seed, 'https://e.edu/en/education/programmes/x/y')).toBe('e.edu/education/programmes');
        expect(subtree(seed, 'https://e.edu/about')).toBe('e.edu/');
    });

    it('treats host case and a leading www. as the same host', () => {
        expect(subtree(seed, 'https://WWW.E.EDU/study/intl/visa')).toBe('e.edu/study/intl');
    });
});
