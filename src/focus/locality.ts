/**
 * Sibling locality by URL: pages that share a URL template or a directory with pages that paid off
 * tend to pay off too, and those that share them with pages that did not, tend not to (Aggarwal et
 * al., "Intelligent crawling on the World Wide Web with arbitrary predicates", WWW 2001: sibling
 * and URL-token locality).
 *
 * The parent-relevance term cannot carry this: a site's navigation puts the same links on every
 * page, so links found on a relevant page are as often the jobs page as the next admissions page
 * (on stanford-cs the online model drove the parent weight to zero), and a listing that repeats
 * what was already read (`papers.html?filter=authors&search=…` on acl2020) looks relevant by its
 * text while it brings nothing new. Counting, per template and per directory, how many fetched
 * pages were productive separates both from the unexplored rest, from evidence gathered in this
 * crawl only.
 *
 * The estimate backs off from the template (most specific) to the directory, each a Beta posterior
 * whose prior mean is the next level's estimate, and the directory's prior is ½. The feature is
 * centred: 0 for a neighbourhood with no fetched page, so with no data the link score is the
 * fixed formula, positive where pages paid off, negative where they did not.
 */
import { hashHex } from '../stat/index.js';
import { directoryKey, shapeKey } from '../url/index.js';

/** Strength, in pages, of the prior of each level ([I]: two pages, so one page moves a new neighbourhood by a third of the way). */
export const LOCALITY_PRIOR_PAGES = 2;
/** Prior mean of a directory with no fetched page: no evidence either way. */
const NEUTRAL = 0.5;

/** Where a URL lives: its template and its directory, as 64-bit hex keys. Plain JSON, stored with queue entries. */
export interface LocalityKeys {
    /** The URL template's key (`shapeKey`). */
    shape: string;
    /** `hashHex` of host + path up to its last `/`. */
    directory: string;
}

/** The locality keys of an absolute URL. */
export function localityKeys(url: string): LocalityKeys {
    const parsed = new URL(url);
    return { shape: shapeKey(parsed), directory: hashHex(directoryKey(parsed)) };
}

/** Fetched and productive pages of one neighbourhood. */
type Tally = readonly [pages: number, productive: number];
const NONE: Tally = [0, 0];

/** Beta posterior mean of a tally with `LOCALITY_PRIOR_PAGES` pseudo-pages at `prior`. */
function posterior([pages, productive]: Tally, prior: number): number {
    return (productive + LOCALITY_PRIOR_PAGES * prior) / (pages + LOCALITY_PRIOR_PAGES);
}

/** Template estimate backed off to the directory's, centred on ½. */
function centred(shape: Tally, directory: Tally): number {
    return posterior(shape, posterior(directory, NEUTRAL)) - NEUTRAL;
}

/** Serialised form of {@link Locality}: `[key, pages, productive]` per template and per directory, now and at the last re-score. */
export interface LocalityJSON {
    shapes: [string, number, number][];
    directories: [string, number, number][];
    rescoredShapes: [string, number, number][];
    rescoredDirectories: [string, number, number][];
}

type Tallies = Map<string, Tally>;

/** Per template and per directory, how many fetched pages were productive. */
export class Locality {
    readonly #shapes: Tallies = new Map();
    readonly #directories: Tallies = new Map();
    /** The tallies the queued scores were computed with. */
    readonly #rescoredShapes: Tallies = new Map();
    readonly #rescoredDirectories: Tallies = new Map();

    /**
     * Accounts one fetched page. Returns true when the estimate of its directory, or of its template
     * once the template has more than this page, moved by more than `rescoreDelta` since the last
     * {@link markRescored}: queued links there need new scores. (A template with one page is usually
     * a URL of its own, and no queued link shares it.)
     */
    observe(keys: LocalityKeys, productive: boolean, rescoreDelta: number): boolean {
        for (const [tallies, key] of [[this.#shapes, keys.shape], [this.#directories, keys.directory]] as const) {
            const [pages, hits] = tallies.get(key) ?? NONE;
            tallies.set(key, [pages + 1, hits + (productive ? 1 : 0)]);
        }
        const directoryBefore = posterior(this.#rescoredDirectories.get(keys.directory) ?? NONE, NEUTRAL);
        const directoryNow = posterior(this.#directories.get(keys.directory) ?? NONE, NEUTRAL);
        if (Math.abs(directoryNow - directoryBefore) > rescoreDelta) return true;
        if (this.#shapes.get(keys.shape)![0] < 2) return false;
        const before = centred(this.#rescoredShapes.get(keys.shape) ?? NONE, this.#rescoredDirectories.get(keys.directory) ?? NONE);
        return Math.abs(this.estimate(keys) - before) > rescoreDelta;
    }

    /**
     * Centred yield of the URL template alone, in (−½, ½): 0 until a page of the template itself was fetched. Unlike
     * {@link estimate} it does not borrow from the directory, where a flat site keeps all its pages.
     */
    templateEstimate(keys: LocalityKeys): number {
        return posterior(this.#shapes.get(keys.shape) ?? NONE, NEUTRAL) - NEUTRAL;
    }

    /** Pages of the URL template fetched so far. */
    templatePages(keys: LocalityKeys): number {
        return (this.#shapes.get(keys.shape) ?? NONE)[0];
    }

    /** Centred yield of the neighbourhood, in (−½, ½): 0 with no fetched page there. */
    estimate(keys: LocalityKeys): number {
        return centred(this.#shapes.get(keys.shape) ?? NONE, this.#directories.get(keys.directory) ?? NONE);
    }

    /** The queue was re-scored with the current estimates: they become the reference of {@link observe}. */
    markRescored(): void {
        copy(this.#shapes, this.#rescoredShapes);
        copy(this.#directories, this.#rescoredDirectories);
    }

    toJSON(): LocalityJSON {
        return {
            shapes: flatten(this.#shapes),
            directories: flatten(this.#directories),
            rescoredShapes: flatten(this.#rescoredShapes),
            rescoredDirectories: flatten(this.#rescoredDirectories),
        };
    }

    static fromJSON(json: LocalityJSON): Locality {
        const lists = [json?.shapes, json?.directories, json?.rescoredShapes, json?.rescoredDirectories];
        if (!lists.every(Array.isArray)) {
            throw new TypeError('Locality.fromJSON expects { shapes, directories, rescoredShapes, rescoredDirectories } as produced by Locality#toJSON.');
        }
        const locality = new Locality();
        const targets = [locality.#shapes, locality.#directories, locality.#rescoredShapes, locality.#rescoredDirectories];
        lists.forEach((list, i) => {
            for (const [key, pages, productive] of list) targets[i]!.set(key, [pages, productive]);
        });
        return locality;
    }
}

function copy(from: Tallies, to: Tallies): void {
    to.clear();
    for (const [key, tally] of from) to.set(key, tally);
}

function flatten(tallies: Tallies): [string, number, number][] {
    return [...tallies].map(([key, [pages, productive]]) => [key, pages, productive]);
}
