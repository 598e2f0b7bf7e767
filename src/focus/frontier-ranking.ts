/**
 * How the frontier ranks a queued link: its link score under the current model, adjusted for what the trap learner
 * knows of its URL, and, for a link with no evidence, by what its directory's pages revealed so far.
 */
import { DiscoveryYield } from '../frontier/index.js';
import type { DiscoveryYieldJSON, TrapLearner } from '../frontier/index.js';
import type { Focus } from './focus.js';
import type { LinkSignal } from './link-score.js';

/** Demoted templates go behind every normally scored link, as the tiered queue serves them last. */
export const DEMOTED_TEMPLATE_FACTOR = 0.01;
/** The least rank of a link that is not failing: above the 0 of a failing one, below any link with evidence. */
export const UNPROVEN_SCORE = 1e-9;

/** What the ranking reads of a queued link. */
export interface RankableLink {
    url: string;
    /** The URL's template (`shapeKey`). */
    shape: string;
    /** Its scoring signal; null in a crawl without focus. */
    signal: LinkSignal | null;
}

export class FrontierRanking {
    /** New links the pages of each directory revealed: the order of links without evidence. */
    #discovery: DiscoveryYield;

    constructor(
        private readonly focus: Focus | null,
        private readonly trapLearner: TrapLearner,
        discovery?: DiscoveryYieldJSON,
    ) {
        this.#discovery = DiscoveryYield.fromJSON(discovery);
    }

    /** The current rank of a queued link, as the best-first queue orders it; 0 without focus. */
    rankOf(link: RankableLink): number {
        return link.signal && this.focus ? this.adjust(this.focus.score(link.signal), link.shape, link.url) : 0;
    }

    /** How exploration ranks a link into an unopened section: its evidence without the priors, traps still counted. */
    evidenceRankOf(link: RankableLink): number {
        return link.signal && this.focus ? this.adjust(this.focus.evidenceScore(link.signal), link.shape, link.url) : 0;
    }

    /**
     * A trap template's links keep a hundredth of their score: its pages load, and repeat what was read. A link whose
     * host, failure template or directory keeps failing scores 0, and every other link at least {@link UNPROVEN_SCORE}
     * (links with no evidence ranked above it by what their directory's pages revealed, `DiscoveryYield`),
     * so failing links come strictly last, not in a tie with links of no evidence: ranked by a hundredth of its score, a
     * failing link outranked the weak links once the good ones ran out, and the archetype crawl spent 38 of 100 fetches
     * on subdomains missing from the capture.
     */
    adjust(score: number, shape: string, url: string): number {
        if (this.trapLearner.isFailingUrl(url)) return 0;
        const demoted = this.trapLearner.isDemoted(shape); // the URL is not failing: its template alone
        const adjusted = demoted ? score * DEMOTED_TEMPLATE_FACTOR : score;
        if (adjusted > UNPROVEN_SCORE) return adjusted;
        // No evidence: what a fetch may still reveal ranks the link, within a band below every link with evidence. A
        // trap reveals new links without end, so its template gets no such rank.
        return demoted ? UNPROVEN_SCORE : UNPROVEN_SCORE * (1 + this.#discovery.rank(url));
    }

    /** A page (not a start page) revealed `revealed` links new to the crawl in its main content. */
    noteRevealed(pageUrl: string, revealed: number): void {
        this.#discovery.observe(pageUrl, revealed);
    }

    toJSON(): DiscoveryYieldJSON {
        return this.#discovery.toJSON();
    }
}
