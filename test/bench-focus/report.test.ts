import { describe, expect, it } from 'vitest';

import type { Label } from '../../bench/focus/paths.js';
import type { PlannedRun } from '../../bench/focus/plan.js';
import { calibrationTable, cellTable, resultRows, summarizeCells, summaryTable } from '../../bench/focus/report.js';
import type { ResultRow } from '../../bench/focus/report.js';
import type { ScoredRun } from '../../bench/focus/runner.js';
import type { ScoreRow } from '../../bench/focus/score.js';

const label: Label = { id: 'cs--admissions', file: '', site: 'cs', query: 'admissions', entry: ['http://cs/'], relevant: [] };

function row(k: number, fetched: number, found: number): ScoreRow {
    return {
        k,
        fetched,
        exhausted: fetched < k,
        relevant_found: found,
        harvest: found / fetched,
        recall: found / 10,
        total_relevant: 10,
        pages_to_50pct_recall: found >= 5 ? 40 : null,
        pages_to_80pct_recall: null,
        fetched_html: fetched,
        fetched_other_docs: 0,
        fetched_errors: 0,
        fetched_dup_pages: 0,
    };
}

function scored(crawler: PlannedRun['crawler'], budget: number, rows: ScoreRow[], pages: number, repeat = 1): ScoredRun {
    const startedAt = 1_000_000;
    return {
        label,
        finished: {
            run: { id: `${crawler}-${budget}-${repeat}`, crawler, label, budget, scoredFor: [label], repeat, focusMode: 'browser' },
            outcome: { kind: crawler, startedAt, wallMillis: 250_000, pagesHandled: pages },
            logFile: '',
            cached: true,
        },
        score: {
            rows,
            summary: { total_fetched: pages, total_relevant: 10, relevant_found_all: 0, pages_to_50pct_recall: null, pages_to_80pct_recall: null, repeats: 0, ignored_assets: 0 },
            recallCurve: [],
            // The k-th page is requested k seconds after the start.
            pageTimes: Array.from({ length: pages }, (_, i) => startedAt + (i + 1) * 1000),
            pageUrls: [],
        },
    };
}

describe('resultRows', () => {
    it('reads a budget-independent baseline at every budget from its log prefix, timed to its k-th page', () => {
        const rows = resultRows(scored('keyword', 200, [row(50, 50, 2), row(100, 100, 6), row(200, 200, 9)], 200), [50, 100, 200]);
        expect(rows.map((r) => [r.budget, r.recall, r.wallSeconds, r.fromPrefix])).toEqual([
            [50, 0.2, 50, true],
            [100, 0.6, 100, true],
            [200, 0.9, 200, true],
        ]);
    });

    it('takes the whole run time when the log ends before the budget', () => {
        const rows = resultRows(scored('playwright', 200, [row(50, 50, 0), row(100, 80, 1), row(200, 80, 1)], 80), [50, 100, 200]);
        expect(rows.map((r) => r.wallSeconds)).toEqual([50, 250, 250]);
    });

    it('reads a crawlee-focus run at its own budget only', () => {
        const rows = resultRows(scored('focus', 100, [row(50, 50, 5), row(100, 70, 8), row(200, 70, 8)], 70), [50, 100, 200]);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ budget: 100, fetched: 70, recall: 0.8, pagesTo50: 40, wallSeconds: 250, fromPrefix: false, failedShare: null });
    });

    it('counts the share of a crawlee-focus crawl spent on failed fetches, soft 404s included', () => {
        const run = scored('focus', 100, [row(100, 70, 8)], 70);
        run.finished.outcome.report = { pagesFetched: 70, failures: { 'http-404': 3, 'http-502': 1, 'soft-404': 3 } } as unknown as typeof run.finished.outcome.report;
        expect(resultRows(run, [100])[0]!.failedShare).toBeCloseTo(0.1, 10);
    });
});

