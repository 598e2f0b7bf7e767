import { describe, expect, it } from 'vitest';
import { RewriteRuleLearner, WHOLE_PARAM_VALUES, requiredConfirmations, ruleSupport } from '../../src/frontier/index.js';

describe('rule support (k*)', () => {
    it('is 2 with the shipped prior p0 = √δ, whatever δ', () => {
        expect(ruleSupport()).toBe(2);
        expect(ruleSupport(0.01)).toBe(2);
        expect(new RewriteRuleLearner().support).toBe(2);
    });

    it('is the smallest k with p0^k ≤ δ', () => {
        expect(requiredConfirmations(0.5, 0.05)).toBe(5); // 0.5^4 = 0.0625 > 0.05 ≥ 0.5^5
        expect(requiredConfirmations(0.01, 0.05)).toBe(1);
        expect(requiredConfirmations(0.2, 0.04)).toBe(2); // boundary: 0.2² = 0.04 exactly
    });

    it('explains invalid arguments', () => {
        expect(() => requiredConfirmations(1, 0.05)).toThrow(/p0 must lie strictly between 0 and 1/);
        expect(() => ruleSupport(0)).toThrow(/delta must be in \(0, 1\)/);
    });
});

describe('RewriteRuleLearner', () => {
    it('activates a parameter-value rule only after two distinct confirming pairs', () => {
        const learner = new RewriteRuleLearner();
        learner.observeDuplicate('https://e.com/a?print=1', 'https://e.com/a');
        // the same pair again (either order) is not new evidence
        learner.observeDuplicate('https://e.com/a', 'https://e.com/a?print=1');
        expect(learner.rules()).toEqual([]);
        expect(learner.rewrite('https://e.com/c?print=1')).toBe('https://e.com/c?print=1');

        learner.observeDuplicate('https://e.com/b?x=2&print=1', 'https://e.com/b?x=2');
        expect(learner.rules()).toEqual([
            { host: 'e.com', kind: 'drop-param-value', name: 'print', value: '1', support: 2 },
        ]);
        expect(learner.rewrite('https://e.com/c?x=2&print=1&y=3')).toBe('https://e.com/c?x=2&y=3');
        expect(learner.rewrite('https://e.com/c?print=1')).toBe('https://e.com/c');
        // only the confirmed value: print=2 may select another page
        expect(learner.rewrite('https://e.com/c?print=2')).toBe('https://e.com/c?print=2');
    });

    it('drops the whole parameter once two different values are confirmed', () => {
        const learner = new RewriteRuleLearner();
        const confirm = (value: string): void => {
            learner.observeDuplicate(`https://e.com/a?ref=${value}`, 'https://e.com/a');
            learner.observeDuplicate(`https://e.com/b?ref=${value}`, 'https://e.com/b');
        };
        confirm('nav');
        expect(learner.rewrite('https://e.com/x?ref=footer')).toBe('https://e.com/x?ref=footer');
        confirm('footer');
        expect(WHOLE_PARAM_VALUES).toBe(2);
        expect(learner.rules()).toEqual([{ host: 'e.com', kind: 'drop-param', name: 'ref', support: 4 }]);
        expect(learner.rewrite('https://e.com/x?ref=sidebar&id=7')).toBe('https://e.com/x?id=7');
    });

    it('learns that a trailing segment names its directory', () => {
        const learner = new RewriteRuleLearner();
        learner.observeDuplicate('https://e.com/dir/index.html', 'https://e.com/dir/');
        learner.observeDuplicate('https://e.com/other/', 'https://e.com/other/index.html');
        expect(learner.rules()).toEqual([
            { host: 'e.com', kind: 'drop-trailing-segment', segment: 'index.html', support: 2 },
        ]);
        expect(learner.rewrite('https://e.com/x/index.html?q=1')).toBe('https://e.com/x/?q=1');
        expect(learner.rewrite('https://e.com/index.html')).toBe('https://e.com/');
        expect(learner.rewrite('https://e.com/x/index.htm')).toBe('https://e.com/x/index.htm');
    });

    it("learns that a page's name may go without its file extension: one dedup form, fetched as linked", () => {
        const learner = new RewriteRuleLearner();
        learner.observeDuplicate('https://e.com/partners/acme.html', 'https://e.com/partners/acme');
        expect(learner.pageForm('https://e.com/partners/zenith.html')).toBe('https://e.com/partners/zenith.html');
        learner.observeDuplicate('https://e.com/about/team', 'https://e.com/about/team.HTML');
        expect(learner.rules()).toEqual([{ host: 'e.com', kind: 'drop-extension', extension: '.html', support: 2 }]);
        expect(learner.pageForm('https://e.com/partners/zenith.html')).toBe('https://e.com/partners/zenith');
        expect(learner.pageForm('https://e.com/partners/zenith.html?lang=en')).toBe('https://e.com/partners/zenith?lang=en');
        // Two names are one page, but not every name answers without its extension: URLs are not rewritten.
        expect(learner.rewrite('https://e.com/partners/zenith.html')).toBe('https://e.com/partners/zenith.html');
        expect(learner.rewrite('https://e.com/dir/index.html')).toBe('https://e.com/dir/index.html');
        // only the confirmed extension, only on the page's name, never a bare extension or a directory
        expect(learner.pageForm('https://e.com/report.pdf')).toBe('https://e.com/report.pdf');
        expect(learner.pageForm('https://e.com/v1.html/page')).toBe('https://e.com/v1.html/page');
        expect(learner.pageForm('https://e.com/dir/.html')).toBe('https://e.com/dir/.html');
        expect(learner.pageForm('https://f.com/partners/zenith.html')).toBe('https://f.com/partners/zenith.html');
    });

    it('pairs a name with its extension only when nothing else differs', () => {
        const learner = new RewriteRuleLearner();
        learner.observeDuplicate('https://e.com/a/b.html', 'https://e.com/a/bc');
        learner.observeDuplicate('https://e.com/a/b.tar.gz', 'https://e.com/a/b');
        learner.observeDuplicate('https://e.com/a/b.html', 'https://e.com/a/b/');
        learner.observeDuplicate('https://e.com/a/b.html?x=1', 'https://e.com/a/b');
        expect(learner.toJSON().candidates).toEqual([]);
    });

    it('applies a trailing-segment rule before an extension rule', () => {
        const learner = RewriteRuleLearner.fromJSON({
            delta: 0.05,
            candidates: [
                { host: 'e.com', kind: 'drop-trailing-segment', segment: 'index.html', pairs: [['https://e.com/a/', 'https://e.com/a/index.html'], ['https://e.com/b/', 'https://e.com/b/index.html']] },
                { host: 'e.com', kind: 'drop-extension', extension: '.html', pairs: [['https://e.com/c', 'https://e.com/c.html'], ['https://e.com/d', 'https://e.com/d.html']] },
            ],
        });
        expect(learner.pageForm('https://e.com/x/index.html')).toBe('https://e.com/x/');
        expect(learner.pageForm('https://e.com/x/page.html')).toBe('https://e.com/x/page');
        expect(learner.rewrite('https://e.com/x/page.html')).toBe('https://e.com/x/page.html');
    });

    it('keeps rules to their host and ignores pairs that differ in more than one way', () => {
        const learner = new RewriteRuleLearner();
        learner.observeDuplicate('https://e.com/a?print=1', 'https://e.com/a');
        learner.observeDuplicate('https://e.com/b?print=1', 'https://e.com/b');
        expect(learner.rewrite('https://f.com/a?print=1')).toBe('https://f.com/a?print=1');
        // cross-host, two extra parameters, different paths: no candidates
        learner.observeDuplicate('https://f.com/a?print=1', 'https://g.com/a');
        learner.observeDuplicate('https://f.com/a?print=1&x=1', 'https://f.com/a');
        learner.observeDuplicate('https://f.com/a/b/c', 'https://f.com/a');
        learner.observeDuplicate('https://f.com/a?print=1&x=1', 'https://f.com/b?x=1');
        expect(learner.rules().map((r) => r.host)).toEqual(['e.com']);
        expect(learner.toJSON().candidates).toHaveLength(1);
    });

    it('compares cleaned URLs, so trackers do not make candidates', () => {
        const learner = new RewriteRuleLearner();
        learner.observeDuplicate('https://e.com/a?utm_source=x', 'https://e.com/a');
        expect(learner.toJSON().candidates).toEqual([]);
    });

    it('round-trips through JSON with the same rules and evidence', () => {
        const learner = new RewriteRuleLearner();
        learner.observeDuplicate('https://e.com/a?print=1', 'https://e.com/a');
        learner.observeDuplicate('https://e.com/b?print=1', 'https://e.com/b');
        learner.observeDuplicate('https://e.com/a/index.html', 'https://e.com/a/');
        const restored = RewriteRuleLearner.fromJSON(JSON.parse(JSON.stringify(learner)));
        expect(restored.toJSON()).toEqual(learner.toJSON());
        expect(restored.rules()).toEqual(learner.rules());
        // the pending trailing-segment candidate keeps its one pair
        restored.observeDuplicate('https://e.com/b/index.html', 'https://e.com/b/');
        expect(restored.rewrite('https://e.com/c/index.html?print=1')).toBe('https://e.com/c/');
    });
});
