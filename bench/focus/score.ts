import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import type { Label } from './paths.js';
import { SCORE_SCRIPT, SITES_CONFIG } from './paths.js';

/** One row of score.mjs for a budget k (its own field names). */
export interface ScoreRow {
    k: number;
    fetched: number;
    exhausted: boolean;
    relevant_found: number;
    harvest: number;
    recall: number | null;
    total_relevant: number;
    pages_to_50pct_recall: number | null;
    pages_to_80pct_recall: number | null;
    fetched_html: number;
    fetched_other_docs: number;
    fetched_errors: number;
    fetched_dup_pages: number;
}

export interface ScoreSummary {
    total_fetched: number;
    total_relevant: number;
    relevant_found_all: number;
    pages_to_50pct_recall: number | null;
    pages_to_80pct_recall: number | null;
    repeats: number;
    ignored_assets: number;
}

/** The part of score.mjs the bench uses; it is plain JavaScript, so its shape is declared here. */
interface ScoreModule {
    loadAliases(sitesPath: string): Map<string, string>;
    readEventsFromText(text: string, kind: 'jsonl' | 'urls', aliases: Map<string, string>): unknown[];
    score(events: unknown[], label: Label, options: { ks: number[]; aliases: Map<string, string> }): { rows: ScoreRow[]; summary: ScoreSummary };
}

/** What score.mjs says about one crawl's server log. */
export interface LogScore {
    /** One row per requested budget. */
    rows: ScoreRow[];
    summary: ScoreSummary;
    /** Recall after each page fetched: `recallCurve[i]` after i + 1 pages. */
    recallCurve: number[];
    /** Log timestamp (epoch millis) of each page fetched, same indexing; subresources are not pages. */
    pageTimes: number[];
    /** Each page fetched as the server saw it (`scheme://host/path?query`), same indexing. */
    pageUrls: string[];
}

let scoreModule: Promise<ScoreModule> | undefined;

/** score.mjs, loaded once. The corpora own it; the bench counts pages with it so every crawler is counted alike. */
function loadScoreModule(): Promise<ScoreModule> {
    scoreModule ??= import(pathToFileURL(SCORE_SCRIPT).href) as Promise<ScoreModule>;
    return scoreModule;
}

/** Scores a server log (serve.mjs --log) against a label at budgets `ks`. */
export async function scoreLog(logFile: string, label: Label, ks: number[]): Promise<LogScore> {
    const scorer = await loadScoreModule();
    const aliases = scorer.loadAliases(SITES_CONFIG);
    // One event per log line, kept with its timestamp: score.mjs's reader drops the time.
    const events: unknown[] = [];
    const lines: LogLine[] = [];
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
        const [event] = scorer.readEventsFromText(line, 'jsonl', aliases);
        if (event === undefined) continue;
        events.push(event);
        lines.push(JSON.parse(line) as LogLine);
    }
    const { rows, summary } = scorer.score(events, label, { ks, aliases });
    const everyK = Array.from({ length: summary.total_fetched }, (_, i) => i + 1);
    const curveRows = everyK.length > 0 ? scorer.score(events, label, { ks: everyK, aliases }).rows : [];
    const pageLines = pageLogLines(scorer, events, label, aliases, summary.total_fetched).map((index) => lines[index]!);
    return {
        rows,
        summary,
        recallCurve: curveRows.map((row) => row.recall ?? 0),
        pageTimes: pageLines.map((line) => line.t),
        pageUrls: pageLines.map((line) => `${line.scheme}://${line.host}${line.url}`),
    };
}

/** The fields of a serve.mjs log line the bench reads. */
interface LogLine {
    t: number;
    scheme: string;
    host: string;
    url: string;
}

/**
 * The log line of the k-th page for every k: the shortest log prefix in which score.mjs counts k pages ends with
 * that page. A binary search per k keeps the counting rule score.mjs's own.
 */
function pageLogLines(scorer: ScoreModule, events: unknown[], label: Label, aliases: Map<string, string>, pages: number): number[] {
    const counted = (prefix: number) => scorer.score(events.slice(0, prefix), label, { ks: [Number.MAX_SAFE_INTEGER], aliases }).summary.total_fetched;
    const result: number[] = [];
    let low = 0;
    for (let k = 1; k <= pages; k++) {
        let high = events.length;
        while (low < high) {
            const middle = (low + high) >> 1;
            if (counted(middle + 1) >= k) high = middle;
            else low = middle + 1;
        }
        result.push(low);
    }
    return result;
}

/**
 * Scores a list of absolute URLs (score.mjs's `--urls` input: pages are told apart by normalised URL, not by served
 * file) against a label, at one budget of the list's length: e.g. the relevant pages a crawl delivered to its datasets.
 */
export async function scoreUrls(urls: string[], label: Label): Promise<ScoreRow> {
    const scorer = await loadScoreModule();
    const aliases = scorer.loadAliases(SITES_CONFIG);
    const events = scorer.readEventsFromText(urls.join('\n'), 'urls', aliases);
    return scorer.score(events, label, { ks: [Math.max(1, urls.length)], aliases }).rows[0]!;
}
