/**
 * URL templates (algorithms.md §2.3): `e.edu/events/2024/05?year=2024&month=5` →
 * `e.edu/events/#/#?month&year`. The trap learner keeps duplicate statistics per template.
 */
import { hashHex } from '../stat/hash.js';
import { urlParts, type UrlParts } from './parts.js';

/**
 * A path segment at least this long that contains a digit becomes `*` (hashes, UUIDs, slugs
 * with IDs); pagesift's threshold is not visible (spec §12).
 */
export const LONG_SEGMENT = 16;

function isDigit(c: number): boolean {
    return c >= 48 && c <= 57;
}

/** Index of the first ASCII digit in `text[from, to)`, or -1. */
function firstDigit(text: string, from: number, to: number): number {
    for (let i = from; i < to; i++) if (isDigit(text.charCodeAt(i))) return i;
    return -1;
}

/**
 * The shape of the segment `path[start, end)`: `*` when it is long and has a digit, else the
 * segment with each digit run replaced by `#`. Copies slices, not characters (this is hot).
 */
function segmentShape(path: string, start: number, end: number): string {
    let digit = firstDigit(path, start, end);
    if (digit < 0) return path.slice(start, end);
    if (end - start >= LONG_SEGMENT) return '*';
    let out = '';
    let copied = start; // path[start, copied) is already in `out`
    while (digit >= 0) {
        out += `${path.slice(copied, digit)}#`;
        copied = digit + 1;
        while (copied < end && isDigit(path.charCodeAt(copied))) copied++;
        digit = firstDigit(path, copied, end);
    }
    return out + path.slice(copied, end);
}

function pathShape(pathname: string): string {
    if (firstDigit(pathname, 0, pathname.length) < 0) return pathname;
    let out = '';
    for (let start = 0; ; ) {
        const slash = pathname.indexOf('/', start);
        const end = slash < 0 ? pathname.length : slash;
        out += segmentShape(pathname, start, end);
        if (slash < 0) return out;
        out += '/';
        start = slash + 1;
    }
}

/**
 * Distinct parameter names, sorted, joined by `&`. Repeated names count once: `?tag=a&tag=b`
 * and `?tag=a` are the same template (facet filter combinations are exactly the traps the
 * templates are meant to catch).
 */
function queryShape(search: string): string {
    if (search === '') return '';
    const names: string[] = [];
    for (let start = 1; start <= search.length; ) {
        let end = search.indexOf('&', start);
        if (end < 0) end = search.length;
        const eq = search.indexOf('=', start);
        const name = search.slice(start, eq >= 0 && eq < end ? eq : end);
        if (name !== '' || end > start) insertSortedOnce(names, name);
        start = end + 1;
    }
    return names.length === 0 ? '' : `?${names.join('&')}`;
}

/** Inserts `name` into the sorted, distinct `names` unless present (queries have few names). */
function insertSortedOnce(names: string[], name: string): void {
    let i = names.length;
    while (i > 0 && names[i - 1]! > name) i--;
    if (i > 0 && names[i - 1] === name) return;
    if (i === names.length) names.push(name);
    else names.splice(i, 0, name);
}

function shapeOfParts(parts: UrlParts): string {
    return `${parts.host.toLowerCase()}${pathShape(parts.pathname)}${queryShape(parts.search)}`;
}

/**
 * The URL's template: lowercased host (with a non-default port) + path in which every segment of
 * ≥ 16 characters that contains a digit becomes `*` and then every run of digits becomes `#`,
 * + `?` + the sorted distinct query parameter names joined by `&` (values dropped; no `?` when
 * there are none). The fragment is ignored. The URL is not cleaned first: pass a cleaned one.
 *
 * `https://e.edu/events/2024/05?year=2024&month=5` → `e.edu/events/#/#?month&year`.
 * @throws InvalidUrlError if `url` is not an absolute URL.
 */
export function urlShape(url: string | URL): string {
    return shapeOfParts(urlParts(url));
}

/** A URL's directory: its host (lower-cased) and its path up to the last `/`, where a listing and its posts both live. */
export function directoryKey(url: string | URL): string {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    return `${parsed.host.toLowerCase()}${parsed.pathname.slice(0, parsed.pathname.lastIndexOf('/') + 1)}`;
}

/**
 * A 64-bit key of the URL's template: {@link urlShape} hashed by {@link hashHex}, as 16 hex
 * digits. Queue entries carry it so demotion checks need not recompute the template. Cheap when
 * `url` is the string cleanUrl just returned (no second parse).
 * @throws InvalidUrlError if `url` is not an absolute URL.
 */
export function shapeKey(url: string | URL): string {
    return hashHex(urlShape(url));
}

/**
 * A coarser template for learning which URLs fail: the template of the URL's directory, then its last segment cut
 * after the first `_` or `-` (`keyword_machine-translation.html` → `keyword_*.html`) or, without one, `*` and the
 * extension (`aws.html` → `*.html`). Failing links usually share a generated name of this kind, which the trap
 * template keeps apart word by word. The query is dropped.
 * @throws InvalidUrlError if `url` is not an absolute URL.
 */
export function failureShape(url: string | URL): string {
    const parts = urlParts(url);
    const slash = parts.pathname.lastIndexOf('/');
    const directory = pathShape(parts.pathname.slice(0, slash + 1));
    const leaf = parts.pathname.slice(slash + 1);
    if (leaf === '') return `${parts.host.toLowerCase()}${directory}`;
    const dot = leaf.lastIndexOf('.');
    const extension = dot > 0 ? leaf.slice(dot) : '';
    const name = dot > 0 ? leaf.slice(0, dot) : leaf;
    const separator = name.search(/[_-]/);
    const stem = separator > 0 ? `${segmentShape(name, 0, separator + 1)}*` : '*';
    return `${parts.host.toLowerCase()}${directory}${stem}${extension}`;
}
