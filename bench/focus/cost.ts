import path from 'node:path';

import { mean, median } from '../measure.js';
import type { CrawlSpec } from './crawl.js';
import type { Label } from './paths.js';
import { RUNS_DIR } from './paths.js';
import { crawlInChild } from './runner.js';
import { scoreLog } from './score.js';

/** Pages in the cost list (issue 5: "the first 60 pages crawlee-focus fetched on one site"). */
export const COST_PAGES = 60;
/**
 * Both crawlers get the same fixed concurrency (minimum = maximum), so they fetch the same pages in the same order,
 * and the ratio measures the work per page, not how Crawlee's autoscaling reacted to a busy 2-core machine: with a
 * maximum alone, two identical plain runs took 36.8 and 47.9 s, at a mean concurrency of about 1.5.
 */
export const COST_CONCURRENCY = 4;
/** Browser-mode overhead of issue 11: the bar, and the goal. */
export const COST_BAR_RATIO = 1.1;
export const COST_GOAL_RATIO = 1.05;

type Variant = 'playwright-list' | 'focus-list' | 'focus-list-no-quiet';

const VARIANTS: Record<Variant, { what: string; spec: Pick<CrawlSpec, 'kind' | 'domQuietMillis'> }> = {
    'playwright-list': { what: 'plain PlaywrightCrawler, default queue, no link following', spec: { kind: 'playwright-list' } },
    'focus-list': { what: 'crawlee-focus with its defaults (domQuietMillis 250)', spec: { kind: 'focus-list' } },
    'focus-list-no-quiet': { what: 'crawlee-focus with domQuietMillis 0 (how much the quiet-DOM wait costs)', spec: { kind: 'focus-list', domQuietMillis: 0 } },
};

const VARIANT_ORDER: Variant[] = ['playwright-list', 'focus-list', 'focus-list-no-quiet'];
/** Rounds of the cost bench unless `--cost-rounds` says otherwise: ABC CBA. */
export const COST_ROUNDS = 2;

/**
 * The crawls of a cost run: every variant once per round, the order reversed every other round (ABC CBA ABC …), so
 * drift in machine load hits every variant alike and plain and crawlee-focus runs sit side by side in each round.
 */
export function costOrder(rounds: number): Array<{ round: number; variant: Variant }> {
    return alternatingRounds(VARIANT_ORDER, rounds).map(({ round, item }) => ({ round, variant: item }));
}

/** Every item once per round, in the given order in even rounds and reversed in odd ones (ABC CBA ABC …). */
export function alternatingRounds<T>(items: readonly T[], rounds: number): Array<{ round: number; item: T }> {
    return Array.from({ length: rounds }, (_, round) => (round % 2 === 0 ? items : [...items].reverse()).map((item) => ({ round, item }))).flat();
}

/**
 * crawlee-focus's time over plain PlaywrightCrawler's within each round, and their median: a plain run alone moved by
 * 18 % between rounds on this machine (50.3 and 59.5 s), so a ratio of means over two rounds moves by more than the
 * bar's margin, while a round's two crawls share its load.
 */
export function roundRatios(seconds: Record<Variant, number[]>): { perRound: number[]; median: number } {
    const perRound = seconds['focus-list'].map((s, i) => s / seconds['playwright-list'][i]!);
    return { perRound, median: median(perRound) };
}

export interface CostResult {
    labelId: string;
    pages: number;
    concurrency: number;
    /** Mean wall seconds per variant. */
    seconds: Record<Variant, number[]>;
    /** crawlee-focus (defaults) time over plain PlaywrightCrawler time: ratio of the means over all rounds. */
    ratio: number;
    ratioNoQuiet: number;
    /** The same ratio within each round, and the median of those (absent before rounds were counted). */
    roundRatios?: number[];
    medianRatio?: number;
    /** crawlee-focus's own time per page by phase (FOCUS_REPORT.timings), mean over its default runs. */
    breakdown?: Record<string, number>;
    /** CPU seconds per variant, mean over its runs: the crawl's Node process and its Chromium (absent before). */
    cpu?: Record<Variant, { node: number; children: number }>;
    /** Whether every run fetched exactly the list (per the server log). */
    sameSet: boolean;
    notes: string[];
}


