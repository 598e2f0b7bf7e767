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
    score: number;
    item: T;
}

/**
 * The link to explore among candidates into unopened sections: the section is the one the best-ranked candidate leads
 * into (the crawl's evidence still chooses where to look; the managers rank by `Focus.evidenceScore`), and the page
 * is that section's shallowest known link, the better-scored of equals. A section's entry lists its pages under their own anchors, so one fetch of it tells the
 * crawl whether the section holds anything on the topic and gives every page there a score of its own; a page deep in
 * the section tells only about itself (a news post judged off-topic closed a news section whose listing named the
 * query's subject in twenty headlines).
 */
export function pickExploration<T>(candidates: Iterable<ExplorationCandidate<T>>): ExplorationCandidate<T> | undefined {
    const bySection = new Map<string, Array<ExplorationCandidate<T>>>();
    let best: { candidate: ExplorationCandidate<T>; section: string } | undefined;
    for (const candidate of candidates) {
        const section = sectionOf(candidate.url);
        if (section === null) continue;
        (bySection.get(section) ?? bySection.set(section, []).get(section)!).push(candidate);
        if (!best || candidate.score > best.candidate.score) best = { candidate, section };
    }
    if (!best) return undefined;
    let entry = best.candidate;
    let entryDepth = pathDepth(entry.url);
    for (const candidate of bySection.get(best.section)!) {
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

/** Serialised form of {@link SectionExploration}; the field names are those of the request manager's snapshot. */
export interface SectionExplorationJSON {
    openedSections?: string[];
    sectionFetches?: Array<[string, number]>;
    explorations?: number;
    explorationLedger?: ExplorationLedgerJSON;
}

/**
 * The sections of a crawl's sites (`sectionOf`) its fetches have opened (`opensSection`), the pages exploration took,
 * and what exploring paid ({@link ExplorationLedger}): what a request manager needs to decide whether a link explores.
 */
export class SectionExploration {
    readonly #opened = new Set<string>();
    /** Pages fetched so far in each section not yet opened. */
    readonly #fetches = new Map<string, number>();
    #pages = 0;
    #ledger = new ExplorationLedger();

    /** Pages taken by exploration (`FOCUS_REPORT.exploration`). */
    get pages(): number {
        return this.#pages;
    }

    get sectionsOpened(): number {
        return this.#opened.size;
    }

    /** Whether the URL leads into a section no fetch has opened (a page at a site's root is in none). */
    isUnopened(url: string): boolean {
        const section = sectionOf(url);
        return section !== null && !this.#opened.has(section);
    }

    /** A page was taken to fetch, as an exploration pick or not: its section may open. */
    noteTaken(url: string, explored: boolean): void {
        if (explored) this.#pages++;
        const section = sectionOf(url);
        if (section !== null && explored) this.#ledger.noteExplored(section);
        if (section === null || this.#opened.has(section)) return;
        const fetches = (this.#fetches.get(section) ?? 0) + 1;
        if (opensSection(url, explored, fetches)) {
            this.#opened.add(section);
            this.#fetches.delete(section);
        } else {
            this.#fetches.set(section, fetches);
        }
    }

    /** A page the crawl counts as found: an exploration that opened its section paid off. */
    noteFound(url: string): void {
        this.#ledger.noteFound(url);
    }

    /** The expected pay of one more exploration ({@link ExplorationLedger.value}). */
    value(): number {
        return this.#ledger.value();
    }

    toJSON(): Required<SectionExplorationJSON> {
        return {
            openedSections: [...this.#opened],
            sectionFetches: [...this.#fetches],
            explorations: this.#pages,
            explorationLedger: this.#ledger.toJSON(),
        };
    }

    static fromJSON(json: SectionExplorationJSON): SectionExploration {
        const exploration = new SectionExploration();
        for (const section of json.openedSections ?? []) exploration.#opened.add(section);
        for (const [section, fetches] of json.sectionFetches ?? []) exploration.#fetches.set(section, fetches);
        exploration.#pages = json.explorations ?? 0;
        exploration.#ledger = ExplorationLedger.fromJSON(json.explorationLedger);
        return exploration;
    }
}
