import type { Focus, RecallEstimate, StopReason } from '../focus/index.js';
import type { PageTimings } from '../crawlee/timings.js';
import type { FailingPartInfo, RewriteRuleInfo, TrapInfo, TrapLearner } from '../frontier/index.js';
import type { DocumentCounts } from '../crawlee/documents.js';
import type { CurvePoint } from './harvest-curve.js';
import type { TopPage } from './top-pages.js';

/**
 * Why a crawl ended: the focus's own reasons, `stalled` when the watchdog found nothing moving (see watchdog.ts), or
 * `delivery-limit` when the `deliveryGate` refused a page (a pay-per-event Actor's charge limit).
 */
export type CrawlStopReason = StopReason | 'stalled' | 'delivery-limit';

/** Each stop reason in a sentence, as the summary and REPORT.html give it. */
export const STOP_REASONS: Record<CrawlStopReason, string> = {
    coverage_reached: 'The estimated recall reached its target: little relevant content is expected in what is left.',
    saturated: 'Recent pages brought no new relevant content, and the links left are expected to hold almost none.',
    no_relevant_pages: 'Nothing relevant was found in the first pages: the query may not match this site.',
    limit_reached: 'The page budget was spent.',
    exhausted: 'No links were left to follow.',
    cancelled: 'The crawl was stopped from outside (an abort, a migration or a signal).',
    stalled: 'Requests were pending but nothing moved; run it again to resume.',
    'delivery-limit': 'The delivery gate refused a page: on Apify, the run reached its charge limit.',
};

/** `FOCUS_REPORT`: what the crawl did and why it stopped. */
export interface FocusReport {
    /** The query as given (whitespace collapsed); null for a breadth-first crawl. `termEvidence` names its normalised terms. */
    query: string | null;
    stopReason: CrawlStopReason;
    /** Pages taken from the frontier (each counts once against `maxPages`, failed ones included, except those never sent: `not-sent`). */
    pagesFetched: number;
    /** Pages whose content was read and scored. */
    pagesProcessed: number;
    /** Pages delivered to the dataset. */
    relevantPages: number;
    harvestRate: number;
    coverage: number | null;
    /** Distinct relevant paragraphs per query term. */
    termEvidence: Record<string, number>;
    /** URL templates demoted by the trap learner: their pages repeat content. */
    traps: TrapInfo[];
    /** Hosts and failure templates (`keyword_*.html`) demoted because most of their fetches failed. */
    failing: FailingPartInfo[];
    /** Duplicate spellings learned as rewrite rules. */
    rewriteRules: RewriteRuleInfo[];
    /** Links not queued, by reason. */
    skipped: Record<string, number>;
    /** Pages that could not be read, by reason. */
    failures: Record<string, number>;
    /** Relevant pages not delivered because the same text was delivered under another URL. */
    duplicates: Array<{ url: string; duplicateOf: string }>;
    /** Links still queued when the crawl stopped. */
    frontierLeft: number;
    /**
     * Links the bounded frontier set aside (no room, or a dry subtree): `held` when the crawl stopped, and `refilled`,
     * queued again because the queue ran empty with budget left, or because a re-score made them outrank its worst.
     */
    reserve: { held: number; refilled: number };
    /**
     * Pages taken to explore sections of the site (a host's first directory) the crawl had not opened, and the
     * sections opened in all: by an exploration, by the section's entry, or by three of its pages (see
     * `EXPLORATION_SHARE` and `opensSection`).
     */
    exploration: { pages: number; sectionsOpened: number };
    /** Pages scored from a browser rendering and from plain HTTP by this process (adaptive mode has both). */
    rendering: {
        browser: number;
        http: number;
        /**
         * Rendered pages read at load, without waiting for a quiet DOM: their neighbourhood's pages had not changed
         * after load (absent in reports written before it was kept).
         */
        readAtLoad?: number;
    };
    /**
     * Documents by type (`pdf`, `docx`, …; `unknown` when the type could not be told): fetched, converted to Markdown,
     * and delivered as relevant. Those that could not be read are counted in `failures` by reason (`document-…`).
     */
    documents: DocumentCounts;
    /** Mean milliseconds per page of each phase crawlee-focus adds, in this process (see timings.ts). */
    timings: PageTimings;
    /**
     * Focused crawls: how much of the site's relevant content this crawl found, `{ value, low, high }` with the
     * relevant pages found and those expected behind the links it did not fetch (see src/focus/recall.ts).
     */
    estimatedRecall: RecallEstimate | null;
    /**
     * The estimated recall the adaptive stop rule agreed with when it fired (`coverage_reached`, `saturated`). Pages in
     * flight at that moment still land, so `estimatedRecall` may differ. Null when no rule of this process fired.
     */
    estimatedRecallAtStop: RecallEstimate | null;
    /** Relevant pages delivered against pages fetched, as the crawl went (at most 400 points; the last is the final count). */
    curve: CurvePoint[];
    /** The most relevant delivered pages, best first (20 at most). */
    topPages: TopPage[];
    /** The page budget (`maxPages`); null when there is none. */
    maxPages: number | null;
    elapsedMillis: number;
    /**
     * A crawl shared by several workers through Redis: the whole crawl's counters when this worker ended (the other
     * figures of the report are this worker's own, `pagesFetched` included). Absent for a crawl in one process.
     */
    sharedCrawl?: SharedCrawlSummary;
}

