/**
 * Which pages adaptive mode renders: a memory, per URL template, per directory and per host, of the pages whose
 * plain-HTTP fetch gave what the browser gave (static) and of those it did not (client-only).
 *
 * Crawlee's own predictor is a logistic regression over URL components trained on its detections; on acl2020 it
 * learned "static" from the paper pages and then fetched the JavaScript-built paper lists over HTTP, which hold no
 * paper links, so the crawl found nothing (recall 0.00 against 1.00 in the browser). Here a page is fetched over HTTP
 * only where its own neighbourhood has shown only static pages, and every new neighbourhood on a site that has any
 * script-built page is rendered and checked first: a wrong "static" loses links for good, a wrong "client-only" costs
 * one render.
 */
import { urlShape } from '../url/index.js';

/** Crawlee's rendering types. */
export type RenderingType = 'clientOnly' | 'static';

export interface RenderingPrediction {
    renderingType: RenderingType;
    /** Probability that Crawlee renders the page and fetches it over HTTP too, to compare (a detection). */
    detectionProbabilityRecommendation: number;
}

/** Least share of pages checked, however settled their neighbourhood ([I]: drift is rare; one page in twenty). */
export const MIN_DETECTION = 0.05;

/**
 * The chance that the next page of a neighbourhood renders unlike the `n` pages seen there, all alike: Laplace's rule
 * of succession, 1 / (n + 2). A page predicted static is checked (rendered too) with this probability.
 */
export function successionDetection(n: number): number {
    return Math.max(MIN_DETECTION, 1 / (n + 2));
}

interface Tally {
    static: number;
    clientOnly: number;
}

type Level = 'template' | 'directory' | 'host';
/** A URL's neighbourhoods, nearest first. */
const LEVELS: readonly Level[] = ['template', 'directory', 'host'];

/** The URL's neighbourhoods: its URL template, its directory and its host, each as a key; null if it does not parse. */
export function neighbourhoodsOf(url: string): Record<Level, string> | null {
    if (!URL.canParse(url)) return null;
    const { host, pathname } = new URL(url);
    return {
        template: `t ${urlShape(url)}`,
        directory: `d ${host.toLowerCase()}${pathname.slice(0, pathname.lastIndexOf('/') + 1)}`,
        host: `h ${host.toLowerCase()}`,
    };
}

/**
 * The neighbourhoods of one kind of page, nearest first: its URL template, and its directory unless that is the
 * site's root. A directory below the root holds pages of one kind (`/events/`); the root holds the home, the lists
 * and the about pages alike, and on a flat site every page.
 */
export function kindNeighbourhoodsOf(url: string): string[] {
    const keys = neighbourhoodsOf(url);
    if (!keys) return [];
    return new URL(url).pathname.lastIndexOf('/') > 0 ? [keys.template, keys.directory] : [keys.template];
}

/**
 * The neighbourhoods a thin page's comparison speaks for (`looksThin` in rendering.ts): those of its kind. [I] On
 * acl2020 a filter page whose data file was missing rendered as thin as it was over HTTP, and the paper list beside it
 * was then believed over HTTP: the crawl found none of its papers.
 */
function thinKeysOf(url: string): string[] {
    return kindNeighbourhoodsOf(url).map((key) => `thin ${key}`);
}

/**
 * How long a check of a host counts as still in flight when its result never comes (an inconclusive comparison, a
 * failed fetch): longer than a navigation's timeout (30 s) and the quiet-DOM wait together.
 */
export const CHECK_PENDING_MILLIS = 60_000;

/** Plugs into AdaptivePlaywrightCrawler as `renderingTypePredictor`. Lives in memory: a resumed crawl learns again. */
export class TemplateRenderingPredictor {
    readonly #tallies = new Map<string, Tally>();
    /** Neighbourhood key → pages believed over plain HTTP that it served in full (not thin): evidence short of a check. */
    readonly #servedInFull = new Map<string, number>();
    /** Host key → when its check of a page predicted static was drawn; cleared when a result is stored. */
    readonly #pendingChecks = new Map<string, number>();

    /**
     * @param random Draws the checks (Crawlee draws its detections with Math.random too).
     * @param now The clock pending checks expire on.
     */
    constructor(
        private readonly random: () => number = Math.random,
        private readonly now: () => number = Date.now,
    ) {}

    async initialize(): Promise<void> {}

    /**
     * Crawlee's call. A page predicted static is checked (rendered and fetched over HTTP too) with the probability
     * {@link recommend} gives, drawn here, and only while no other check of its host is in flight: the succession rule
     * counts evidence one page at a time, and with ten pages in flight ten checks would be drawn on the same stale
     * count (helper's timeline on stanford-cs: 11–12 of 13 renders were checks, about √(2n) for n pages).
     */
    predict(request: { url: string; loadedUrl?: string }): RenderingPrediction {
        const recommended = this.recommend(request);
        if (recommended.renderingType !== 'static') return recommended;
        const host = neighbourhoodsOf(request.loadedUrl ?? request.url)!.host;
        const now = this.now();
        const pendingSince = this.#pendingChecks.get(host);
        const checked = (pendingSince === undefined || now - pendingSince >= CHECK_PENDING_MILLIS) && this.random() < recommended.detectionProbabilityRecommendation;
        if (checked) this.#pendingChecks.set(host, now);
        return { renderingType: 'static', detectionProbabilityRecommendation: checked ? 1 : 0 };
    }

