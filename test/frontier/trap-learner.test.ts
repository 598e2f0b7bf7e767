import { describe, expect, it } from 'vitest';
import { TrapLearner } from '../../src/frontier/index.js';
import { shapeKey } from '../../src/url/index.js';

const calendar = (month: number): string => `https://e.edu/events/calendar?month=${month}&year=2024`;
const emptyMonth = (month: number): string => `Events calendar. Month ${month} of 2024. No events this month.`;

describe('TrapLearner', () => {
    it('classifies pages as new, duplicate of the first URL, or templated', () => {
        const learner = new TrapLearner();
        expect(learner.observe('https://e.edu/a', 'About the university')).toEqual({ kind: 'new' });
        expect(learner.observe('https://e.edu/a?print=1', 'About the university')).toEqual({
            kind: 'duplicate',
            of: 'https://e.edu/a',
        });
        expect(learner.observe(calendar(1), emptyMonth(1))).toEqual({ kind: 'new' });
        expect(learner.observe(calendar(2), emptyMonth(2))).toEqual({ kind: 'templated' });
        // digits-only difference on another template is new content for that template
        expect(learner.observe('https://e.edu/news/7', emptyMonth(3))).toEqual({ kind: 'new' });
    });

    it('demotes a calendar-like template and restores it when it yields new content', () => {
        const learner = new TrapLearner();
        const key = shapeKey(calendar(1));
        learner.observe(calendar(1), emptyMonth(1));
        learner.observe(calendar(2), emptyMonth(2));
        expect(learner.isDemoted(key)).toBe(false); // only 2 fetched (minFetched 3)
        expect(learner.generation).toBe(0);

        learner.observe(calendar(3), emptyMonth(3)); // 2 of 3 repeated > 0.5
        expect(learner.isDemoted(key)).toBe(true);
        expect(learner.isDemotedUrl(calendar(12))).toBe(true);
        expect(learner.isDemotedUrl('https://e.edu/events/')).toBe(false);
        expect(learner.generation).toBe(1);
        expect(learner.traps()).toEqual([
            { shapeKey: key, shape: 'e.edu/events/calendar?month&year', fetched: 3, repeated: 2 },
        ]);

        learner.observe(calendar(4), emptyMonth(4)); // 3 of 4: still demoted, no bump
        expect(learner.generation).toBe(1);
        learner.observe(calendar(5), 'Month 5: graduation ceremony, open day and the spring concert.');
        learner.observe(calendar(6), 'Month 6: summer school starts; international orientation week.');
        expect(learner.isDemoted(key)).toBe(false); // 3 of 6 is not more than half
        expect(learner.generation).toBe(2);
        expect(learner.traps()).toEqual([]);
    });

    it('demotes a failure template (keyword_*.html) whose fetches keep failing, and restores it when its pages start to succeed', () => {
        const learner = new TrapLearner();
        const keyword = (name: string) => `https://e.org/keyword_${name}.html`;
        for (const path of ['/', '/papers.html', '/speakers.html']) learner.observe(`https://e.org${path}`, `Conference page ${path}`);
        learner.observeFailure(keyword('machine-translation'));
        learner.observeFailure(keyword('parsing'));
        expect(learner.isDemotedUrl(keyword('summarization'))).toBe(false); // 2 fetched (minFetched 3)
        const generation = learner.generation;
        learner.observeFailure(keyword('dialogue'));
        expect(learner.generation).toBe(generation + 1);
        expect(learner.isDemotedUrl(keyword('summarization'))).toBe(true);
        expect(learner.isDemoted(shapeKey(keyword('summarization')), keyword('summarization'))).toBe(true);
        expect(learner.isDemotedUrl('https://e.org/papers_by_day.html')).toBe(false);
        expect(learner.isFailingHost('https://e.org/x')).toBe(false); // 3 of 6 fetches of the host: its other parts succeed
        expect(learner.failingParts()).toEqual([{ part: 'e.org/keyword_*.html', fetched: 3, failed: 3 }]);
        for (const name of ['a', 'b', 'c']) learner.observe(keyword(name), `Papers on keyword ${name}: ${name.repeat(30)} and more`);
        expect(learner.isDemotedUrl(keyword('summarization'))).toBe(false); // 3 failed of 6
        const restored = TrapLearner.fromJSON(JSON.parse(JSON.stringify(learner.toJSON())));
        expect(restored.isDemotedUrl(keyword('summarization'))).toBe(false);
        restored.observeFailure(keyword('g'));
        expect(restored.isDemotedUrl(keyword('summarization'))).toBe(true); // 4 of 7: the counts survived the snapshot
    });

    it('demotes a host most of whose fetches fail, under every template, and stops doing so when it recovers', () => {
        const learner = new TrapLearner();
        learner.observe('https://e.org/', 'Home page');
        for (const path of ['/c/a/1', '/t/topic/2', '/releases/x/latest']) learner.observeFailure(`https://forum.e.org${path}`);
        expect(learner.isFailingHost('https://forum.e.org/u/someone')).toBe(true);
        expect(learner.isDemoted(shapeKey('https://forum.e.org/u/someone'), 'https://forum.e.org/u/someone')).toBe(true);
        expect(learner.isDemoted(shapeKey('https://forum.e.org/u/someone'))).toBe(false); // without a URL: the trap template only
        expect(learner.isFailingHost('https://e.org/about')).toBe(false);
        expect(learner.failingParts()).toContainEqual({ part: 'forum.e.org', fetched: 3, failed: 3 });
        for (const path of ['/a', '/b', '/c']) learner.observe(`https://forum.e.org${path}`, `Forum page ${path} with its own text`);
        expect(learner.isFailingHost('https://forum.e.org/u/someone')).toBe(false);
    });

    it('fails a host at its first failure when that failure is the host\'s (unreachable, 502, 504) and nothing there succeeded', () => {
        const learner = new TrapLearner();
        learner.observe('https://e.org/', 'Home page');
        const generation = learner.generation;
        learner.observeFailure('https://news.e.org/', true);
        expect(learner.generation).toBe(generation + 1);
        expect(learner.isFailingHost('https://news.e.org/2024/post')).toBe(true);
        expect(learner.failingParts()).toContainEqual({ part: 'news.e.org', fetched: 1, failed: 1 });
        // A page-level failure (a 404, a timeout) still needs three.
        learner.observeFailure('https://docs.e.org/a');
        expect(learner.isFailingHost('https://docs.e.org/b')).toBe(false);
        // A host that answered before is not condemned by one gateway error.
        learner.observe('https://shop.e.org/', 'Shop home');
        learner.observeFailure('https://shop.e.org/cart', true);
        expect(learner.isFailingHost('https://shop.e.org/item')).toBe(false);
        // It survives a snapshot, and the host is restored once a fetch there succeeds.
        const restored = TrapLearner.fromJSON(JSON.parse(JSON.stringify(learner.toJSON())));
        expect(restored.isFailingHost('https://news.e.org/2024/post')).toBe(true);
        restored.observeFailure('https://news.e.org/archive', true);
        expect(restored.isFailingHost('https://news.e.org/x')).toBe(true);
        restored.observe('https://news.e.org/latest', 'Latest news, served after all');
        expect(restored.isFailingHost('https://news.e.org/x')).toBe(false);
    });

    it('honours its options', () => {
        const learner = new TrapLearner({ minFetched: 5, repeatedShare: 0.7 });
        for (let month = 1; month <= 4; month += 1) learner.observe(calendar(month), emptyMonth(month));
        expect(learner.isDemotedUrl(calendar(1))).toBe(false); // 4 fetched < 5
        learner.observe(calendar(5), emptyMonth(5)); // 4 of 5 = 0.8 > 0.7
        expect(learner.isDemotedUrl(calendar(1))).toBe(true);
    });

    it('learns rewrite rules from duplicate pages', () => {
        const learner = new TrapLearner();
        learner.observe('https://e.edu/a', 'Page A');
        learner.observe('https://e.edu/a?print=1', 'Page A');
        learner.observe('https://e.edu/b', 'Page B');
        learner.observe('https://e.edu/b?print=1', 'Page B');
        expect(learner.rules()).toEqual([
            { host: 'e.edu', kind: 'drop-param-value', name: 'print', value: '1', support: 2 },
        ]);
        expect(learner.rewrite('https://e.edu/c?print=1')).toBe('https://e.edu/c');
    });

    it('round-trips through JSON exactly and keeps learning the same way', () => {
        const learner = new TrapLearner({ minFetched: 3 });
        for (let month = 1; month <= 3; month += 1) learner.observe(calendar(month), emptyMonth(month));
        learner.observe('https://e.edu/a', 'Page A');
        learner.observe('https://e.edu/a?print=1', 'Page A');
        const restored = TrapLearner.fromJSON(JSON.parse(JSON.stringify(learner)));
        expect(restored.toJSON()).toEqual(learner.toJSON());
        expect(restored.generation).toBe(learner.generation);
        expect(restored.traps()).toEqual(learner.traps());
        for (const target of [learner, restored]) {
            expect(target.observe(calendar(4), emptyMonth(4))).toEqual({ kind: 'templated' });
            expect(target.observe('https://e.edu/b', 'Page A')).toEqual({ kind: 'duplicate', of: 'https://e.edu/a' });
        }
        expect(restored.toJSON()).toEqual(learner.toJSON());
    });
});