describe('summaryTable', () => {
    it('shows recall per crawler and budget, and how many pages a crawl that stopped early fetched', () => {
        const rows = [
            ...resultRows(scored('focus', 100, [row(100, 70, 8)], 70), [100]),
            ...resultRows(scored('keyword', 100, [row(100, 100, 6)], 100), [100]),
        ];
        const table = summaryTable(rows, [100]).split('\n');
        expect(table[2]).toBe('| cs | admissions | 10 | crawlee-focus | 0.80 (70 p.) |');
        expect(table[3]).toBe('|  |  |  | URL-keyword best-first | 0.60 |');
    });

    it('shows the mean, range and count of repeated crawls, and their mean pages when they stopped early', () => {
        const rows = [
            ...resultRows(scored('focus', 100, [row(100, 70, 8)], 70, 1), [100]),
            ...resultRows(scored('focus', 100, [row(100, 100, 6)], 100, 2), [100]),
            ...resultRows(scored('focus', 100, [row(100, 40, 7)], 40, 3), [100]),
        ];
        expect(rows.map((r) => r.repeat)).toEqual([1, 2, 3]);
        expect(summaryTable(rows, [100]).split('\n')[2]).toBe('| cs | admissions | 10 | crawlee-focus | 0.70 [0.60–0.80, n=3] (70 p.) |');
    });
});

describe('calibrationTable', () => {
    const row = (recall: number, estimatedRecall: [number, number, number] | null): ResultRow => ({
        site: 'openehr', query: 'partners', labelId: 'openehr--partners', crawler: 'focus', budget: 100, runId: 'r', repeat: 1, fromPrefix: false,
        fetched: 100, fetchedHtml: 100, relevantFound: 1, totalRelevant: 2, harvest: 0.5, recall, pagesTo50: null, wallSeconds: 1, stopReason: 'limit_reached', estimatedRecall,
    });

    it('sets the true recall against the reported interval and counts how often it held', () => {
        const table = calibrationTable([row(0.6, [0.5, 0.4, 0.7]), row(0.9, [0.5, 0.3, 0.8]), row(0.2, null)]);
        expect(table).toContain('| 0.60 | 0.50 [0.40–0.70] | yes |');
        expect(table).toContain('| 0.90 | 0.50 [0.30–0.80] | no |');
        expect(table).toContain('held the true recall in 1 of 2 crawls (50 %');
    });
});

describe('summarizeCells', () => {
    const result = (budget: number, recall: number, estimated: [number, number, number] | null, stopReason: string | null, repeat = 1, failedShare?: number): ResultRow => ({
        site: 'cs', query: 'admissions', labelId: 'cs--admissions', crawler: 'focus', budget, runId: `r${budget}-${repeat}`, repeat, fromPrefix: false,
        fetched: budget, fetchedHtml: budget, relevantFound: recall * 10, totalRelevant: 10, harvest: 0, recall, pagesTo50: null, wallSeconds: 1,
        stopReason, estimatedRecall: estimated, ...(failedShare === undefined ? {} : { failedShare }),
    });

    it('pools the crawls of a cell, from any number of files: mean and range, how often the interval held, the stops', () => {
        const cells = summarizeCells([
            result(100, 0.2, [0.3, 0.1, 0.5], 'limit_reached', 1, 0.04),
            result(50, 0.1, null, 'saturated'),
            result(100, 0.6, [0.3, 0.1, 0.5], 'saturated', 2, 0.08),
            result(100, 0.4, [0.3, 0.1, 0.5], 'limit_reached', 3), // an older result, without the share
        ]);
        expect(cells.map((c) => c.budget)).toEqual([50, 100]); // by budget as a number, not as text
        const [fifty, hundred] = cells;
        expect(hundred).toMatchObject({ crawls: 3, minRecall: 0.2, maxRecall: 0.6, intervalHeld: 2, intervalReported: 3, stops: { limit_reached: 2, saturated: 1 } });
        expect(hundred!.meanRecall).toBeCloseTo(0.4, 10);
        expect(hundred!.meanFailedShare).toBeCloseTo(0.06, 10); // of the crawls that report it
        expect(fifty).toMatchObject({ crawls: 1, intervalHeld: 0, intervalReported: 0, meanFailedShare: null });
        expect(cellTable(cells)).toContain('| cs--admissions | crawlee-focus | 100 | 3 | 0.400 [0.20–0.60] | 2 of 3 | 6 % | limit_reached 2, saturated 1 |');
        expect(cellTable(cells)).toContain('| cs--admissions | crawlee-focus | 50 | 1 | 0.100 [0.10–0.10] | — | — | saturated 1 |');
    });
});