    /** The rendering a page's neighbourhood recommends, and how likely a page predicted static should be checked. */
    recommend(request: { url: string; loadedUrl?: string }): RenderingPrediction {
        const keys = neighbourhoodsOf(request.loadedUrl ?? request.url);
        if (!keys) return { renderingType: 'clientOnly', detectionProbabilityRecommendation: 0 };
        // A host whose every page so far was static: each of them, whatever its template, is evidence for this one, so
        // the succession rule counts them all (a template's own few pages would ask for far more checks).
        const host = this.#tallies.get(keys.host);
        if (host && host.static > 0 && host.clientOnly === 0) {
            return { renderingType: 'static', detectionProbabilityRecommendation: successionDetection(this.#alike(keys.host, host)) };
        }
        for (const level of LEVELS) {
            const tally = this.#tallies.get(keys[level]);
            if (!tally || tally.static + tally.clientOnly === 0) continue;
            if (tally.clientOnly === 0) return { renderingType: 'static', detectionProbabilityRecommendation: successionDetection(this.#alike(keys[level], tally)) };
            // Rendered anyway: a check costs one plain-HTTP fetch more, so a neighbourhood not yet known for sure (mixed,
            // or known only by its host) is always checked.
            const known = tally.static === 0 && level !== 'host';
            return { renderingType: 'clientOnly', detectionProbabilityRecommendation: known ? successionDetection(tally.clientOnly) : 1 };
        }
        return { renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 };
    }

    /**
     * Whether a thin page fetched over plain HTTP is to be rendered and compared before it is believed. The nearest
     * neighbourhood with compared thin pages ({@link thinKeysOf}) decides: none yet, or one that was script-built, and
     * it is rendered; only static ones, and it is checked by the succession rule. A site's short static pages (a tenth
     * of stanford-cs, each its own URL template, most in a few directories) then cost a few renders, not one each.
     */
    shouldRenderThin(request: { url: string; loadedUrl?: string }): boolean {
        for (const key of thinKeysOf(request.loadedUrl ?? request.url)) {
            const tally = this.#tallies.get(key);
            if (!tally) continue;
            return tally.clientOnly > 0 || this.random() < successionDetection(tally.static);
        }
        return true;
    }

    storeResult(requests: { url: string; loadedUrl?: string } | Array<{ url: string; loadedUrl?: string }>, renderingType: RenderingType): void {
        for (const request of Array.isArray(requests) ? requests : [requests]) {
            const keys = neighbourhoodsOf(request.loadedUrl ?? request.url);
            if (!keys) continue;
            this.#pendingChecks.delete(keys.host);
            this.#count(Object.values(keys), renderingType);
        }
    }

    /**
     * A page predicted static, not checked, whose plain-HTTP fetch was believed: it was no shell and not thin, so
     * HTTP served a page in full. The succession rule counts it with the checked pages of its neighbourhoods. Counting
     * checks alone, evidence grew only as fast as checks finished, one at a time per host, and the next check came
     * after about n + 2 pages: √(2N) checks for N pages, back to back (13 renders in 100 stanford-cs pages, each
     * 1.5–3 s, which set the crawl's wall time). Counted, checks fall off as the rule says, to its floor.
     */
    noteServedInFull(request: { url: string; loadedUrl?: string }): void {
        const keys = neighbourhoodsOf(request.loadedUrl ?? request.url);
        if (!keys) return;
        for (const key of Object.values(keys)) this.#servedInFull.set(key, (this.#servedInFull.get(key) ?? 0) + 1);
    }

    /** Pages of a neighbourhood known to render alike, all static: its checked pages and those HTTP served in full. */
    #alike(key: string, tally: Tally): number {
        return tally.static + (this.#servedInFull.get(key) ?? 0);
    }

    /** A thin page rendered after its plain-HTTP fetch, and how the two compared: for all pages and for thin ones. */
    storeThinResult(request: { url: string; loadedUrl?: string }, renderingType: RenderingType): void {
        this.storeResult(request, renderingType);
        this.#count(thinKeysOf(request.loadedUrl ?? request.url), renderingType);
    }

    #count(keys: Iterable<string>, renderingType: RenderingType): void {
        for (const key of keys) {
            const tally = this.#tallies.get(key) ?? { static: 0, clientOnly: 0 };
            tally[renderingType] += 1;
            this.#tallies.set(key, tally);
        }
    }
}
