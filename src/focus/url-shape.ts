/**
 * What a URL's shape says before the page is fetched: its words, whether it enters a site section
 * or a sub-site, whether it leads into another language, and whether it is the English home of a
 * site written in another language.
 */
import { isEnglishSegment, isForeignLanguageSegment, stripLeadingLanguage } from '../url/language.js';

/** Second-level labels that belong to the public suffix before a country code (`ac.uk`, `edu.cn`). */
const GENERIC_SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'gov', 'net', 'org']);
/** Longest anchor, in words, of a section entry ("Admissions", "Student services"): longer anchors are sentences or headlines (pagesift url_shape.rs). */
export const SECTION_ANCHOR_WORDS = 4;

/** Path segments of `url`, percent-decoded, without empty pieces. */
export function pathSegments(url: URL): string[] {
    return url.pathname
        .split('/')
        .filter((segment) => segment !== '')
        .map((segment) => {
            try {
                return decodeURIComponent(segment);
            } catch {
                return segment;
            }
        });
}

/** A segment without its file extension (`index.html` → `index`), lowercased. */
export function segmentStem(segment: string): string {
    return segment.replace(/\.[a-z0-9]{1,5}$/i, '').toLowerCase();
}

/** Path segments without a trailing `index.*` page, which names its directory. */
function pageSegments(url: URL): string[] {
    const segments = pathSegments(url);
    const last = segments.at(-1);
    return last !== undefined && segmentStem(last) === 'index' ? segments.slice(0, -1) : segments;
}

/**
 * The URL as words: host labels without `www` and the public suffix, then the path with the file
 * extension dropped, split at every non-alphanumeric character, at letter/digit boundaries and where a
 * lowercase letter meets a capital (`CollegeStaff`, `newsEvents`).
 * The query string is left out: it holds filters and search terms, not the page's name (a search
 * trap `?search=machine+translation` would otherwise look like the topic).
 */
export function locator(url: string): string {
    const parsed = new URL(url);
    const labels = parsed.hostname.toLowerCase().replace(/^www\./, '').split('.');
    const topLevel = labels.length > 1 ? labels.pop()! : '';
    if (topLevel.length === 2 && labels.length > 1 && GENERIC_SECOND_LEVEL.has(labels.at(-1)!)) labels.pop();
    const segments = pathSegments(parsed);
    const last = segments.length - 1;
    const path = segments.map((segment, i) => (i === last ? segment.replace(/\.[a-z0-9]{1,5}$/i, '') : segment));
    return [...labels, ...path]
        .join(' ')
        .split(/[^\p{L}\p{M}\p{N}]+/u)
        .flatMap((word) => word.split(/(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})|(?<=\p{Ll})(?=\p{Lu})/u))
        .filter((word) => word !== '')
        .join(' ');
}

/** Kind of section entry a link leads to. */
export type SectionKind = 'subsite' | 'section';

/**
 * A link that enters a part of a site: a one-level path with a short anchor (`/admissions/`
 * "Admissions") is a `section`; the root of a host (`https://graduate.e.edu/` "Graduate School") is
 * a `subsite`. A leading language segment does not count (`/en/studies/` is a section). Returns null
 * for deeper paths, URLs with a query, and anchors of no or more than four words.
 */
export function section(url: string, anchor: string): SectionKind | null {
    const parsed = new URL(url);
    const words = anchor.split(/[^\p{L}\p{M}\p{N}]+/u).filter((word) => word !== '').length;
    if (parsed.search !== '' || words < 1 || words > SECTION_ANCHOR_WORDS) return null;
    const remaining = stripLeadingLanguage(pageSegments(parsed)).length;
    if (remaining === 0) return 'subsite';
    return remaining === 1 ? 'section' : null;
}

/**
 * The path starts with the segment of a non-English language (`/de/`, `/ja/`, `/zh-cn/`). Only the
 * first segment is read: deeper two-letter segments are too often something else (`/courses/it/`).
 */
export function hasForeignLanguageSegment(url: string): boolean {
    const first = pathSegments(new URL(url))[0];
    return first !== undefined && isForeignLanguageSegment(segmentStem(first));
}

/**
 * The URL looks like the English home of a site: `/en/`, `/en.html`, `/english/`, `/top/en/`,
 * `/en/index.html`, or the root of an `en.` host.
 */
export function isEnglishHomeShape(url: string): boolean {
    const parsed = new URL(url);
    const segments = pageSegments(parsed);
    if (segments.length === 0) return parsed.hostname.toLowerCase().startsWith('en.');
    return segments.length <= 2 && isEnglishSegment(segmentStem(segments.at(-1)!));
}
