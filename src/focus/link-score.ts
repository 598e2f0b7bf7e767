/**
 * Link score: how much of the query the link's anchor, URL words and surrounding line cover (under
 * the current term weights), how relevant the page holding it is, and what the URL's shape says;
 * decayed by depth.
 *
 *   base  = w_anchor·cov(anchor) + w_url·cov(URL words) + w_context·cov(context)
 *         + w_parent·parentRelevance + w_phrase·[anchor has ≥ 2 query terms]
 *         + w_locality·locality(template, directory)
 *   score = floors(factors(base)) · DEPTH_DECAY^depth
 *
 * The w are the link model's weights in use (prior: 2.0, 1.5, 1.0, 0.5, 0.5, 1.0). Everything the score
 * needs is kept in a plain-JSON {@link LinkSignal}, so a whole queue can be re-scored when the term
 * or model weights move, without re-reading pages.
 */
import { DATED_FACTOR, FURNITURE_FACTOR } from './furniture.js';
import type { Locality, LocalityKeys } from './locality.js';
import type { SectionKind } from './url-shape.js';
import type { TermWeights } from './weights.js';

/** Score decay per level of depth: at 0.8 depth-1 portal pages beat content two levels down; 0.9 leaves the anchor in charge (pagesift focus/mod.rs). */
export const DEPTH_DECAY = 0.9;
/** Factor on the parent relevance passed to the links of a hub page, which links more than it says (pagesift focus/mod.rs). */
export const HUB_FACTOR = 0.5;
/** Score floor of the English home of a non-English site for an English query: no query term, but all English content is behind it (pagesift focus/mod.rs). */
export const LANGUAGE_PORTAL_SCORE = 0.6;
/** Score floor of a section entry or sub-site root ([I]: pagesift's constant was cut off; kept below the language portal). */
export const SECTION_SCORE = 0.35;
/** Score factor of a link into another language's part of the site ([I]: pagesift's value not visible; treated like furniture). */
export const FOREIGN_FACTOR = 0.2;
/** Fixed score of a seed: above any link score, so seeds are fetched first (the prior weights sum to 5.5). */
export const SEED_SCORE = 1000;

/** Everything a link's score depends on, stored with its queue entry. Plain JSON. */
export interface LinkSignal {
    /** Query terms in the anchor text (bit i = term i). */
    anchorTerms: number;
    /** Query terms in the URL words. */
    urlTerms: number;
    /** Query terms in the line around the link. */
    contextTerms: number;
    /** Relevance of the page holding the link, 0…1, already halved when that page is a hub. */
    parentRelevance: number;
    /** The anchor holds two or more query terms. */
    phrase: boolean;
    /** The link leads to site furniture (news, about, legal, tags…). */
    furniture: boolean;
    /** The link leads to an article filed under a date path. */
    dated: boolean;
    /** The link leads into another language's part of the site (query in English). */
    foreign: boolean;
    /** The link enters a section or a sub-site root. */
    section: SectionKind | null;
    /** The link looks like the English home of the site. */
    languagePortal: boolean;
    /** Depth of the link target (seed = 0). */
    depth: number;
    /** Template and directory of the target, for the sibling-locality feature; null when not scored by features. */
    locality: LocalityKeys | null;
    /**
     * The target's own name (the last path segment) holds a number: one page of a series that shares its URL template
     * (`/news/440.html`, `/item/17`). A dated slug (`/2024/03/lunar-new-year`) is a template of its own.
     */
    templated?: boolean;
    /** A directly given score (seeds): no features, never used for learning. */
    fixed?: number;
    /**
     * The link continues a listing (see listing.ts): the signal of the best item link on the page it was found on. The
     * link is worth at least that item one hop further away.
     */
    continues?: LinkSignal;
}

/** What the score depends on besides the signal: the current weights and crawl state. */
export interface LinkScoreWeights {
    /** Site-local query term weights. */
    terms: TermWeights;
    /** Link model weights in use, in `LINK_FEATURES` order. */
    model: readonly number[];
    /** The English home has not been found yet, so the language-portal floor still applies. */
    englishHomeOpen: boolean;
    /**
     * Yield of URL templates and directories so far.
     * @default none (the locality feature is 0)
     */
    locality?: Locality;
    /**
     * Share of the query covered by relevant content so far (`AdaptiveSummary.coverage`), 0…1: the
     * section floor shrinks as it grows.
     * @default 0 (nothing found yet: the floor applies in full)
     */
    coverage?: number;
}

/** True when the signal carries no sign of the query in anchor, URL words or context. */
export function isBlind(signal: LinkSignal): boolean {
    return signal.fixed === undefined && (signal.anchorTerms | signal.urlTerms | signal.contextTerms) === 0;
}

/** The model features of a link: coverage of anchor, URL words and context, parent relevance, phrase indicator, locality. */
export function linkFeatures(signal: LinkSignal, terms: TermWeights, locality?: Locality): number[] {
    return [
        terms.coverage(signal.anchorTerms),
        terms.coverage(signal.urlTerms),
        terms.coverage(signal.contextTerms),
        signal.parentRelevance,
        signal.phrase ? 1 : 0,
        signal.locality && locality ? locality.estimate(signal.locality) : 0,
    ];
}

