import { DEFAULT_DELTA } from '../stat/index.js';
import { dedupKey, failureShape, hostOrNull, shapeKey, urlShape } from '../url/index.js';
import { CatchAllPages, type CatchAllPagesJSON } from './catch-all.js';
import { FailureLedger } from './failure-ledger.js';
import type { FailureLedgerJSON } from './failure-ledger.js';
import { textPrints } from './fingerprint.js';
import type { TextPrints } from './fingerprint.js';
import {
    RewriteRuleLearner,
    type RewriteRuleInfo,
    type RewriteRuleLearnerJSON,
} from './rewrite-rules.js';

/** How a fetched page relates to the pages fetched before it. */
export type Seen =
    | { kind: 'new' }
    /** The main text is identical to the page first fetched at `of`. */
    | { kind: 'duplicate'; of: string }
    /** The text differs from an earlier page of the same URL template only in digits. */
    | { kind: 'templated' }
    /** The text is the site's catch-all page, an error page served with 200 (see catch-all.ts): the fetch failed. */
    | { kind: 'soft-404'; of: string };

/** A URL template that is currently demoted. */
export interface TrapInfo {
    shapeKey: string;
    shape: string;
    fetched: number;
    repeated: number;
}

/** A host is failing only when every one of its (at least `minFetched`) fetches failed. */
const ALL_FAILED = 1;

/** A host or failure template (`failureShape`) demoted because most of its fetches failed. */
export interface FailingPartInfo {
    /** The host, or the failure template (`keyword_*.html`). */
    part: string;
    fetched: number;
    failed: number;
}

/**
 * Answers whether a URL template is demoted (given the URL too, also for failing where it lives); `generation` changes
 * whenever an answer may have.
 */
export interface DemotionSource {
    isDemoted(shapeKey: string, url?: string): boolean;
    readonly generation: number;
}

export interface TrapLearnerOptions {
    /**
     * Pages of a template that must be fetched before it can be demoted.
     * @default 3
     */
    minFetched?: number;
    /**
     * A template is demoted while the share of its pages that were duplicate or templated
     * exceeds this.
     * @default 0.5
     */
    repeatedShare?: number;
    /**
     * Error rate of the rewrite-rule test (see `ruleSupport`).
     * @default 0.05
     */
    delta?: number;
}

interface TemplateStats {
    shape: string;
    fetched: number;
    repeated: number;
    /** Fingerprints of the texts of this template's pages with digits removed. */
    skeletons: Set<number>;
}

export interface TrapLearnerJSON {
    minFetched: number;
    repeatedShare: number;
    generation: number;
    /** Text fingerprint → URL of the first page with that text. */
    pages: [number, string][];
    templates: { shapeKey: string; shape: string; fetched: number; repeated: number; skeletons: number[] }[];
    /** Fetches and failures per host and per failure template (absent before failures were learned). */
    failures?: { hosts: FailureLedgerJSON; templates: FailureLedgerJSON; directories?: FailureLedgerJSON };
    /** Repeated texts and the catch-all pages among them (absent before soft 404s were learned). */
    catchAll?: CatchAllPagesJSON;
    rules: RewriteRuleLearnerJSON;
}

/**
 * Per-crawl memory of fetched pages that finds URL traps: templates (URL shapes) whose pages keep
 * repeating content are demoted, so a queue fetches them only after all normal work. Demotion is
 * reversible: a template that later yields new content is restored. Identical pages also teach the
 * {@link RewriteRuleLearner} which URL spellings are the same page.
 *
 * Demotion uses the point share rather than a Wilson lower bound: demotion only defers URLs and is
 * undone by new content, while a Wilson bound at δ = 0.05 would fetch seven (one-sided) or eight
 * (two-sided) pages of every calendar or pagination trap before acting, instead of three.
 *
 * Memory: one fingerprint and one URL per page with new text, and one skeleton per template page.
 */
export class TrapLearner implements DemotionSource {
    readonly minFetched: number;
    readonly repeatedShare: number;
    private generationCount = 0;
    private readonly firstUrlByText = new Map<number, string>();
    private readonly templates = new Map<string, TemplateStats>();
    private readonly demoted = new Set<string>();
    /** Hosts (`hostOf`) and failure templates (`failureShape`) whose fetches keep failing. */
    private failingHosts: FailureLedger;
    private failingTemplates: FailureLedger;
    /** Directory templates (`directoryShape`) most of whose pages were soft 404s: the error page lives under any name there. */
    private failingDirectories: FailureLedger;
    private ruleLearner: RewriteRuleLearner;
    private catchAll = new CatchAllPages();

    constructor(options: TrapLearnerOptions = {}) {
        this.minFetched = options.minFetched ?? 3;
        this.repeatedShare = options.repeatedShare ?? 0.5;
        this.ruleLearner = new RewriteRuleLearner({ delta: options.delta ?? DEFAULT_DELTA });
        this.failingHosts = new FailureLedger(this.minFetched, ALL_FAILED);
        this.failingTemplates = new FailureLedger(this.minFetched, this.repeatedShare);
        this.failingDirectories = new FailureLedger(this.minFetched, this.repeatedShare);
    }

