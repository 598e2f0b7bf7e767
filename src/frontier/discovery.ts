/**
 * How many new links a page of each directory reveals: what a fetch can still teach when no link carries evidence.
 *
 * Once a crawl has taken the links its scores favour, the rest tie at "no evidence", and their order was the order
 * they were found in: the site's menu, page after page. A listing (news, releases, a category) shows links no page
 * showed before, each with an anchor the scores can read; a leaf behind the menu shows the menu again. So among links
 * without evidence, those into directories whose fetched pages revealed the most new links come first. [I] On openehr
 * the release posts an archetype-tools query wants sit behind the menu link "Releases"; a crawl that ran out of
 * evidence took 45 menu pages in menu order, and found the posts only when the menu reached the news listings.
 */

import { directoryKey, shapeKey } from '../url/index.js';

/** Pseudo-pages at the crawl's mean that a directory's own count is shrunk towards (a Beta-like prior, [I]). */
export const DISCOVERY_PRIOR_PAGES = 1;

/** Serialised form of {@link DiscoveryYield}. */
export interface DiscoveryYieldJSON {
    /** Per directory (host and path up to its last slash): pages counted and new links they revealed. */
    directories: Array<[directory: string, pages: number, newLinks: number]>;
    /** The same per URL template (`shapeKey`). */
    templates?: Array<[template: string, pages: number, newLinks: number]>;
}

/** The directory of a URL: its host and its path up to the last slash; null when the URL cannot be parsed. */
export function directoryOf(url: string): string | null {
    return URL.canParse(url) ? directoryKey(url) : null;
}

/** New links revealed per fetched page, by URL template and by directory. */
export class DiscoveryYield {
    readonly #directories = new Map<string, { pages: number; newLinks: number }>();
    readonly #templates = new Map<string, { pages: number; newLinks: number }>();
    #pages = 0;
    #newLinks = 0;

    /**
     * Counts a fetched page and the links it revealed that no page had shown before. Pages the crawl did not choose
     * (seeds) are not counted: the first page shows the whole menu as new, which says nothing of its directory.
     */
    observe(pageUrl: string, newLinks: number): void {
        const directory = directoryOf(pageUrl);
        if (directory === null || !(newLinks >= 0)) return;
        for (const [map, key] of [[this.#directories, directory], [this.#templates, shapeKey(pageUrl)]] as const) {
            const tally = map.get(key) ?? { pages: 0, newLinks: 0 };
            tally.pages += 1;
            tally.newLinks += newLinks;
            map.set(key, tally);
        }
        this.#pages += 1;
        this.#newLinks += newLinks;
    }

    /**
     * New links a page of the URL's template is expected to reveal: the template's mean shrunk towards its directory's,
     * and that towards the crawl's (as `Locality` backs off). A listing's pages and its posts share a directory, not a
     * template; a listing not fetched yet (`releases.html`) has only its directory to go by.
     */
    expected(url: string): number {
        const mean = this.#pages > 0 ? this.#newLinks / this.#pages : 0;
        const directory = directoryOf(url);
        if (directory === null) return mean;
        const shrunk = (tally: { pages: number; newLinks: number } | undefined, prior: number): number =>
            tally ? (tally.newLinks + DISCOVERY_PRIOR_PAGES * prior) / (tally.pages + DISCOVERY_PRIOR_PAGES) : prior;
        return shrunk(this.#templates.get(shapeKey(url)), shrunk(this.#directories.get(directory), mean));
    }

    /** A rank in [0, 1) that grows with {@link expected}: for ordering links that have nothing else to order them. */
    rank(url: string): number {
        const expected = this.expected(url);
        return expected / (1 + expected);
    }

    toJSON(): DiscoveryYieldJSON {
        const entries = (map: Map<string, { pages: number; newLinks: number }>) => [...map].map(([key, { pages, newLinks }]) => [key, pages, newLinks] as [string, number, number]);
        return { directories: entries(this.#directories), templates: entries(this.#templates) };
    }

    static fromJSON(json: DiscoveryYieldJSON | undefined): DiscoveryYield {
        const discovery = new DiscoveryYield();
        for (const [directory, pages, newLinks] of json?.directories ?? []) {
            if (!(pages > 0) || !(newLinks >= 0)) continue;
            discovery.#directories.set(directory, { pages, newLinks });
            discovery.#pages += pages;
            discovery.#newLinks += newLinks;
        }
        for (const [template, pages, newLinks] of json?.templates ?? []) {
            if (pages > 0 && newLinks >= 0) discovery.#templates.set(template, { pages, newLinks });
        }
        return discovery;
    }
}
