import { describe, expect, it } from 'vitest';

import { DEMOTED_TEMPLATE_FACTOR, Focus, FrontierRanking, UNPROVEN_SCORE } from '../../src/focus/index.js';
import { TrapLearner } from '../../src/frontier/index.js';
import { shapeKey } from '../../src/url/index.js';

const SEED = 'https://www.e.edu/';

function linkOf(focus: Focus, url: string, anchor: string) {
    const { signal } = focus.scoreLink({ url, anchor, context: '', depth: 1 }, { url: SEED, relevance: 0, isHub: false });
    return { url, shape: shapeKey(url), signal };
}

describe('FrontierRanking', () => {
    it("ranks a link by its score under the current model, and 0 without focus or signal", () => {
        const focus = new Focus('visa scholarship', { seedUrls: [SEED] });
        const ranking = new FrontierRanking(focus, new TrapLearner());
        const link = linkOf(focus, 'https://www.e.edu/visa/apply', 'Visa application');
        expect(ranking.rankOf(link)).toBeCloseTo(focus.score(link.signal));
        expect(ranking.evidenceRankOf(link)).toBeCloseTo(focus.evidenceScore(link.signal));
        expect(new FrontierRanking(null, new TrapLearner()).rankOf(link)).toBe(0);
        expect(ranking.rankOf({ ...link, signal: null })).toBe(0);
    });

    it('keeps a hundredth of a demoted template\'s score, but no less than a link without evidence', () => {
        const traps = { isFailingUrl: () => false, isDemoted: (shape: string) => shape === 'trap', generation: 0 } as unknown as TrapLearner;
        const ranking = new FrontierRanking(null, traps);
        expect(ranking.adjust(0.5, 'trap', 'https://www.e.edu/cal?d=1')).toBeCloseTo(0.5 * DEMOTED_TEMPLATE_FACTOR);
        expect(ranking.adjust(0, 'trap', 'https://www.e.edu/cal?d=1')).toBe(UNPROVEN_SCORE);
        expect(ranking.adjust(0.5, 'page', 'https://www.e.edu/a')).toBe(0.5);
    });

    it('ranks failing URLs last, and links without evidence by what their directory revealed', () => {
        const traps = { isFailingUrl: (url: string) => url.includes('/down/'), isDemoted: () => false, generation: 0 } as unknown as TrapLearner;
        const ranking = new FrontierRanking(null, traps);
        expect(ranking.adjust(0.9, 'x', 'https://www.e.edu/down/a')).toBe(0);
        ranking.noteRevealed('https://www.e.edu/rich/index.html', 40);
        ranking.noteRevealed('https://www.e.edu/poor/index.html', 0);
        const rich = ranking.adjust(0, 'x', 'https://www.e.edu/rich/b');
        const poor = ranking.adjust(0, 'x', 'https://www.e.edu/poor/b');
        expect(rich).toBeGreaterThan(poor);
        expect(poor).toBeGreaterThanOrEqual(UNPROVEN_SCORE);
        expect(rich).toBeLessThan(1e-6); // still below any link with evidence
        const restored = new FrontierRanking(null, traps, JSON.parse(JSON.stringify(ranking.toJSON())));
        expect(restored.adjust(0, 'x', 'https://www.e.edu/rich/b')).toBe(rich);
    });
});
