// `--throughput`: crawlee-focus in browser, adaptive and http mode side by side on the same queries (issue 11):
// pages per second and recall, and how many pages adaptive mode rendered.
import type { FocusMode } from './plan.js';
import type { ScoredRun } from './runner.js';

/** The modes compared, in the order the table shows them. */
export const THROUGHPUT_MODES: readonly FocusMode[] = ['browser', 'adaptive', 'http'];
/** One static and one JavaScript-built site, unless `--site`/`--query` choose others. */
export const THROUGHPUT_SITES = ['stanford-cs', 'acl2020'];

export interface ThroughputRow {
    labelId: string;
    mode: FocusMode;
    budget: number;
    /** HTML pages the server saw. */
    pages: number;
    wallSeconds: number;
    pagesPerSecond: number;
    recall: number;
    /** Pages scored from a browser rendering and from plain HTTP (from FOCUS_REPORT). */
    rendering: { browser: number; http: number } | null;
}

export function throughputRow(one: ScoredRun, budget: number): ThroughputRow {
    const { outcome, run } = one.finished;
    const pages = one.score.pageUrls.length;
    const wallSeconds = outcome.wallMillis / 1000;
    const report = outcome.report as { rendering?: { browser: number; http: number } } | undefined;
    return {
        labelId: one.label.id,
        mode: run.focusMode,
        budget,
        pages,
        wallSeconds,
        pagesPerSecond: wallSeconds > 0 ? pages / wallSeconds : 0,
        recall: one.score.recallCurve[Math.min(budget, one.score.recallCurve.length) - 1] ?? 0,
        rendering: report?.rendering ?? null,
    };
}

/** Markdown: one row per (query, mode), with the speed-up over browser mode. */
export function throughputTable(rows: ThroughputRow[]): string {
    const lines = ['| query | mode | pages | wall s | pages/s | × browser | recall | rendered / plain HTTP |', '|---|---|---:|---:|---:|---:|---:|---|'];
    for (const row of rows) {
        const browser = rows.find((r) => r.labelId === row.labelId && r.budget === row.budget && r.mode === 'browser');
        const speedup = browser && browser.pagesPerSecond > 0 ? `${(row.pagesPerSecond / browser.pagesPerSecond).toFixed(2)}×` : '—';
        const rendering = row.rendering ? `${row.rendering.browser} / ${row.rendering.http}` : '—';
        lines.push(`| ${row.labelId} | ${row.mode} | ${row.pages} | ${row.wallSeconds.toFixed(1)} | ${row.pagesPerSecond.toFixed(2)} | ${speedup} | ${row.recall.toFixed(2)} | ${rendering} |`);
    }
    return lines.join('\n');
}
