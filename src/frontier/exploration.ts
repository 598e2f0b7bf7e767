/**
 * Exploration: which link a focused crawl spends its exploration share on (see `EXPLORATION_SHARE` in the request
 * manager). Pure: the request managers feed it their candidates.
 */
import { hostOf } from '../url/index.js';

/** The section of a URL: its host and first directory (`example.com/news`); null for a page at the root. */
export function sectionOf(url: string): string | null {
    let parsed: URL;
    try {
        parsed = new URL(url);
    } catch {
        return null;
    }
    const segments = parsed.pathname.split('/').slice(1);
    return segments.length >= 2 && segments[0] !== '' ? `${hostOf(parsed)}/${segments[0]!.toLowerCase()}` : null;
}

/** Path segments below the host, an index file not counted (`/news/` and `/news/index.html` are both 1). */
function pathDepth(url: string): number {
    const segments = new URL(url).pathname.split('/').filter((segment) => segment !== '');
    const leaf = segments.at(-1);
    return leaf !== undefined && /^(?:index|default)\.[a-z]+$/i.test(leaf) ? segments.length - 1 : segments.length;
}

/** Pages of a section that open it for exploration although none was its entry or an exploration pick. */
export const SECTION_SAMPLE = 3;

/**
 * Whether a fetch opens the URL's section for exploration: an exploration pick does, so does the section's entry
 * (`/news/`, `/news/index.html`), whose links show what the section holds, and so do `SECTION_SAMPLE` pages of it
 * (the crawl is at work there). One page deep in it, reached by a scored link (a news post), shows only itself, so
 * the section's entry is still explored.
 *
 * @param fetches Pages of the section fetched so far, this one included.
 */
export function opensSection(url: string, explored: boolean, fetches: number): boolean {
    return explored || fetches >= SECTION_SAMPLE || pathDepth(url) <= 1;
}

export interface ExplorationCandidate<T> {
    url: string;
    /** The link's evidence: which of a section's equally shallow links is its entry. */
    score: number;
    /** What fetching the link is expected to pay: the probability that it leads to a found page. */
    weight: number;
    item: T;
}

/**
 * The link to explore among candidates into unopened sections. The section is the one whose known links are expected
 * to lead to the most found pages, the sum of their weights: where the crawl's evidence singles out a link, its
 * section wins; where it has none (every link as likely as the next), the section the crawl knows most pages of wins,
 * not whichever came first, since each of them is a chance. The page is that section's shallowest known link, the
 * better-scored of equals. A section's entry lists its pages under their own anchors, so one fetch of it tells the
 * crawl whether the section holds anything on the topic and gives every page there a score of its own; a page deep in
 * the section tells only about itself (a news post judged off-topic closed a news section whose listing named the
 * query's subject in twenty headlines).
 */
export function pickExploration<T>(candidates: Iterable<ExplorationCandidate<T>>): ExplorationCandidate<T> | undefined {
    const bySection = new Map<string, { links: Array<ExplorationCandidate<T>>; worth: number; best: number }>();
    for (const candidate of candidates) {
        const section = sectionOf(candidate.url);
        if (section === null) continue;
        const known = bySection.get(section) ?? bySection.set(section, { links: [], worth: 0, best: -Infinity }).get(section)!;
        known.links.push(candidate);
        known.worth += candidate.weight;
        known.best = Math.max(known.best, candidate.score);
    }
    let chosen: { links: Array<ExplorationCandidate<T>>; worth: number; best: number } | undefined;
    for (const known of bySection.values()) {
        if (!chosen || known.worth > chosen.worth || (known.worth === chosen.worth && known.best > chosen.best)) chosen = known;
    }
    if (!chosen) return undefined;
    let entry = chosen.links[0]!;
    let entryDepth = pathDepth(entry.url);
    for (const candidate of chosen.links) {
        const depth = pathDepth(candidate.url);
        if (depth < entryDepth || (depth === entryDepth && candidate.score > entry.score)) {
            entry = candidate;
            entryDepth = depth;
        }
    }
    return entry;
}

/** Serialised form of {@link ExplorationLedger}. */
export interface ExplorationLedgerJSON {
    /** Sections opened by an exploration pick, and whether each has yielded a found page since. */
    explored: Array<[section: string, productive: boolean]>;
}

/**
 * What exploring has paid so far: of the sections an exploration pick opened, how many went on to yield a page the crawl
 * counts as found. Its rate, Jeffreys' posterior mean (k + ½) / (n + 1), is what one more exploration is expected to
 * pay, in the unit of the calibrated link probabilities (a fetch that leads to a found page), so the two can be
 * compared: once the best link the crawl could exploit surely pays less than a section not yet opened (the upper end of
 * its interval is below this rate), the crawl explores. The prior ½ makes an untried arm worth trying.
 */
export class ExplorationLedger {
    readonly #explored = new Map<string, boolean>();

    /** An exploration pick opened this section. */
    noteExplored(section: string): void {
        if (!this.#explored.has(section)) this.#explored.set(section, false);
    }

    /** A page of this URL was found (relevant, with new text): its section, if exploration opened it, paid off. */
    noteFound(url: string): void {
        const section = sectionOf(url);
        if (section !== null && this.#explored.get(section) === false) this.#explored.set(section, true);
    }

    /** Sections opened by exploration, and how many of them paid off. */
    get counts(): { explored: number; productive: number } {
        let productive = 0;
        for (const paid of this.#explored.values()) if (paid) productive += 1;
        return { explored: this.#explored.size, productive };
    }

    /** The expected pay of one more exploration: the probability that the section it opens yields a found page. */
    value(): number {
        const { explored, productive } = this.counts;
        return (productive + 0.5) / (explored + 1);
    }

    toJSON(): ExplorationLedgerJSON {
        return { explored: [...this.#explored] };
    }

    static fromJSON(json: ExplorationLedgerJSON | undefined): ExplorationLedger {
        const ledger = new ExplorationLedger();
        for (const [section, productive] of json?.explored ?? []) ledger.#explored.set(section, productive);
        return ledger;
    }
}
