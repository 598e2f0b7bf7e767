/**
 * Site furniture: news, about/governance, legal-footer, search, tag and dated-archive pages almost
 * never answer a query, yet their navigation and footers carry the query words. In pagesift's
 * 159-school baseline, 12 of the 46 schools that scored zero were lost to news clusters and 9 to
 * about/governance clusters. The rules read only URL path segments and anchor text, as whole words.
 */
import { pathSegments, SECTION_ANCHOR_WORDS, segmentStem } from './url-shape.js';

/** Score factor of a furniture link (pagesift focus/mod.rs). */
export const FURNITURE_FACTOR = 0.2;
/** Score factor of a dated archive leaf: half of furniture, since an article filed under a date leads nowhere else (pagesift focus/mod.rs). */
export const DATED_FACTOR = 0.1;

/**
 * Furniture words and slugs: pagesift furniture.rs (visible part), plus legal-footer and account
 * pages ([I] additions: privacy … account). Multi-word entries are matched as adjacent words.
 */
export const FURNITURE_WORDS: ReadonlySet<string> = new Set([
    // news and media
    'news', 'changelog', 'release-notes', 'whats-new', 'newsroom', 'press', 'media', 'blog', 'blogs', 'stories', 'story',
    'events', 'event', 'calendar', 'announcements', 'magazine', 'podcast', 'podcasts', 'video', 'videos', 'gallery',
    'photos', 'spotlight', 'features',
    // listings
    'tag', 'tags', 'category', 'categories', 'topic', 'topics', 'search', 'archive', 'archives', 'feed', 'rss', 'sitemap',
    'site-map',
    // about and governance
    'about', 'history', 'leadership', 'governance', 'president', 'chancellor', 'provost', 'board', 'trustees', 'mission',
    'vision', 'values', 'strategy', 'brand', 'awards', 'honors',
    // legal footer and accounts [I]
    'privacy', 'terms', 'cookies', 'cookie-policy', 'accessibility', 'legal', 'imprint', 'impressum', 'disclaimer',
    'copyright', 'login', 'signin', 'cart', 'account',
]);

/** Longest page slug, in words, judged by its words ("about-us", "privacy-policy"); a longer slug is an article title. */
const FURNITURE_SLUG_WORDS = 2;

/** Lowercase words of a path segment or anchor, apostrophes dropped ("What's new" → whats, new). */
function words(text: string): string[] {
    return text
        .toLowerCase()
        .replace(/['’]/g, '')
        .split(/[^\p{L}\p{M}\p{N}]+/u)
        .filter((word) => word !== '');
}

/**
 * Some word, or pair of adjacent words, is a furniture entry, and no word of the name is exempted: a name that says a
 * query term (`/news_events/` for a query about events, "Industry News" for one about industry partners) names a part
 * of the site the query is about, whatever else it says.
 */
function hasFurnitureWord(list: readonly string[], exempt: (word: string) => boolean): boolean {
    if (list.some(exempt)) return false;
    return list.some((word, i) => {
        const pair = i + 1 < list.length ? `${word}-${list[i + 1]}` : '';
        return FURNITURE_WORDS.has(word) || FURNITURE_WORDS.has(pair);
    });
}

/**
 * A link to site furniture. Directory segments count by any word (`/news/…`, `/about/…`); the page
 * slug and the anchor count only when short (`/about-us`, "Latest news"), because a long slug or
 * anchor is the title of the target and names what it is about.
 *
 * @param exempt Words that make a name not furniture, normally the query terms: a query about university history may
 *   enter `/history/`, and one about events `/news_events/`.
 */
export function isFurniture(url: string, anchor: string, exempt: (word: string) => boolean = () => false): boolean {
    const segments = pathSegments(new URL(url));
    const leaf = segments.length - 1;
    const inPath = segments.some((segment, i) => {
        const list = words(i === leaf ? segmentStem(segment) : segment);
        return (i < leaf || list.length <= FURNITURE_SLUG_WORDS) && hasFurnitureWord(list, exempt);
    });
    if (inPath) return true;
    const anchorWords = words(anchor);
    return anchorWords.length <= SECTION_ANCHOR_WORDS && hasFurnitureWord(anchorWords, exempt);
}

/** A year path segment (1900–2099). */
const YEAR = /^(?:19|20)\d\d$/;

/** An article filed under a date: a year segment followed by more path (`/2024/05/title`, `/news/2023/visa-rules`). */
export function isDatedLeaf(url: string): boolean {
    const segments = pathSegments(new URL(url));
    return segments.some((segment, i) => YEAR.test(segment) && i < segments.length - 1);
}
