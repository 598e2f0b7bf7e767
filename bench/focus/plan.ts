import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { CRAWLERS, crawlerInfo } from './crawlers.js';
import type { CrawlerKind } from './crawlers.js';
import type { Label } from './paths.js';
import { REPO_ROOT } from './paths.js';

/** The budgets of issue 5, in HTML pages. */
export const BUDGETS: readonly number[] = [50, 100, 200];

/** One crawl to run (or read from the cache). */
export interface PlannedRun {
    /** Directory name under bench/results/runs; a finished run with this id is not run again. */
    id: string;
    crawler: CrawlerKind;
    /** The label the crawl is started for (its entry and query). */
    label: Label;
    /** Pages the crawl may fetch. */
    budget: number;
    /** Labels scored from this run's log: every label of the site for query-independent crawlers. */
    scoredFor: Label[];
    /** 1 for the first crawl of this (crawler, label, budget), 2… for repeats (`--repeat`). */
    repeat: number;
    /** Crawlee crawler of the crawlee-focus runs. */
    focusMode: FocusMode;
}

/** `--focus-mode`: browser is the default the figures are quoted for; http is a fast loop on static sites. */
export type FocusMode = 'browser' | 'http' | 'adaptive';

export interface PlanFilters {
    /** Label ids or site names to keep (substring match). @default all */
    sites?: string[];
    /** Query words or label ids to keep (substring match, case-insensitive). @default all */
    queries?: string[];
    /** @default every crawler */
    crawlers?: CrawlerKind[];
    /** @default {@link BUDGETS} */
    budgets?: number[];
    /** One label per site (the first by id) unless `queries` picks others. @default false */
    onePerSite?: boolean;
    /**
     * Crawls of each crawlee-focus run. Its order depends on timing at concurrency > 1, so one crawl is one sample;
     * the baselines are crawled once. @default 1
     */
    repeats?: number;
    /** Crawler of the crawlee-focus runs. @default 'browser' */
    focusMode?: FocusMode;
}

/** Crawlers whose order ignores the query: one crawl per site serves every query of that site. */
const QUERY_INDEPENDENT = new Set<CrawlerKind>(['playwright', 'cheerio']);

/** Short content hash of src/**: a focused run is reused only for the code it was run with. */
export function sourceHash(root = path.join(REPO_ROOT, 'src')): string {
    const hash = createHash('sha256');
    const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) walk(full);
            else {
                hash.update(path.relative(root, full));
                hash.update(readFileSync(full));
            }
        }
    };
    walk(root);
    return hash.digest('hex').slice(0, 8);
}

function matches(value: string, needles: string[] | undefined): boolean {
    return !needles?.length || needles.some((needle) => value.toLowerCase().includes(needle.toLowerCase()));
}

/** The labels the filters keep. */
export function selectLabels(labels: Label[], filters: PlanFilters): Label[] {
    const kept = labels.filter((label) => matches(label.site, filters.sites) && (matches(label.query, filters.queries) || matches(label.id, filters.queries)));
    if (!filters.onePerSite || filters.queries?.length) return kept;
    const perSite = new Map<string, Label>();
    for (const label of kept) if (!perSite.has(label.site)) perSite.set(label.site, label);
    return [...perSite.values()];
}

/**
 * The crawls to run, most informative first, so a bench cut short still covers every query: crawlee-focus at the
 * small budgets and the baselines, then the large budget, then `stop: 'never'`.
 */
export function planRuns(labels: Label[], filters: PlanFilters, srcHash: string): PlannedRun[] {
    const selected = selectLabels(labels, filters);
    const budgets = [...(filters.budgets ?? BUDGETS)].sort((a, b) => a - b);
    const largest = budgets.at(-1)!;
    const kinds = filters.crawlers ?? CRAWLERS.map((crawler) => crawler.kind);
    const runs: PlannedRun[] = [];
    const byId = new Map<string, PlannedRun>();
    const add = (crawler: CrawlerKind, label: Label, budget: number, repeat = 1) => {
        const independent = QUERY_INDEPENDENT.has(crawler);
        const subject = independent ? `${label.site}-${createHash('sha256').update(label.entry.join(' ')).digest('hex').slice(0, 6)}` : label.id;
        const focusMode = filters.focusMode ?? 'browser';
        const version = crawlerInfo(crawler).kind.startsWith('focus') ? `--src-${srcHash}${focusMode === 'browser' ? '' : `--${focusMode}`}` : '';
        const id = `${crawler}--${subject}--${budget}${version}${repeat > 1 ? `--r${repeat}` : ''}`;
        const existing = byId.get(id);
        if (existing) {
            existing.scoredFor.push(label);
            return;
        }
        const run: PlannedRun = { id, crawler, label, budget, scoredFor: [label], repeat, focusMode };
        byId.set(id, run);
        runs.push(run);
    };
    const phases: Array<{ kinds: CrawlerKind[]; budgets: number[] }> = [
        { kinds: ['focus'], budgets: budgets.filter((b) => b < largest) },
        { kinds: ['keyword', 'playwright', 'cheerio'], budgets: [largest] },
        { kinds: ['focus'], budgets: [largest] },
        { kinds: ['focus-never'], budgets },
    ];
    for (const phase of phases) {
        for (const kind of phase.kinds.filter((k) => kinds.includes(k))) {
            const repeats = kind.startsWith('focus') ? (filters.repeats ?? 1) : 1;
            for (const budget of phase.budgets) {
                for (const label of selected) for (let repeat = 1; repeat <= repeats; repeat++) add(kind, label, budget, repeat);
            }
        }
    }
    return runs;
}
