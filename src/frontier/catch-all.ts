/**
 * Soft 404s: many sites answer a URL that names nothing with an error page and status 200 ("Page not found"). Such a
 * page is one text served under unrelated names, while the spellings of a real page (`/a/`, `/a/index.html`,
 * `?print=1`) differ only in what a rewrite rule drops, so they take at most two places (a directory and a name
 * template, `failureShape`). A text seen in three places is therefore the site's catch-all page, and every fetch that
 * returns it failed (Bar-Yossef et al., "Sic transit gloria telae", WWW 2004, probe for the same
 * signal by fetching a random URL; this learns it from the crawl's own duplicates, at no extra request).
 */
import { failureShape } from '../url/index.js';

/** Places a text must appear in before it counts as the catch-all page ([I]: `/a/` and `/a/index.html` are two). */
export const CATCH_ALL_PLACES = 3;

/** Serialised form of {@link CatchAllPages}: per repeated text, the URLs it was fetched at, and the catch-all texts. */
export interface CatchAllPagesJSON {
    repeated: Array<[fingerprint: number, urls: string[]]>;
    catchAll: number[];
}

/** Where a URL names a page: its directory and its name template, or null when it cannot be parsed. */
function placeOf(url: string): string | null {
    if (!URL.canParse(url)) return null;
    const { pathname } = new URL(url);
    return `${pathname.slice(0, pathname.lastIndexOf('/') + 1)} ${failureShape(url)}`;
}

/** Which repeated texts are a site's catch-all page. Memory: a few URLs per text fetched more than once. */
export class CatchAllPages {
    /** Repeated texts not (yet) known as catch-alls: the URLs they were fetched at, one per place. */
    readonly #repeated = new Map<number, string[]>();
    readonly #catchAll = new Set<number>();

    /** True when the text with this fingerprint is a catch-all page. */
    isCatchAll(fingerprint: number): boolean {
        return this.#catchAll.has(fingerprint);
    }

    /**
     * Accounts a page whose text (`fingerprint`) was first fetched at `original`. Returns the URLs that turn out to have
     * been soft 404s when this page reveals the text as the catch-all page (the earlier ones, `original` included),
     * else an empty list.
     */
    observeRepeat(fingerprint: number, url: string, original: string): string[] {
        if (this.#catchAll.has(fingerprint)) return [];
        const urls = this.#repeated.get(fingerprint) ?? [original];
        const place = placeOf(url);
        if (place === null || urls.some((earlier) => placeOf(earlier) === place)) return [];
        urls.push(url);
        if (urls.length < CATCH_ALL_PLACES) {
            this.#repeated.set(fingerprint, urls);
            return [];
        }
        this.#repeated.delete(fingerprint);
        this.#catchAll.add(fingerprint);
        return urls.filter((earlier) => earlier !== url);
    }

    toJSON(): CatchAllPagesJSON {
        return { repeated: [...this.#repeated].map(([fingerprint, urls]) => [fingerprint, [...urls]]), catchAll: [...this.#catchAll] };
    }

    static fromJSON(json: CatchAllPagesJSON | undefined): CatchAllPages {
        const pages = new CatchAllPages();
        for (const [fingerprint, urls] of json?.repeated ?? []) pages.#repeated.set(fingerprint, [...urls]);
        for (const fingerprint of json?.catchAll ?? []) pages.#catchAll.add(fingerprint);
        return pages;
    }
}
