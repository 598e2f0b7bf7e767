/**
 * Which rendered pages are worth the quiet-DOM wait: a memory, per URL template and directory, of whether a page's
 * DOM still changed after its load event (navigation returns at DOMContentLoaded, so the wait covers both).
 *
 * Plain PlaywrightCrawler reads a page at load. The wait for a quiet DOM costs 250 ms or more per page, which it does
 * not pay, and on most pages it reads what load had already built: acl2020's paper pages and stanford-cs's pages do
 * not change after load, while acl2020's script-built paper list gains 900 links after it. So a page is read at its
 * load event where the nearest neighbourhood of its kind (`kindNeighbourhoodsOf`) with any pages has only had pages
 * that were still after load, and still checked now and then by the succession rule (as for rendering,
 * `TemplateRenderingPredictor`); where one changed, every page there waits. A page of a kind not seen yet waits: a
 * wrong "still" loses links built after load for good, a wait costs a quarter of a second.
 */
import { kindNeighbourhoodsOf, successionDetection } from './rendering-predictor.js';

interface StillTally {
    still: number;
    changed: number;
}

export class SettleMemory {
    readonly #tallies = new Map<string, StillTally>();
    /** Pages read without the wait, and pages waited for. */
    readonly counts = { skipped: 0, waited: 0 };

    /** @param random Draws the checks of neighbourhoods believed still. */
    constructor(private readonly random: () => number = Math.random) {}

    /** Whether to wait for a quiet DOM before reading the page at `url`; counted as decided. */
    shouldWait(url: string): boolean {
        const wait = this.#decide(url);
        this.counts[wait ? 'waited' : 'skipped'] += 1;
        return wait;
    }

    #decide(url: string): boolean {
        for (const key of kindNeighbourhoodsOf(url)) {
            const tally = this.#tallies.get(key);
            if (!tally) continue;
            return tally.changed > 0 || this.random() < successionDetection(tally.still);
        }
        return true;
    }

    /**
     * A page {@link shouldWait} let be read at load changed after load all the same (its data came late): it was waited
     * for after all, and its kind is no longer believed still.
     */
    recordLateChange(url: string): void {
        this.counts.skipped -= 1;
        this.counts.waited += 1;
        this.record(url, true);
    }

    /** What a wait showed: whether the page changed after its load event (or data it had asked for was still coming). */
    record(url: string, changed: boolean): void {
        for (const key of kindNeighbourhoodsOf(url)) {
            const tally = this.#tallies.get(key) ?? { still: 0, changed: 0 };
            tally[changed ? 'changed' : 'still'] += 1;
            this.#tallies.set(key, tally);
        }
    }
}