/** One worker's part in a shared crawl. */
export interface SharedWorkerSummary {
    /** Its name in the store's leases. */
    id: string;
    /** Requests it took, retries included (the crawl's pages are `charged`). */
    requests: number;
    /** Pages it delivered to its own dataset. */
    delivered: number;
    /** Pages of other workers its learners replayed from the crawl's log. */
    replayed: number;
}

/** What every worker of a shared crawl sees of it, read from the shared store. */
export interface SharedCrawlSummary {
    crawlId: string;
    /** What this worker did; the rest of the report is the whole crawl's, the same for every worker. */
    worker: SharedWorkerSummary;
    /** Distinct pages charged to the budget, by all workers. */
    charged: number;
    budget: number | null;
    done: number;
    failed: number;
    /** Leases of dead or stalled workers taken back and handed out again. */
    reclaimed: number;
    /** Commits refused because another worker owned the page by then: pages fetched twice, delivered once. */
    stale: number;
    /** Pages a worker committed and died before writing, delivered by another worker instead. */
    redelivered: number;
    queued: number;
    leased: number;
}

/** What {@link buildReport} reads: the report's own counts, and the learners it summarises. */
export type ReportInput = Omit<FocusReport, 'harvestRate' | 'coverage' | 'termEvidence' | 'estimatedRecallAtStop' | 'traps' | 'failing' | 'rewriteRules' | 'maxPages'> & {
    focus: Focus | null;
    trapLearner: TrapLearner;
    /** `Infinity` without a budget. */
    maxPages: number;
};

export function buildReport(input: ReportInput): FocusReport {
    const summary = input.focus?.summary();
    const { focus: _focus, trapLearner, maxPages, ...counts } = input;
    return {
        ...counts,
        harvestRate: input.pagesProcessed > 0 ? input.relevantPages / input.pagesProcessed : 0,
        coverage: summary?.coverage ?? null,
        termEvidence: summary?.termEvidence ?? {},
        estimatedRecallAtStop: summary?.stopEstimate ?? null,
        traps: trapLearner.traps(),
        failing: trapLearner.failingParts(),
        rewriteRules: trapLearner.rules(),
        maxPages: Number.isFinite(maxPages) ? maxPages : null,
    };
}

