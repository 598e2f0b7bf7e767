// `--throughput`: crawlee-focus in browser, adaptive and http mode side by side on the same queries (issue 11):
// pages per second and recall, and how many pages adaptive mode rendered.
import { mean } from '../measure.js';
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

/** The rows of one (query, budget, mode) cell: one per crawl (`--repeat`). */
interface ThroughputCell {
    labelId: string;
    budget: number;
    mode: FocusMode;
    rows: ThroughputRow[];
}

function cellsOf(rows: ThroughputRow[]): ThroughputCell[] {
    const cells = new Map<string, ThroughputCell>();
    for (const row of rows) {
        const key = `${row.labelId}@${row.budget}@${row.mode}`;
        const cell = cells.get(key) ?? { labelId: row.labelId, budget: row.budget, mode: row.mode, rows: [] };
        cell.rows.push(row);
        cells.set(key, cell);
    }
    return [...cells.values()];
}

const meanOf = (rows: ThroughputRow[], pick: (row: ThroughputRow) => number): number => mean(rows.map(pick));

/**
 * Markdown: one row per (query, mode), with the speed-up over browser mode. With several crawls per cell the figures
 * are their means and the recall column lists each crawl's: one crawl's recall moves by a few hundredths with the
 * order its pages come back in, more than the 0.02 issue 11 allows between modes.
 */
export function throughputTable(rows: ThroughputRow[]): string {
    const lines = ['| query | mode | crawls | pages | wall s | pages/s | × browser | recall (per crawl) | rendered / plain HTTP |', '|---|---|---:|---:|---:|---:|---:|---|---|'];
    const cells = cellsOf(rows);
    for (const cell of cells) {
        const browser = cells.find((c) => c.labelId === cell.labelId && c.budget === cell.budget && c.mode === 'browser');
        const pagesPerSecond = meanOf(cell.rows, (r) => r.pagesPerSecond);
        const browserSpeed = browser ? meanOf(browser.rows, (r) => r.pagesPerSecond) : 0;
        const speedup = browserSpeed > 0 ? `${(pagesPerSecond / browserSpeed).toFixed(2)}×` : '—';
        const rendered = cell.rows.filter((r) => r.rendering !== null);
        const rendering = rendered.length > 0 ? `${fixed(meanOf(rendered, (r) => r.rendering!.browser))} / ${fixed(meanOf(rendered, (r) => r.rendering!.http))}` : '—';
        const recalls = cell.rows.length > 1 ? ` (${cell.rows.map((r) => r.recall.toFixed(2)).join(' / ')})` : '';
        lines.push(
            `| ${cell.labelId} | ${cell.mode} | ${cell.rows.length} | ${fixed(meanOf(cell.rows, (r) => r.pages))} | ${meanOf(cell.rows, (r) => r.wallSeconds).toFixed(1)} | ` +
                `${pagesPerSecond.toFixed(2)} | ${speedup} | ${meanOf(cell.rows, (r) => r.recall).toFixed(2)}${recalls} | ${rendering} |`,
        );
    }
    return lines.join('\n');
}

/** A count, or a mean of counts with one decimal. */
function fixed(value: number): string {
    return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
