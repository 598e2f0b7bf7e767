/** Dedup keys and site hosts (algorithms.md §7.2). */
import { isHttp, joinParts, urlParts } from './parts.js';

export interface DedupKeyOptions {
    /**
     * Drop the whole query: every `?…` variant of a path is one page (for sites whose queries
     * never select content).
     * @default false
     */
    dropQuery?: boolean;
}

/**
 * Pieces sorted by name, then value, then as written (`x` before `x=`), in UTF-16 code unit
 * order; empty pieces dropped.
 */
function sortedQuery(search: string): string {
    if (search === '') return '';
    const params: { name: string; value: string; piece: string }[] = [];
    for (const piece of search.slice(1).split('&')) {
        if (piece === '') continue;
        const eq = piece.indexOf('=');
        params.push(
            eq < 0 ? { name: piece, value: '', piece } : { name: piece.slice(0, eq), value: piece.slice(eq + 1), piece },
        );
    }
    if (params.length === 0) return '';
    params.sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : a.piece < b.piece ? -1 : a.piece > b.piece ? 1 : 0,
    );
    return `?${params.map((p) => p.piece).join('&')}`;
}

/**
 * The key under which a URL is deduplicated (pagesift's `crawl::normalize`): fragment dropped,
 * query parameters sorted by name then value (or dropped with `dropQuery`); scheme and host
 * lowercased, IDN as punycode, default port dropped and `.`/`..` resolved by the WHATWG parser.
 * Tracker removal is cleanUrl's job: use `dedupKey(cleanUrl(url))`.
 * @throws InvalidUrlError if `url` is not an absolute URL.
 */
export function dedupKey(url: string | URL, options?: DedupKeyOptions): string {
    const parts = urlParts(url);
    if (!isHttp(parts)) return parts.href;
    return joinParts(parts, parts.pathname, options?.dropQuery ? '' : sortedQuery(parts.search));
}

/**
 * The "site host" of a URL: its hostname lowercased, without port and without a leading `www.`
 * (`https://WWW.E.edu:8080/x` → `e.edu`). `www.` stays when nothing with a dot would remain
 * (`www.com`). The form subtree() and the harvest statistics compare.
 * @throws InvalidUrlError if `url` is not an absolute URL.
 */
export function hostOf(url: string | URL): string {
    const host = urlParts(url).hostname.toLowerCase();
    return host.startsWith('www.') && host.indexOf('.', 4) > 4 ? host.slice(4) : host;
}

/** {@link hostOf}, or null for a URL that cannot be parsed: for keys (politeness, robots.txt) that must not throw. */
export function hostOrNull(url: string | URL): string | null {
    try {
        return hostOf(url);
    } catch {
        return null;
    }
}
