import { mean } from '../measure.js';
import { crawlerInfo, CRAWLERS } from './crawlers.js';
import type { CrawlerKind } from './crawlers.js';
import type { ScoredRun } from './runner.js';

/** One line of the results: a crawler on a (site, query) at a budget. */
export interface ResultRow {
    site: string;
    query: string;
    labelId: string;
    crawler: CrawlerKind;
    budget: number;
    runId: string;
    /** Which crawl of this (crawler, label, budget): 1, or 2… with `--repeat`. */
    repeat: number;
    /** Read from the log prefix of a larger run (the crawler's order does not depend on the budget). */
    fromPrefix: boolean;
    /** Pages counted by score.mjs (HTML and other documents, 404s included) and how many of them were HTML. */
    fetched: number;
    fetchedHtml: number;
    relevantFound: number;
    totalRelevant: number;
    harvest: number;
    recall: number;
    /** Pages until half the relevant pages were found, if within the budget. */
    pagesTo50: number | null;
    /** Crawl time: the whole run, or for a prefix read, until its k-th page was requested. */
    wallSeconds: number;
    /** crawlee-focus only: why it stopped. */
    stopReason: string | null;
    /** crawlee-focus only: the recall it estimated for itself at the stop, `[value, low, high]`. */
    estimatedRecall: [number, number, number] | null;
    /**
     * crawlee-focus only: the share of the pages it took whose fetch failed (an error status, a timeout, an
     * unreachable host) or was a soft 404 (`FOCUS_REPORT.failures` over `pagesFetched`). Absent in older results.
     */
    failedShare?: number | null;
}

/** The rows a scored run yields: every budget for a prefix-read baseline, its own budget otherwise. */
export function resultRows(scored: ScoredRun, budgets: readonly number[]): ResultRow[] {
    const { run, outcome } = scored.finished;
    const prefix = !crawlerInfo(run.crawler).budgetDependent;
    const ks = prefix ? budgets.filter((k) => k <= run.budget) : [run.budget];
    return ks.map((k) => {
        const row = scored.score.rows.find((r) => r.k === k);
        if (!row) throw new Error(`Run ${run.id} was not scored at k=${k}; score it with every budget of the table.`);
        const kthPageTime = scored.score.pageTimes[k - 1];
        const wallMillis = prefix && !row.exhausted && kthPageTime !== undefined ? kthPageTime - outcome.startedAt : outcome.wallMillis;
        return {
            site: scored.label.site,
            query: scored.label.query,
            labelId: scored.label.id,
            crawler: run.crawler,
            budget: k,
            runId: run.id,
            repeat: run.repeat,
            fromPrefix: prefix,
            fetched: row.fetched,
            fetchedHtml: row.fetched_html,
            relevantFound: row.relevant_found,
            totalRelevant: row.total_relevant,
            harvest: row.harvest,
            recall: row.recall ?? 0,
            pagesTo50: row.pages_to_50pct_recall,
            wallSeconds: Math.round(wallMillis / 100) / 10,
            stopReason: outcome.report?.stopReason ?? null,
            estimatedRecall: prefix || !outcome.report?.estimatedRecall ? null : [outcome.report.estimatedRecall.value, outcome.report.estimatedRecall.low, outcome.report.estimatedRecall.high],
            failedShare: prefix ? null : failedShareOf(outcome.report),
        };
    });
}

/** Failed fetches (soft 404s included) over the pages a crawlee-focus crawl took; null without a report. */
function failedShareOf(report: { pagesFetched?: number; failures?: Record<string, number> } | undefined): number | null {
    if (!report?.failures || !report.pagesFetched) return null;
    const failed = Object.values(report.failures).reduce((sum, n) => sum + n, 0);
    return failed / report.pagesFetched;
}

const percent = (x: number) => `${(x * 100).toFixed(0)} %`;

/** One console line per row. */
export function formatRow(row: ResultRow): string {
    return [
        `${crawlerInfo(row.crawler).label} @${row.budget}${row.fromPrefix ? ' (prefix)' : ''}:`,
        `fetched ${row.fetched} (${row.fetchedHtml} HTML),`,
        `relevant ${row.relevantFound}/${row.totalRelevant},`,
        `harvest ${percent(row.harvest)}, recall ${row.recall.toFixed(2)},`,
        `50 % recall after ${row.pagesTo50 ?? '—'} pages, ${row.wallSeconds} s`,
        row.stopReason ? `(stop: ${row.stopReason})` : '',
    ]
        .join(' ')
        .trim();
}