/** A short human summary of a report. */
export function formatReport(report: FocusReport): string {
    const lines = [
        `crawlee-focus: ${report.query ? `"${report.query}"` : 'breadth-first crawl'} stopped: ${report.stopReason}`,
        `  pages fetched ${report.pagesFetched}, relevant ${report.relevantPages}, harvest ${(report.harvestRate * 100).toFixed(1)} %` +
            (report.coverage === null ? '' : `, coverage ${(report.coverage * 100).toFixed(0)} %`),
    ];
    const estimate = report.estimatedRecall;
    if (estimate) lines.push(`  estimated recall ${formatRecall(estimate)}: ${estimate.found} relevant found, ${estimate.expectedQueued.toFixed(1)} expected behind queued links, ${estimate.expectedDropped.toFixed(1)} behind dropped ones`);
    const atStop = report.estimatedRecallAtStop;
    if (atStop) lines.push(`  when the stop rule fired: estimated recall ${formatRecall(atStop)}, ${atStop.found} relevant found (pages in flight then finished after it)`);
    const evidence = Object.entries(report.termEvidence);
    if (evidence.length > 0) lines.push(`  evidence per term: ${evidence.map(([t, n]) => `${t} ${n}`).join(', ')}`);
    if (report.traps.length > 0) lines.push(`  traps demoted: ${report.traps.map((t) => t.shape).join(', ')}`);
    if (report.failing.length > 0) lines.push(`  failing parts demoted: ${report.failing.map((f) => `${f.part} (${f.failed}/${f.fetched} failed)`).join(', ')}`);
    if (report.rewriteRules.length > 0) lines.push(`  rewrite rules: ${report.rewriteRules.map(describeRule).join(', ')}`);
    const skipped = Object.entries(report.skipped);
    if (skipped.length > 0) lines.push(`  links skipped: ${skipped.map(([r, n]) => `${r} ${n}`).join(', ')}`);
    const failures = Object.entries(report.failures);
    if (failures.length > 0) lines.push(`  pages failed: ${failures.map(([r, n]) => `${r} ${n}`).join(', ')}`);
    // Adaptive mode's split, so that a user sees what it rendered (one mode alone needs no line).
    if (report.rendering.browser > 0 && report.rendering.http > 0) lines.push(`  rendering: ${report.rendering.browser} pages rendered in Chromium, ${report.rendering.http} read over plain HTTP`);
    if (report.rendering.readAtLoad) lines.push(`  rendered pages read at load (their kind does not change after it): ${report.rendering.readAtLoad} of ${report.rendering.browser}`);
    if (report.exploration.pages > 0) lines.push(`  exploration: ${report.exploration.pages} pages into sections not opened before (${report.exploration.sectionsOpened} sections opened in all)`);
    if (report.duplicates.length > 0) lines.push(`  duplicates not delivered: ${report.duplicates.length}`);
    const shared = report.sharedCrawl;
    if (shared) {
        lines.push(
            `  shared crawl "${shared.crawlId}" (all workers): ${shared.charged}/${shared.budget ?? '∞'} pages charged, ${shared.done} done, ${shared.failed} failed, ` +
                `${shared.reclaimed} reclaimed from dead workers, ${shared.stale} stale; the figures above are the whole crawl's`,
            `  this worker (${shared.worker.id}): ${shared.worker.requests} requests, ${shared.worker.delivered} delivered to its dataset, ` +
                `${shared.worker.replayed} pages of other workers learned from`,
        );
    }
    return lines.join('\n');
}

/** `0.82 [0.70–0.91]`: the estimate and its interval, as the progress line and the summary show it. */
export function formatRecall(estimate: RecallEstimate): string {
    return `${estimate.value.toFixed(2)} [${estimate.low.toFixed(2)}–${estimate.high.toFixed(2)}]`;
}

/** What a rewrite rule drops, in a few words: `drop ?sid`, `drop /index.html`. */
export function ruleAction(rule: RewriteRuleInfo): string {
    const what =
        rule.kind === 'drop-trailing-segment'
            ? `/${rule.segment}`
            : rule.kind === 'drop-extension'
              ? `${rule.extension} from page names`
              : rule.kind === 'drop-param'
                ? `?${rule.name}`
                : `?${rule.name}=${rule.value}`;
    return `drop ${what}`;
}

function describeRule(rule: RewriteRuleInfo): string {
    return `${rule.host}: ${ruleAction(rule)}`;
}
