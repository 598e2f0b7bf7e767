import { describe, expect, it } from 'vitest';

import { HarvestCurve, MAX_CURVE_POINTS, TopPages, formatReport, harvestWindow, reportHtml, windowedHarvest } from '../../src/index.js';
import type { CurvePoint, FocusReport } from '../../src/index.js';
import { renderReport } from '../helpers/report-page.js';

/** A report as a crawl of 60 pages with a few traps, rules and skips would leave. */
function sampleReport(overrides: Partial<FocusReport> = {}): FocusReport {
    const curve: CurvePoint[] = [];
    for (let fetched = 1; fetched <= 60; fetched++) curve.push({ fetched, relevant: Math.min(fetched, Math.floor(fetched * 0.4) + (fetched > 30 ? 0 : 2)) });
    const last = curve.at(-1)!;
    return {
        query: 'graduate admissions',
        stopReason: 'saturated',
        pagesFetched: last.fetched,
        pagesProcessed: 58,
        relevantPages: last.relevant,
        harvestRate: last.relevant / 58,
        coverage: 1,
        termEvidence: { graduate: 40, admission: 22 },
        traps: [{ shapeKey: 'k1', shape: 'example.edu/events/calendar/#/#', fetched: 12, repeated: 10 }],
        failing: [{ part: 'example.edu/keyword_*.html', fetched: 6, failed: 6 }],
        rewriteRules: [{ host: 'example.edu', kind: 'drop-param-value', name: 'print', value: '1', support: 3 }],
        skipped: { 'duplicate-url': 300, 'robots-disallowed': 4, trap: 0 },
        failures: { 'http-404': 2 },
        duplicates: [],
        frontierLeft: 17,
        reserve: { held: 5, refilled: 0 },
        exploration: { pages: 2, sectionsOpened: 4 },
        rendering: { browser: 0, http: 58 },
        documents: { pdf: { fetched: 2, converted: 2, delivered: 1 } },
        timings: { pages: 58, millisPerPage: { guard: 0, navigate: 0, read: 0, extract: 0, score: 0, deliver: 0, snapshot: 0 } },
        estimatedRecall: { value: 0.8, low: 0.6, high: 0.95, found: last.relevant, expectedQueued: 4, expectedQueuedHigh: 8, expectedDropped: 1 },
        estimatedRecallAtStop: null,
        curve,
        topPages: [
            { url: 'https://example.edu/graduate/admissions/', title: 'Graduate admissions', relevance: 0.71, depth: 1 },
            { url: 'https://example.edu/graduate/apply/?a=1&b=<2>', title: 'How to apply </script><script>window.hacked = 1</script>', relevance: 0.52, depth: 2 },
        ],
        maxPages: 100,
        elapsedMillis: 12_345,
        ...overrides,
    } as FocusReport;
}