    /** Bumped on every demotion and restoration, so queues know when to re-sort. */
    get generation(): number {
        return this.generationCount;
    }

    /** Classifies a fetched page by its main text and updates its template's statistics. */
    observe(url: string, text: string): Seen {
        return this.observePrints(url, textPrints(text));
    }

    /** {@link observe} from the text's fingerprints (all it keeps of the text), e.g. for a page another worker read. */
    observePrints(url: string, prints: TextPrints): Seen {
        const key = shapeKey(url);
        let stats = this.templates.get(key);
        if (!stats) {
            stats = { shape: urlShape(url), fetched: 0, repeated: 0, skeletons: new Set() };
            this.templates.set(key, stats);
        }
        const seen = this.softened(url, prints.exact, this.classify(url, prints, stats));
        stats.fetched += 1;
        if (seen.kind !== 'new') stats.repeated += 1;
        this.updateDemotion(key, stats);
        // A soft 404 is a failed fetch of its failure template and its directory; its host answered.
        const soft404 = seen.kind === 'soft-404';
        this.recordFetch(url, false, soft404);
        const directory = safely(directoryShape, url);
        if (directory !== null && this.failingDirectories.record(directory, soft404)) this.generationCount += 1;
        return seen;
    }

    /** A duplicate whose text is the site's catch-all page is a soft 404, and so were the earlier fetches it reveals. */
    private softened(url: string, fingerprint: number, seen: Seen): Seen {
        if (seen.kind !== 'duplicate') return seen;
        const revealed = this.catchAll.observeRepeat(fingerprint, url, seen.of);
        let changed = false;
        for (const earlier of revealed) {
            const template = safely(failureShape, earlier);
            if (template !== null && this.failingTemplates.reclassifyAsFailed(template)) changed = true;
            const directory = safely(directoryShape, earlier);
            if (directory !== null && this.failingDirectories.reclassifyAsFailed(directory)) changed = true;
        }
        if (changed) this.generationCount += 1;
        return this.catchAll.isCatchAll(fingerprint) ? { kind: 'soft-404', of: seen.of } : seen;
    }

    /**
     * Counts a fetch of `url` that failed (an error status, a timeout, a dropped connection). A failing fetch brings no
     * content, as a repeated page brings none: a failure template (`failureShape`: `keyword_*.html`) most of whose
     * fetches fail is demoted like a trap, and so is a host none of whose fetches succeeded (a subdomain that is down,
     * or missing from a capture, fails under every template); both are restored when their fetches succeed again. A
     * host with a failing template among working ones is not failing: its template is.
     *
     * @param ofHost The failure is the host's, not the page's: its name does not resolve, it refuses connections, or a
     *   gateway cannot reach it (502, 504). One such failure fails a host none of whose fetches succeeded, so links to a
     *   subdomain that is down or missing from a capture sink after one page, not three.
     */
    observeFailure(url: string, ofHost = false): void {
        this.recordFetch(url, ofHost ? 'decisive' : true, true);
    }

    /** Whether every fetch of the URL's host has failed (a failure there is not worth retrying either). */
    isFailingHost(url: string): boolean {
        const host = hostOrNull(url);
        return host !== null && this.failingHosts.isFailing(host);
    }

    /** Whether any fetch on the host (as `hostOf` names it) succeeded. */
    hasSucceededOnHost(host: string): boolean {
        return this.failingHosts.hasSucceeded(host);
    }

    /** The hosts and failure templates demoted for failing. */
    failingParts(): FailingPartInfo[] {
        const ledgers = [this.failingHosts, this.failingTemplates, this.failingDirectories];
        return ledgers.flatMap((ledger) => ledger.failingParts()).map(({ key, fetched, failed }) => ({ part: key, fetched, failed }));
    }

    private recordFetch(url: string, hostFailed: boolean | 'decisive', templateFailed: boolean): void {
        const host = hostOrNull(url);
        const template = safely(failureShape, url);
        let changed = host !== null && (hostFailed === 'decisive' ? this.failingHosts.recordDecisive(host) : this.failingHosts.record(host, hostFailed));
        if (template !== null && this.failingTemplates.record(template, templateFailed)) changed = true;
        if (changed) this.generationCount += 1;
    }

    /** Whether the URL's host, failure template or directory is failing: its fetch is all but certain to fail. */
    isFailingUrl(url: string): boolean {
        if (this.isFailingHost(url)) return true;
        const template = safely(failureShape, url);
        if (template !== null && this.failingTemplates.isFailing(template)) return true;
        const directory = safely(directoryShape, url);
        return directory !== null && this.failingDirectories.isFailing(directory);
    }