function byLabel(rows: ResultRow[]): Map<string, ResultRow[]> {
    const groups = new Map<string, ResultRow[]>();
    for (const row of rows) groups.set(row.labelId, [...(groups.get(row.labelId) ?? []), row]);
    return groups;
}

/** Recall per crawler and budget, one block per (site, query): the table a reader looks at first. */
export function summaryTable(rows: ResultRow[], budgets: readonly number[]): string {
    const lines = [
        `| site | query | relevant | crawler | ${budgets.map((k) => `recall @${k}`).join(' | ')} |`,
        `|---|---|---:|---|${budgets.map(() => '---:').join('|')}|`,
    ];
    for (const group of byLabel(rows).values()) {
        const first = group[0]!;
        let shown = false;
        for (const { kind, label } of CRAWLERS) {
            const mine = group.filter((row) => row.crawler === kind);
            if (mine.length === 0) continue;
            const cells = budgets.map((k) => recallCell(mine.filter((r) => r.budget === k), k));
            lines.push(`| ${shown ? '' : first.site} | ${shown ? '' : first.query} | ${shown ? '' : first.totalRelevant} | ${label} | ${cells.join(' | ')} |`);
            shown = true;
        }
    }
    return lines.join('\n');
}

/**
 * One crawl: its recall, and its pages when it stopped before the budget. Repeated crawls: the mean, the range and
 * the count, and the mean pages when they stopped early.
 */
function recallCell(rows: ResultRow[], budget: number): string {
    if (rows.length === 0) return '';
    const recalls = rows.map((row) => row.recall);
    const pages = mean(rows.map((row) => row.fetched));
    const short = pages < budget ? ` (${Math.round(pages)} p.)` : '';
    if (rows.length === 1) return `${recalls[0]!.toFixed(2)}${short}`;
    return `${mean(recalls).toFixed(2)} [${Math.min(...recalls).toFixed(2)}–${Math.max(...recalls).toFixed(2)}, n=${rows.length}]${short}`;
}

