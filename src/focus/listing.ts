/**
 * Listings are a path, not a destination: the next page of a paginated list (news, posts, a catalogue) holds more items
 * like the ones on this page, while the page itself says little about the query. A link that continues the listing is
 * therefore worth what the items it will reveal are likely worth, and the best guess of that is the best item of the
 * page it was found on, one hop further away. Without this a post reachable only through page 4 of a list waits behind
 * every link that names a query word, because the pagination's own anchor ("next", "»") names none.
 * [I] openehr: the event posts a query wanted were linked from pages 2–5 of the event list, and pages 9–22 of the news list.
 */
import { hostOf, shapeKey } from '../url/index.js';
import type { LinkSignal } from './link-score.js';

/** Anchors that step through a list: arrows and guillemets, or a word for the next or previous page. */
const STEP_ANCHOR = /^(?:[«»‹›<>←→\s]+|(?:[«‹<←]\s*)?(?:next|previous|prev|older|newer|next page|previous page|older posts|newer posts|older entries|newer entries)(?:\s*[»›>→])?)$/i;
/** A page number: a link labelled 2, 3… among the list's pages. */
const PAGE_NUMBER = /^\d{1,4}$/;

/**
 * The link continues the listing on `pageUrl`: it is another page of the same list. Its anchor steps through the list
 * (next, previous, », ‹), or it is a page number leading to a URL of the page's own template (a number alone could be
 * a footnote or a calendar day).
 */
export function continuesListing(pageUrl: string, targetUrl: string, anchor: string): boolean {
    if (!URL.canParse(pageUrl) || !URL.canParse(targetUrl) || pageUrl === targetUrl) return false;
    if (hostOf(pageUrl) !== hostOf(targetUrl)) return false;
    const label = anchor.trim();
    if (label === '') return false;
    if (STEP_ANCHOR.test(label)) return true;
    return PAGE_NUMBER.test(label) && shapeKey(pageUrl) === shapeKey(targetUrl);
}

/**
 * What a link that continues a listing promises: the best item not fetched yet on this page, or, when the page was
 * itself reached by continuing the list and its items are worth less, the best item of the pages before, one hop
 * further away (as if it stood on this page). A page of the list with no item of note does not end the list, and its
 * depth decay fades an old promise page by page. [I] The adaptive school-site test: a news list whose posts on the
 * query sat on every page but one; that page's next link, worth only its best post (a concert), waited behind a
 * dozen blind posts.
 */
export function listingPromise(pageBest: LinkSignal | undefined, reachedThrough: LinkSignal | null | undefined, score: (signal: LinkSignal) => number): LinkSignal | undefined {
    const earlier = reachedThrough?.continues;
    if (!earlier) return pageBest;
    const carried: LinkSignal = { ...earlier, depth: earlier.depth + 1 };
    return pageBest && score(pageBest) >= score(carried) ? pageBest : carried;
}
