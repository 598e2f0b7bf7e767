import { describe, expect, it } from 'vitest';

import { DocumentFrequencies, OFF_TOPIC_MIN_PAGES } from '../../src/focus/document-frequency.js';

describe('DocumentFrequencies', () => {
    it(`takes the IDF over every page until ${OFF_TOPIC_MIN_PAGES} off-topic pages, then over those alone`, () => {
        const frequencies = new DocumentFrequencies(2);
        frequencies.observe(0b01, false);
        frequencies.observe(0b01, true);
        frequencies.observe(0b11, false);
        expect(frequencies.idf(0)).toBeCloseTo(Math.log(4 / 3.5), 12); // 3 pages, unit 0 on all 3
        expect(frequencies.maxIdf()).toBeCloseTo(Math.log(4), 12);
        frequencies.observe(0b10, true);
        frequencies.observe(0b00, true); // the third off-topic page
        expect(frequencies.pages).toBe(5);
        expect(frequencies.df(0)).toBe(3);
        expect(frequencies.idf(0)).toBeCloseTo(Math.log(4 / 1.5), 12); // 3 off-topic pages, unit 0 on 1
        expect(frequencies.idf(1)).toBeCloseTo(Math.log(4 / 1.5), 12);
        expect(frequencies.maxIdf()).toBeCloseTo(Math.log(4), 12);
    });

    it('round-trips through JSON and rejects a state of another size', () => {
        const frequencies = new DocumentFrequencies(3);
        for (const [mask, off] of [[0b001, true], [0b110, false], [0b011, true], [0b000, true]] as const) frequencies.observe(mask, off);
        const copy = DocumentFrequencies.fromJSON(JSON.parse(JSON.stringify(frequencies.toJSON())), 3);
        for (let unit = 0; unit < 3; unit++) {
            expect(copy.idf(unit)).toBe(frequencies.idf(unit));
            expect(copy.df(unit)).toBe(frequencies.df(unit));
        }
        expect(() => DocumentFrequencies.fromJSON(frequencies.toJSON(), 4)).toThrow(/4 units/);
    });
});
