import { describe, expect, it } from 'vitest';

import type { Label } from '../../bench/focus/paths.js';
import { planRuns, selectLabels } from '../../bench/focus/plan.js';

function label(site: string, query: string, entry = `https://${site}/`): Label {
    return { id: `${site}--${query.replace(/ /g, '-')}`, file: '', site, query, entry: [entry], relevant: [] };
}

const labels = [label('acl', 'machine translation'), label('acl', 'summarization'), label('cs', 'graduate admissions'), label('cs', 'computing guide')];

describe('planRuns', () => {
    const runs = planRuns(labels, {}, 'abc123');

    it('crawls crawlee-focus once per budget, and the budget-independent baselines once at the largest budget', () => {
        const focus = runs.filter((r) => r.crawler === 'focus' && r.label.id === 'acl--summarization').map((r) => r.budget);
        expect(focus.sort((a, b) => a - b)).toEqual([50, 100, 200]);
        for (const kind of ['keyword', 'playwright', 'cheerio'] as const) {
            expect(new Set(runs.filter((r) => r.crawler === kind).map((r) => r.budget))).toEqual(new Set([200]));
        }
    });

    it('shares one breadth-first crawl between the queries of a site, but not a keyword crawl', () => {
        const bfs = runs.filter((r) => r.crawler === 'playwright');
        expect(bfs).toHaveLength(2);
        expect(bfs.map((r) => r.scoredFor.map((l) => l.query))).toEqual([
            ['machine translation', 'summarization'],
            ['graduate admissions', 'computing guide'],
        ]);
        expect(runs.filter((r) => r.crawler === 'keyword')).toHaveLength(4);
    });

    it('ties crawlee-focus run ids to the source version, baselines not', () => {
        for (const run of runs) expect(run.id.includes('src-abc123')).toBe(run.crawler.startsWith('focus'));
        expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    });

    it('puts the small crawlee-focus budgets and the baselines before the large budget and stop: never', () => {
        const firstLarge = runs.findIndex((r) => r.crawler === 'focus' && r.budget === 200);
        const lastBaseline = runs.map((r) => r.crawler).lastIndexOf('cheerio');
        const firstNever = runs.findIndex((r) => r.crawler === 'focus-never');
        expect(lastBaseline).toBeLessThan(firstLarge);
        expect(firstLarge).toBeLessThan(firstNever);
    });

    it('repeats only crawlee-focus crawls, each under an id of its own, the first keeping the unrepeated id', () => {
        const repeated = planRuns(labels, { sites: ['acl'], budgets: [100], repeats: 3 }, 'abc123');
        const focus = repeated.filter((r) => r.crawler === 'focus' && r.label.id === 'acl--summarization');
        expect(focus.map((r) => r.repeat)).toEqual([1, 2, 3]);
        expect(focus.map((r) => r.id)).toEqual([
            'focus--acl--summarization--100--src-abc123',
            'focus--acl--summarization--100--src-abc123--r2',
            'focus--acl--summarization--100--src-abc123--r3',
        ]);
        expect(repeated.filter((r) => r.crawler === 'focus-never')).toHaveLength(2 * 3);
        expect(repeated.filter((r) => r.crawler === 'keyword').map((r) => r.repeat)).toEqual([1, 1]);
        expect(new Set(repeated.map((r) => r.id)).size).toBe(repeated.length);
    });

    it('applies crawler and budget filters', () => {
        const quick = planRuns(labels, { crawlers: ['focus', 'keyword'], budgets: [50], onePerSite: true }, 'x');
        expect(quick.map((r) => `${r.crawler} ${r.label.id} ${r.budget}`)).toEqual([
            'keyword acl--machine-translation 50',
            'keyword cs--graduate-admissions 50',
            'focus acl--machine-translation 50',
            'focus cs--graduate-admissions 50',
        ]);
    });
});

describe('selectLabels', () => {
    it('filters by site and query substrings, case-insensitive', () => {
        expect(selectLabels(labels, { sites: ['cs'], queries: ['GRADUATE'] }).map((l) => l.id)).toEqual(['cs--graduate-admissions']);
    });

    it('keeps one label per site in quick mode unless queries are named', () => {
        expect(selectLabels(labels, { onePerSite: true }).map((l) => l.id)).toEqual(['acl--machine-translation', 'cs--graduate-admissions']);
        expect(selectLabels(labels, { onePerSite: true, queries: ['summ', 'comput'] }).map((l) => l.id)).toEqual(['acl--summarization', 'cs--computing-guide']);
    });
});