/** Every figure of every row. */
export function fullTable(rows: ResultRow[]): string {
    const lines = [
        '| site | query | crawler | budget | pages fetched (HTML) | relevant found | harvest | recall | pages to 50 % recall | wall s | stop |',
        '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ];
    const order = new Map(CRAWLERS.map((c, i) => [c.kind, i]));
    const sorted = [...rows].sort(
        (a, b) => a.labelId.localeCompare(b.labelId) || order.get(a.crawler)! - order.get(b.crawler)! || a.budget - b.budget || a.repeat - b.repeat,
    );
    for (const row of sorted) {
        lines.push(
            `| ${row.site} | ${row.query} | ${crawlerInfo(row.crawler).label}${row.repeat > 1 ? ` (crawl ${row.repeat})` : ''} | ${row.budget}${row.fromPrefix ? '*' : ''} | ${row.fetched} (${row.fetchedHtml}) | ${row.relevantFound}/${row.totalRelevant} | ${row.harvest.toFixed(2)} | ${row.recall.toFixed(2)} | ${row.pagesTo50 ?? '—'} | ${row.wallSeconds}${row.fromPrefix ? '*' : ''} | ${row.stopReason ?? ''} |`,
        );
    }
    return lines.join('\n');
}

/**
 * Calibration of the recall crawlee-focus estimates for itself (issue 10): per crawl, the true recall at the stop
 * (from the labels) against the reported interval, and how often the interval held.
 */
export function calibrationTable(rows: ResultRow[]): string {
    const estimated = rows.filter((row) => row.estimatedRecall !== null);
    if (estimated.length === 0) return 'No crawl reported an estimated recall.';
    const holds = (row: ResultRow) => intervalHolds(row) === true;
    const lines = [
        '| site, query | crawler | budget | crawl | true recall | estimated [interval] | holds |',
        '|---|---|---:|---:|---:|---|:---:|',
        ...estimated.map((row) => {
            const [value, low, high] = row.estimatedRecall!;
            return `| ${row.site}, ${row.query} | ${crawlerInfo(row.crawler).label} | ${row.budget} | ${row.repeat} | ${row.recall.toFixed(2)} | ${value.toFixed(2)} [${low.toFixed(2)}–${high.toFixed(2)}] | ${holds(row) ? 'yes' : 'no'} |`;
        }),
    ];
    const held = estimated.filter(holds).length;
    lines.push('', `The interval held the true recall in ${held} of ${estimated.length} crawls (${((100 * held) / estimated.length).toFixed(0)} %; target ≥ 80 %).`);
    return lines.join('\n');
}

/** Whether the true recall lies inside the interval crawlee-focus reported; null for a crawl that reported none. */
export function intervalHolds(row: ResultRow): boolean | null {
    if (!row.estimatedRecall) return null;
    return row.recall >= row.estimatedRecall[1] - 1e-9 && row.recall <= row.estimatedRecall[2] + 1e-9;
}

/** The crawls of one (query, crawler, budget) pooled: what a before/after comparison reads. */
export interface CellSummary {
    labelId: string;
    crawler: CrawlerKind;
    budget: number;
    crawls: number;
    meanRecall: number;
    minRecall: number;
    maxRecall: number;
    /** Crawls whose reported interval held the true recall, of those that reported one. */
    intervalHeld: number;
    intervalReported: number;
    /** Stop reasons and how many crawls gave each. */
    stops: Record<string, number>;
    /** Mean share of the budget spent on failed fetches, over the crawls that report it; null when none does. */
    meanFailedShare: number | null;
}

/** Pools rows (from one or many selection JSON files) by query, crawler and budget, in that order. */
export function summarizeCells(rows: readonly ResultRow[]): CellSummary[] {
    const cells = new Map<string, ResultRow[]>();
    for (const row of rows) {
        const key = `${row.labelId}\u0000${row.crawler}\u0000${String(row.budget).padStart(6, '0')}`;
        (cells.get(key) ?? cells.set(key, []).get(key)!).push(row);
    }
    return [...cells.keys()].sort().map((key) => {
        const cell = cells.get(key)!;
        const recalls = cell.map((row) => row.recall);
        const stops: Record<string, number> = {};
        for (const row of cell) stops[row.stopReason ?? 'none'] = (stops[row.stopReason ?? 'none'] ?? 0) + 1;
        const verdicts = cell.map(intervalHolds).filter((held): held is boolean => held !== null);
        const failedShares = cell.map((row) => row.failedShare).filter((share): share is number => typeof share === 'number');
        return {
            labelId: cell[0]!.labelId,
            crawler: cell[0]!.crawler,
            budget: cell[0]!.budget,
            crawls: cell.length,
            meanRecall: recalls.reduce((a, b) => a + b, 0) / recalls.length,
            minRecall: Math.min(...recalls),
            maxRecall: Math.max(...recalls),
            intervalHeld: verdicts.filter(Boolean).length,
            intervalReported: verdicts.length,
            stops,
            meanFailedShare: failedShares.length > 0 ? failedShares.reduce((a, b) => a + b, 0) / failedShares.length : null,
        };
    });
}

/** {@link summarizeCells} as a Markdown table. */
export function cellTable(cells: readonly CellSummary[]): string {
    const lines = ['| query | crawler | budget | crawls | mean recall [lowest–highest] | interval held | failed fetches | stops |', '|---|---|---:|---:|---|---:|---:|---|'];
    for (const c of cells) {
        const stops = Object.entries(c.stops).map(([reason, n]) => `${reason} ${n}`).join(', ');
        const held = c.intervalReported > 0 ? `${c.intervalHeld} of ${c.intervalReported}` : '—';
        lines.push(`| ${c.labelId} | ${crawlerInfo(c.crawler).label} | ${c.budget} | ${c.crawls} | ${c.meanRecall.toFixed(3)} [${c.minRecall.toFixed(2)}–${c.maxRecall.toFixed(2)}] | ${held} | ${c.meanFailedShare === null ? '—' : percent(c.meanFailedShare)} | ${stops} |`);
    }
    return lines.join('\n');
}
