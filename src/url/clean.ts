/**
 * URL cleaning (algorithms.md §2.1): collapse different spellings of the same page before
 * deduplication. Only parameters that are certainly tracking or session state are removed
 * (lists from courlan's tracker rules and Heritrix's session-ID rules); `ref`, `source`, `id`
 * and the like stay, because they can select content.
 */
import { isHttp, joinParts, parseUrl, partsOfUrl, rememberParts, type UrlParts } from './parts.js';

/** The 41 tracker parameter names of pagesift's clean.rs (courlan's list), lowercase. */
export const TRACKER_PARAMS: ReadonlySet<string> = new Set([
    'fbclid', 'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'yclid', 'ysclid', 'twclid',
    'ttclid', 'li_fat_id', 'igshid', 'igsh', 'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi',
    '__hstc', '__hssc', '__hsfp', 'hsctatracking', 'mkt_tok', 'oly_anon_id', 'oly_enc_id', 'vero_id',
    'vero_conv', 'rb_clickid', 's_cid', '_openstat', 'srsltid', 'wt_mc', 'pk_campaign', 'pk_kwd',
    'pk_source', 'pk_medium', 'pk_content', 'spm', 'scm',
]);

/**
 * Tracker name prefixes: Google/Matomo campaign tags, internal link attribution and Eloqua
 * (`elqTrackId` matches after lowercasing).
 */
export const TRACKER_PREFIXES: readonly string[] = ['utm_', 'mtm_', 'itm_', 'internal_', 'elq'];

/** Session-ID parameter names (Heritrix), lowercase; removed from the query and from `;name=` path pieces. */
export const SESSION_PARAMS: ReadonlySet<string> = new Set([
    'jsessionid', 'phpsessid', 'sessionid', 'session_id', 'cfid', 'cftoken', 'zenid', 'oscsid',
]);

/**
 * `sid` is removed only when its value looks like a random session ID: at least this many ASCII
 * letters/digits, with at least one digit (`sid=8dd3dede98a7626cbf4e1c23217573da` goes,
 * `sid=3` or `sid=physics` stays). pagesift's exact test is not visible (spec §12).
 */
export const RANDOM_SID_MIN_LENGTH = 16;

function isTrackerOrSession(lowerName: string): boolean {
    if (TRACKER_PARAMS.has(lowerName) || SESSION_PARAMS.has(lowerName)) return true;
    for (const prefix of TRACKER_PREFIXES) if (lowerName.startsWith(prefix)) return true;
    return false;
}

/** ≥ 16 ASCII letters/digits including a digit. */
export function looksLikeRandomId(value: string): boolean {
    if (value.length < RANDOM_SID_MIN_LENGTH) return false;
    let digit = false;
    for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        if (c >= 48 && c <= 57) digit = true;
        else if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
    }
    return digit;
}

/** The lowercase, percent-decoded name of the query piece `search[start, end)`. */
function paramName(search: string, start: number, end: number): string {
    const eq = search.indexOf('=', start);
    const lower = search.slice(start, eq >= 0 && eq < end ? eq : end).toLowerCase();
    if (!lower.includes('%')) return lower;
    try {
        return decodeURIComponent(lower);
    } catch {
        return lower; // unbalanced %: compare as written
    }
}

/** Whether the query piece `search[start, end)` is removed by cleanUrl. */
function isRemovable(search: string, start: number, end: number): boolean {
    const name = paramName(search, start, end);
    if (isTrackerOrSession(name)) return true;
    return name === 'sid' && looksLikeRandomId(search.slice(search.indexOf('=', start) + 1, end));
}

/**
 * The query without tracker/session parameters and empty pieces, other parameters in their
 * original order; `''` if nothing is left. `search` is `''` or `'?…'`.
 */
function cleanQuery(search: string): string {
    let kept = '';
    let dropped = false;
    for (let start = 1; start <= search.length; ) {
        let end = search.indexOf('&', start);
        if (end < 0) end = search.length;
        if (end === start || isRemovable(search, start, end)) dropped = true;
        else kept += `${kept === '' ? '?' : '&'}${search.slice(start, end)}`;
        start = end + 1;
    }
    return dropped ? kept : search;
}

/** Removes `;jsessionid=…` (and the other session names) pieces from every path segment. */
function stripSessionMatrix(pathname: string): string {
    return pathname
        .split('/')
        .map((segment) => {
            if (!segment.includes(';')) return segment;
            const [head, ...params] = segment.split(';');
            const kept = params.filter((p) => {
                const eq = p.indexOf('=');
                return !SESSION_PARAMS.has((eq < 0 ? p : p.slice(0, eq)).toLowerCase());
            });
            return [head, ...kept].join(';');
        })
        .join('/');
}

/** `//docs///a` → `/docs/a` (runs of `/` in the path become one). */
function collapseSlashes(pathname: string): string {
    let out = '';
    let prevSlash = false;
    for (let i = 0; i < pathname.length; i++) {
        const c = pathname[i]!;
        if (c === '/') {
            if (prevSlash) continue;
            prevSlash = true;
        } else {
            prevSlash = false;
        }
        out += c;
    }
    return out;
}

/** Most re-parses of a changed path before giving up on a fixed point (never reached in tests). */
const MAX_PATH_ROUNDS = 4;

/**
 * The path without session matrix parameters and with single slashes. When either rule changes
 * it, the parser sees it again: removing a piece can uncover a dot segment
 * (`/a/..;jsessionid=x/b` → `/b`), and so can collapsing slashes (the parser leaves
 * `//.~/.` alone but resolves `/.~/.` to `/.~/`). Repeat until nothing changes, so that
 * cleanUrl is idempotent and its result re-parses to the same path.
 */
function cleanPath(parts: UrlParts): string {
    let pathname = parts.pathname;
    for (let round = 0; round < MAX_PATH_ROUNDS; round++) {
        let next = pathname.includes(';') ? stripSessionMatrix(pathname) : pathname;
        if (next.includes('//')) next = collapseSlashes(next);
        if (next === pathname) break;
        pathname = new URL(joinParts(parts, next, '')).pathname;
    }
    return pathname;
}

/**
 * Cleans a URL for deduplication (algorithms.md §2.1), in this order:
 * 1. drop the fragment;
 * 2. remove session matrix parameters from path segments (`/p;jsessionid=ABC` → `/p`, any case,
 *    and the other session names);
 * 3. remove query parameters that are trackers (41 names, prefixes `utm_ mtm_ itm_ internal_
 *    elq`), session IDs, or a random-looking `sid`;
 * 4. keep the remaining parameters in their original order, drop a `?` with nothing after it;
 * 5. collapse runs of `/` in the path.
 *
 * Parsing with the WHATWG `URL` also lowercases the scheme and host, converts IDN hosts to
 * punycode, drops the default port and resolves `.`/`..`. Sorting parameters is left to
 * {@link dedupKey}. Non-http(s) URLs only lose their fragment. Idempotent.
 *
 * @throws InvalidUrlError if `url` is not an absolute URL.
 */
export function cleanUrl(url: string | URL): string {
    const parts = partsOfUrl(parseUrl(url));
    if (!isHttp(parts)) return parts.href;
    const pathname = cleanPath(parts);
    const search = cleanQuery(parts.search);
    const href = joinParts(parts, pathname, search);
    rememberParts(href, { ...parts, href, pathname, search });
    return href;
}
