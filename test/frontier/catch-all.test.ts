import { describe, expect, it } from 'vitest';
import { CATCH_ALL_PLACES, CatchAllPages } from '../../src/frontier/catch-all.js';
import { TrapLearner } from '../../src/frontier/trap-learner.js';

const NOT_FOUND = 'Page not found. Sorry, the page you asked for does not exist.';

describe('CatchAllPages', () => {
    it(`knows a text as the catch-all page once it was fetched in ${CATCH_ALL_PLACES} places, and names the earlier ones`, () => {
        const pages = new CatchAllPages();
        expect(pages.observeRepeat(7, 'https://e.org/news/about/team.html', 'https://e.org/news/files/a.pdf.html')).toEqual([]);
        expect(pages.isCatchAll(7)).toBe(false);
        expect(pages.observeRepeat(7, 'https://e.org/downloads/tool/home.html', 'https://e.org/news/files/a.pdf.html')).toEqual([
            'https://e.org/news/files/a.pdf.html',
            'https://e.org/news/about/team.html',
        ]);
        expect(pages.isCatchAll(7)).toBe(true);
        expect(pages.observeRepeat(7, 'https://e.org/x/y.html', 'https://e.org/news/files/a.pdf.html')).toEqual([]); // known already
    });

    it('does not take the spellings of one page for a catch-all: they stay in two places', () => {
        const pages = new CatchAllPages();
        for (const spelling of ['https://e.org/a/index.html', 'https://e.org/a/?print=1', 'https://e.org/a/index.html?lang=en', 'https://e.org/a/home.html']) {
            pages.observeRepeat(9, spelling, 'https://e.org/a/');
        }
        expect(pages.isCatchAll(9)).toBe(false);
    });

    it('round-trips through JSON', () => {
        const pages = new CatchAllPages();
        pages.observeRepeat(1, 'https://e.org/b/x', 'https://e.org/a/x');
        const restored = CatchAllPages.fromJSON(JSON.parse(JSON.stringify(pages.toJSON())));
        expect(restored.observeRepeat(1, 'https://e.org/c/x', 'https://e.org/a/x')).toHaveLength(2);
        expect(CatchAllPages.fromJSON(undefined).isCatchAll(1)).toBe(false);
    });
});

describe('TrapLearner and soft 404s', () => {
    it('classifies the catch-all page as a soft 404, demotes the directory that produced it, and restores it when pages there succeed', () => {
        const learner = new TrapLearner();
        learner.observe('https://e.org/', 'The home page of e.org');
        const broken = (name: string) => `https://e.org/guide/3/${name}-notes.html`;
        expect(learner.observe(broken('optics'), NOT_FOUND).kind).toBe('new');
        expect(learner.observe(broken('lenses'), NOT_FOUND).kind).toBe('duplicate');
        const generation = learner.generation;
        expect(learner.observe(broken('mirrors'), NOT_FOUND)).toEqual({ kind: 'soft-404', of: broken('optics') });
        expect(learner.generation).toBeGreaterThan(generation);
        expect(learner.isDemotedUrl(broken('prisms'))).toBe(true);
        expect(learner.isDemotedUrl('https://e.org/guide/4')).toBe(false);
        expect(learner.isFailingHost('https://e.org/x')).toBe(false); // the host answers
        expect(learner.failingParts()).toContainEqual({ part: 'e.org/guide/#/', fetched: 3, failed: 3 });
        const restored = TrapLearner.fromJSON(JSON.parse(JSON.stringify(learner.toJSON())));
        expect(restored.observe('https://e.org/guide/5/other-notes.html', NOT_FOUND).kind).toBe('soft-404');
        for (const name of ['a', 'b', 'c', 'd']) restored.observe(broken(name), `Real notes on ${name}: ${name.repeat(20)}`);
        expect(restored.isDemotedUrl(broken('prisms'))).toBe(false); // 4 failed of 8: no longer most
    });
});
