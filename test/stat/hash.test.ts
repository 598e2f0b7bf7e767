import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashHex, hashLanes } from '../../src/stat/index.js';

describe('hashLanes / hashHex', () => {
    it('is deterministic and gives two unsigned 32-bit lanes', () => {
        fc.assert(
            fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
                const [h1, h2] = hashLanes(text);
                expect(hashLanes(text)).toEqual([h1, h2]);
                for (const lane of [h1, h2]) {
                    expect(Number.isInteger(lane)).toBe(true);
                    expect(lane).toBeGreaterThanOrEqual(0);
                    expect(lane).toBeLessThan(2 ** 32);
                }
            }),
        );
    });

    it('writes both lanes as 16 hex digits, high lane first', () => {
        const [h1, h2] = hashLanes('e.edu/events/#/#?month&year');
        const hex = hashHex('e.edu/events/#/#?month&year');
        expect(hex).toMatch(/^[0-9a-f]{16}$/);
        expect(hex).toBe(h2.toString(16).padStart(8, '0') + h1.toString(16).padStart(8, '0'));
        expect(hashHex('')).toMatch(/^[0-9a-f]{16}$/);
    });

    it('skips only ASCII digits with ignoreDigits', () => {
        expect(hashLanes('May 2024, page 3', true)).toEqual(hashLanes('May , page ', false));
        expect(hashLanes('May 2024', true)).not.toEqual(hashLanes('June 2024', true));
        expect(hashLanes('٣', true)).not.toEqual(hashLanes('', true)); // an Arabic-Indic digit is not ASCII
    });

    it('does not collide on 200,000 distinct URL templates', () => {
        const keys = new Set<string>();
        for (let i = 0; i < 200_000; i++) keys.add(hashHex(`host${i % 97}.example.edu/section-${i}/#?page`));
        expect(keys.size).toBe(200_000);
    });

    it('tells apart strings that differ in one character or in order', () => {
        fc.assert(
            fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.nat(), (text, at) => {
                const i = at % text.length;
                const changed = text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 1) + text.slice(i + 1);
                expect(hashHex(changed)).not.toBe(hashHex(text));
            }),
        );
        expect(hashHex('ab')).not.toBe(hashHex('ba'));
    });
});