/**
 * A demotion is a prior about what URLs of that kind usually hold (news, dated posts, other languages); where this
 * crawl's own pages say the link's URL template pays off, the evidence replaces it. The factor rises towards 1 with
 * the template's centred yield (`Locality.templateEstimate`): a template two of whose two pages were productive lifts
 * a furniture link from 0.2 to 0.6. The template's own pages, not its directory's: on a flat site (acl2020) every page
 * shares the root directory, and the papers' yield would lift `/about.html` too. [I] On openehr the posts a query wanted sat under `/news_events/` and kept a fifth of their score
 * while one post after another paid off.
 */
export function provenDemotion(demotion: number, locality: number): number {
    return demotion + (1 - demotion) * Math.min(1, Math.max(0, 2 * locality));
}

/**
 * A demotion is a prior, and a prior this crawl has never tested is tested once: a demoted link into a series of pages
 * (its own name is a number, so its URL template has siblings) of which no page has been fetched keeps its own score,
 * so the best-evidenced link of the series is fetched when its anchor and URL earn it; from then on the series' own
 * yield decides (`provenDemotion`). A literal URL (`/about.html`, `/news/`) is its own template and stays demoted.
 * [I] Without it, posts announcing exactly the query's subject, under a news section, kept a fifth of their score
 * and never got room in the frontier.
 */
export function isUntestedSeries(signal: LinkSignal, locality: Locality | undefined): boolean {
    return signal.templated === true && signal.locality !== null && locality !== undefined && locality.templatePages(signal.locality) === 0;
}

/**
 * The score of a link under the current weights. Order [I]: factors, then floors, then depth decay.
 * Demotions do not stack (the strongest applies: a dated news article is one reason, not two), and a
 * demoted link gets no floor, otherwise `/news/` with the anchor "News" would be lifted back as a section.
 *
 * The section floor is for tunnels: while nothing relevant has been read, an entry into a part of
 * the site is a better bet than a random link. Once relevant content covers the query, links carry
 * evidence of their own (anchor, locality, parent), so the floor shrinks with the coverage
 * ([I] measured on stanford-cs: a fixed floor sent the last third of a 50-page budget to /jobs,
 * /forum, /research… while siblings of the relevant pages waited below it).
 */
export function linkScore(signal: LinkSignal, weights: LinkScoreWeights): number {
    if (signal.fixed !== undefined) return signal.fixed;
    const own = featureScore(signal, weights);
    return signal.continues ? Math.max(own, featureScore(signal.continues, weights) * DEPTH_DECAY) : own;
}

/**
 * What the crawl's own evidence says of a link, without the priors about what a kind of URL usually holds: its
 * features under the learned weights and its depth, with no news, furniture or dated demotion and no floor.
 * Exploration ranks unopened sections by it, since exploring is how the crawl tests those priors: a section whose
 * entry is demoted as news was never chosen while any undemoted section was left, however many of its links named
 * the topic (openehr's release posts, reached only through its news section). The prior against another language's
 * part of the site stays: a translation holds nothing the crawl cannot read in its own language.
 */
export function evidenceScore(signal: LinkSignal, weights: LinkScoreWeights): number {
    if (signal.fixed !== undefined) return signal.fixed;
    return modelEvidence(signal, weights) * (signal.foreign ? FOREIGN_FACTOR : 1) * DEPTH_DECAY ** signal.depth;
}

/** The link's features weighed by the model; a neighbourhood that did not pay off may pull the sum below zero, and scores stay non-negative. */
function modelEvidence(signal: LinkSignal, weights: LinkScoreWeights): number {
    const features = linkFeatures(signal, weights.terms, weights.locality);
    return Math.max(0, features.reduce((sum, x, i) => sum + x * (weights.model[i] ?? 0), 0));
}

/** The score from the link's own features, floors and depth (see {@link linkScore}). */
function featureScore(signal: LinkSignal, weights: LinkScoreWeights): number {
    let score = modelEvidence(signal, weights);
    const demotion = Math.min(
        signal.furniture ? FURNITURE_FACTOR : 1,
        signal.dated ? DATED_FACTOR : 1,
        signal.foreign ? FOREIGN_FACTOR : 1,
    );
    const untested = demotion < 1 && isUntestedSeries(signal, weights.locality);
    const factor = untested ? 1 : demotion < 1 && signal.locality && weights.locality ? provenDemotion(demotion, weights.locality.templateEstimate(signal.locality)) : demotion;
    score *= factor;
    if (factor === 1 && !untested) {
        if (signal.languagePortal && weights.englishHomeOpen) score = Math.max(score, LANGUAGE_PORTAL_SCORE);
        if (signal.section !== null) score = Math.max(score, SECTION_SCORE * (1 - (weights.coverage ?? 0)));
    }
    return score * DEPTH_DECAY ** signal.depth;
}