    /**
     * Counts the page last observed at `url`, classified `new`, as repeated content after all: the caller found it
     * to be a near-duplicate of an earlier page, which an exact fingerprint cannot see.
     */
    markRepeated(url: string): void {
        const key = shapeKey(url);
        const stats = this.templates.get(key);
        if (!stats || stats.repeated >= stats.fetched) return;
        stats.repeated += 1;
        this.updateDemotion(key, stats);
    }

    isDemoted(shapeKey: string, url?: string): boolean {
        return this.demoted.has(shapeKey) || (url !== undefined && this.isFailingUrl(url));
    }

    isDemotedUrl(url: string): boolean {
        return (this.demoted.size > 0 && this.demoted.has(shapeKey(url))) || this.isFailingUrl(url);
    }

    /** Applies the learned rewrite rules of the URL's host to a cleaned URL. */
    rewrite(url: string): string {
        return this.ruleLearner.rewrite(url);
    }

    /** The dedup key of a cleaned URL under the learned rules: one key for every known spelling of the page. */
    keyOf(url: string): string {
        return dedupKey(this.ruleLearner.pageForm(url));
    }

    /** Rewrite rules learned so far; keys from {@link keyOf} taken before it last changed may be stale. */
    get ruleCount(): number {
        return this.ruleLearner.ruleCount;
    }

    rules(): RewriteRuleInfo[] {
        return this.ruleLearner.rules();
    }

    traps(): TrapInfo[] {
        return [...this.demoted].map((key) => {
            const { shape, fetched, repeated } = this.templates.get(key) as TemplateStats;
            return { shapeKey: key, shape, fetched, repeated };
        });
    }

    toJSON(): TrapLearnerJSON {
        return {
            minFetched: this.minFetched,
            repeatedShare: this.repeatedShare,
            generation: this.generationCount,
            pages: [...this.firstUrlByText],
            templates: [...this.templates].map(([key, { shape, fetched, repeated, skeletons }]) => ({
                shapeKey: key,
                shape,
                fetched,
                repeated,
                skeletons: [...skeletons],
            })),
            failures: { hosts: this.failingHosts.toJSON(), templates: this.failingTemplates.toJSON(), directories: this.failingDirectories.toJSON() },
            catchAll: this.catchAll.toJSON(),
            rules: this.ruleLearner.toJSON(),
        };
    }

    static fromJSON(json: TrapLearnerJSON): TrapLearner {
        const learner = new TrapLearner({
            minFetched: json.minFetched,
            repeatedShare: json.repeatedShare,
            delta: json.rules.delta,
        });
        learner.ruleLearner = RewriteRuleLearner.fromJSON(json.rules);
        for (const [fingerprint, url] of json.pages) learner.firstUrlByText.set(fingerprint, url);
        for (const { shapeKey: key, shape, fetched, repeated, skeletons } of json.templates) {
            const stats = { shape, fetched, repeated, skeletons: new Set(skeletons) };
            learner.templates.set(key, stats);
            if (learner.shouldDemote(stats)) learner.demoted.add(key);
        }
        if (json.failures) {
            learner.failingHosts = FailureLedger.fromJSON(json.failures.hosts, learner.minFetched, ALL_FAILED);
            learner.failingTemplates = FailureLedger.fromJSON(json.failures.templates, learner.minFetched, learner.repeatedShare);
            learner.failingDirectories = FailureLedger.fromJSON(json.failures.directories ?? [], learner.minFetched, learner.repeatedShare);
        }
        learner.catchAll = CatchAllPages.fromJSON(json.catchAll);
        learner.generationCount = json.generation;
        return learner;
    }

    private classify(url: string, { exact: fingerprint, skeleton }: TextPrints, stats: TemplateStats): Seen {
        const original = this.firstUrlByText.get(fingerprint);
        if (original !== undefined) {
            this.ruleLearner.observeDuplicate(url, original);
            return { kind: 'duplicate', of: original };
        }
        this.firstUrlByText.set(fingerprint, url);
        if (stats.skeletons.has(skeleton)) return { kind: 'templated' };
        stats.skeletons.add(skeleton);
        return { kind: 'new' };
    }

    private shouldDemote({ fetched, repeated }: TemplateStats): boolean {
        return fetched >= this.minFetched && repeated > this.repeatedShare * fetched;
    }

    private updateDemotion(key: string, stats: TemplateStats): void {
        const demote = this.shouldDemote(stats);
        if (demote === this.demoted.has(key)) return;
        if (demote) this.demoted.add(key);
        else this.demoted.delete(key);
        this.generationCount += 1;
    }
}

/** The template of the directory a URL is in (`failureShape` of that directory): `h/guide/3/x.html` → `h/guide/#/`. */
function directoryShape(url: string): string {
    return failureShape(new URL('.', url));
}

/** `parse(url)`, or null for a URL that cannot be parsed. */
function safely(parse: (url: string) => string, url: string): string | null {
    try {
        return parse(url);
    } catch {
        return null;
    }
}
