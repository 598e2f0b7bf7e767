import { describe, expect, it } from 'vitest';

import { costOrder, roundRatios } from '../../bench/focus/cost.js';

describe('cost bench rounds', () => {
    it('runs every variant once per round, reversing the order every other round', () => {
        expect(costOrder(3).map(({ round, variant }) => `${round}:${variant}`)).toEqual([
            '0:playwright-list',
            '0:focus-list',
            '0:focus-list-no-quiet',
            '1:focus-list-no-quiet',
            '1:focus-list',
            '1:playwright-list',
            '2:playwright-list',
            '2:focus-list',
            '2:focus-list-no-quiet',
        ]);
    });

    it('divides each round by its own plain run and takes the median', () => {
        const seconds = { 'playwright-list': [50, 60, 40], 'focus-list': [55, 60, 48], 'focus-list-no-quiet': [50, 59, 41] };
        const { perRound, median } = roundRatios(seconds);
        expect(perRound.map((r) => r.toFixed(2))).toEqual(['1.10', '1.00', '1.20']);
        expect(median).toBeCloseTo(1.1);
        expect(roundRatios({ ...seconds, 'focus-list': [55, 66], 'playwright-list': [50, 60] }).median).toBeCloseTo(1.1);
        expect(roundRatios({ ...seconds, 'focus-list': [55, 72], 'playwright-list': [50, 60] }).median).toBeCloseTo(1.15); // even count: the mean of the middle two
    });
});