describe('the harvest curve', () => {
    it('keeps every page of a short crawl and the exact final counts', () => {
        const curve = new HarvestCurve();
        for (let i = 1; i <= 50; i++) curve.record(i, Math.floor(i / 2));
        expect(curve.toArray()).toHaveLength(50);
        expect(curve.toArray({ fetched: 52, relevant: 25 }).at(-1)).toEqual({ fetched: 52, relevant: 25 });
    });

    it('stays within its size on a long crawl, spread evenly, with the first and latest point exact', () => {
        const curve = new HarvestCurve();
        for (let i = 1; i <= 20_000; i++) curve.record(i, Math.floor(i / 3));
        const points = curve.toArray();
        expect(points.length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
        expect(points.length).toBeGreaterThan(MAX_CURVE_POINTS / 4);
        expect(points[0]).toEqual({ fetched: 1, relevant: 0 });
        expect(points.at(-1)).toEqual({ fetched: 20_000, relevant: 6666 });
        const gaps = points.slice(1).map((p, i) => p.fetched - points[i]!.fetched);
        expect(Math.max(...gaps)).toBeLessThanOrEqual(4 * Math.min(...gaps.slice(0, -1)));
        for (let i = 1; i < points.length; i++) expect(points[i]!.relevant).toBeGreaterThanOrEqual(points[i - 1]!.relevant);
    });

    it('resumes from its JSON', () => {
        const curve = new HarvestCurve();
        for (let i = 1; i <= 900; i++) curve.record(i, i);
        const restored = HarvestCurve.fromJSON(JSON.parse(JSON.stringify(curve.toJSON())));
        restored.record(901, 901);
        expect(restored.toArray().at(-1)).toEqual({ fetched: 901, relevant: 901 });
        expect(restored.toArray().length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
    });

    it('gives the harvest over a sliding window of pages', () => {
        // 20 pages all relevant, then 20 pages with none
        const points = Array.from({ length: 40 }, (_, i) => ({ fetched: i + 1, relevant: Math.min(i + 1, 20) }));
        const harvest = windowedHarvest(points);
        expect(harvestWindow(40)).toBe(10);
        expect(harvest.find((p) => p.fetched === 20)!.harvest).toBe(1);
        expect(harvest.find((p) => p.fetched === 40)!.harvest).toBe(0);
        expect(harvest.find((p) => p.fetched === 25)!.harvest).toBeCloseTo(0.5, 5);
    });
});

describe('the top pages', () => {
    it('keeps the most relevant, best first, within its size', () => {
        const top = new TopPages(3);
        for (const [i, relevance] of [0.2, 0.9, 0.1, 0.5, 0.7, 0.5].entries()) top.add({ url: `u${i}`, title: '', relevance, depth: 0 });
        expect(top.toArray().map((p) => [p.url, p.relevance])).toEqual([['u1', 0.9], ['u4', 0.7], ['u3', 0.5]]);
    });
});

describe('REPORT.html in Chromium', () => {
    it('draws the chart and shows the report\'s own figures, self-contained', async () => {
        const report = sampleReport();
        const shown = await renderReport(reportHtml(report));
        expect(shown.requests).toEqual([]);
        expect(shown.scripts).toBe(0); // the title's </script> stayed text
        expect(shown.embedded).toEqual(report);
        expect(shown.figures).toMatchObject({
            pagesFetched: String(report.pagesFetched),
            relevantPages: String(report.relevantPages),
            harvestRate: `${Math.round(report.harvestRate * 100)} %`,
            estimatedRecall: '80 %',
            frontierLeft: '17',
        });
        expect(shown.stopReason).toBe('saturated');
        expect(shown.stopText).toContain('no new relevant content');
        // one point per curve point, plus the origin; drawn across the chart, rising
        expect(shown.relevantPoints).toBe(report.curve.length + 1);
        expect(shown.relevantLength).toBeGreaterThan(300);
        expect(shown.relevantBox.width).toBeGreaterThan(300);
        expect(shown.relevantBox.height).toBeGreaterThan(100);
        expect(shown.harvestPoints).toBeGreaterThan(50);
        expect(shown.chartVisible).toBe(true);
        expect(shown.topPages).toEqual([
            { url: 'https://example.edu/graduate/admissions/', relevance: '0.710' },
            { url: 'https://example.edu/graduate/apply/?a=1&b=<2>', relevance: '0.520' },
        ]);
        expect(shown.skipped).toEqual({ 'duplicate-url': '300', 'robots-disallowed': '4' });
    }, 60_000);

    it('shows a crawl that found nothing, without an estimate, as such', async () => {
        const report = sampleReport({ query: null, stopReason: 'exhausted', curve: [{ fetched: 3, relevant: 0 }], pagesFetched: 3, relevantPages: 0, harvestRate: 0, estimatedRecall: null, topPages: [], maxPages: null, traps: [], failing: [], rewriteRules: [] });
        const html = reportHtml(report);
        const shown = await renderReport(html);
        expect(shown.figures.pagesFetched).toBe('3');
        expect(shown.figures.estimatedRecall).toBeUndefined();
        expect(shown.relevantPoints).toBe(2);
        expect(shown.topPages).toEqual([]);
        expect(html).toContain('No page was delivered.');
        expect(html).toContain('No URL template was demoted.');
    }, 60_000);
});

describe('formatReport', () => {
    it('shows adaptive mode\'s split between rendered and plain-HTTP pages, and no such line for one mode alone', () => {
        expect(formatReport(sampleReport({ rendering: { browser: 9, http: 91 } }))).toContain('rendering: 9 pages rendered in Chromium, 91 read over plain HTTP');
        expect(formatReport(sampleReport({ rendering: { browser: 0, http: 58 } }))).not.toContain('rendering:');
        expect(formatReport(sampleReport({ rendering: { browser: 60, http: 0 } }))).not.toContain('rendering:');
    });

    it('shows the estimate the stop rule fired on when there is one', () => {
        const atStop = { value: 0.93, low: 0.91, high: 0.97, found: 12, expectedQueued: 0.4, expectedQueuedHigh: 0.9, expectedDropped: 0.1 };
        expect(formatReport(sampleReport({ estimatedRecallAtStop: atStop }))).toContain('when the stop rule fired: estimated recall 0.93 [0.91–0.97], 12 relevant found');
        expect(formatReport(sampleReport())).not.toContain('when the stop rule fired');
        expect(reportHtml(sampleReport({ estimatedRecallAtStop: atStop }))).toContain('The stop rule fired at 93 % [91 %–97 %] with 12 found');
    });
});