/** Times crawlee-focus against plain PlaywrightCrawler on the same fixed URL list, in one bench run. */
export async function measureCost(label: Label, urls: string[], log: (line: string) => void, rounds = COST_ROUNDS): Promise<CostResult> {
    const list = urls.slice(0, COST_PAGES);
    const seconds: Record<Variant, number[]> = { 'playwright-list': [], 'focus-list': [], 'focus-list-no-quiet': [] };
    const expected = new Set(list.map(pageKey));
    let sameSet = true;
    const notes: string[] = [];
    const phases: Array<Record<string, number>> = [];
    const cpuRuns: Record<Variant, Array<{ node: number; children: number }>> = { 'playwright-list': [], 'focus-list': [], 'focus-list-no-quiet': [] };
    const order = costOrder(rounds);
    for (const [i, { variant }] of order.entries()) {
        const dir = path.join(RUNS_DIR, `cost--${label.id}--${i}-${variant}`);
        const outcome = await crawlInChild(
            { ...VARIANTS[variant].spec, startUrls: list, query: label.query, budget: list.length, maxConcurrency: COST_CONCURRENCY, minConcurrency: COST_CONCURRENCY },
            dir,
        );
        if (outcome.error) throw new Error(`Cost run ${variant} failed: ${outcome.error.split('\n')[0]} (see ${dir}).`);
        const fetched = (await scoreLog(path.join(dir, 'requests.jsonl'), label, [list.length])).pageUrls.map(pageKey);
        const extra = fetched.filter((url) => !expected.has(url));
        const missing = [...expected].filter((url) => !fetched.includes(url));
        if (extra.length > 0 || missing.length > 0) {
            sameSet = false;
            notes.push(`${variant} run ${i + 1}: ${extra.length} pages outside the list, ${missing.length} list pages not fetched`);
        }
        seconds[variant].push(outcome.wallMillis / 1000);
        if (outcome.cpuSeconds) cpuRuns[variant].push(outcome.cpuSeconds);
        if (variant === 'focus-list' && outcome.report?.timings) phases.push(outcome.report.timings.millisPerPage);
        log(`  cost ${i + 1}/${order.length} ${VARIANTS[variant].what}: ${(outcome.wallMillis / 1000).toFixed(1)} s`);
    }
    const byRound = roundRatios(seconds);
    return {
        labelId: label.id,
        pages: list.length,
        concurrency: COST_CONCURRENCY,
        seconds,
        ratio: mean(seconds['focus-list']) / mean(seconds['playwright-list']),
        ratioNoQuiet: mean(seconds['focus-list-no-quiet']) / mean(seconds['playwright-list']),
        roundRatios: byRound.perRound,
        medianRatio: byRound.median,
        ...(phases.length ? { breakdown: Object.fromEntries(Object.keys(phases[0]!).map((phase) => [phase, mean(phases.map((p) => p[phase] ?? 0))])) } : {}),
        ...(Object.values(cpuRuns).every((runs) => runs.length > 0)
            ? { cpu: Object.fromEntries(Object.entries(cpuRuns).map(([v, runs]) => [v, { node: mean(runs.map((r) => r.node)), children: mean(runs.map((r) => r.children)) }])) as CostResult['cpu'] }
            : {}),
        sameSet,
        notes,
    };
}

/** A page as the server saw it, scheme-less (the corpus serves http and https alike). */
function pageKey(url: string): string {
    return url.replace(/^https?:\/\//, '').replace(/\/index\.html$/, '/');
}

const verdict = (ratio: number) =>
    `bar ≤ ${COST_BAR_RATIO.toFixed(2)}×: ${ratio <= COST_BAR_RATIO ? 'met' : 'not met'}; goal ≤ ${COST_GOAL_RATIO.toFixed(2)}×: ${ratio <= COST_GOAL_RATIO ? 'met' : 'not met'}`;

const cpuOf = ({ node, children }: { node: number; children: number }) => `${node.toFixed(1)} + ${children.toFixed(1)}`;

export function formatCost(cost: CostResult): string {
    const s = (v: Variant) => `${mean(cost.seconds[v]).toFixed(1)} s (${cost.seconds[v].map((x) => x.toFixed(1)).join(', ')})`;
    return [
        `Cost on ${cost.labelId}: the first ${cost.pages} pages crawlee-focus fetched, as a fixed list, concurrency ${cost.concurrency}, no link following.`,
        `  plain PlaywrightCrawler:            ${s('playwright-list')}`,
        `  crawlee-focus (defaults):           ${s('focus-list')}`,
        `  crawlee-focus (domQuietMillis 0):   ${s('focus-list-no-quiet')}`,
        `  overhead ratio ${cost.ratio.toFixed(2)}× (${verdict(cost.ratio)}); without the quiet-DOM wait ${cost.ratioNoQuiet.toFixed(2)}×`,
        ...(cost.roundRatios && cost.medianRatio !== undefined
            ? [`  within each round: ${cost.roundRatios.map((r) => `${r.toFixed(2)}×`).join(', ')}; median ${cost.medianRatio.toFixed(2)}× (${verdict(cost.medianRatio)})`]
            : []),
        ...(cost.cpu
            ? [
                  `  CPU s (Node + Chromium): plain ${cpuOf(cost.cpu['playwright-list'])}, crawlee-focus ${cpuOf(cost.cpu['focus-list'])}, ` +
                      `domQuietMillis 0 ${cpuOf(cost.cpu['focus-list-no-quiet'])}`,
              ]
            : []),
        `  same pages in every run (server log): ${cost.sameSet ? 'yes' : `no — ${cost.notes.join('; ')}`}`,
        ...(cost.breakdown
            ? [
                  `  crawlee-focus's own time per page (ms, wall, overlapping across the ${cost.concurrency} concurrent pages): ` +
                      Object.entries(cost.breakdown)
                          .map(([phase, ms]) => `${phase} ${ms.toFixed(1)}`)
                          .join(', '),
              ]
            : []),
    ].join('\n');
}
