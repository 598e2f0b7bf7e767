import { diagnoseUrl, InvalidUrlError } from './errors.js';

/**
 * The pieces of a parsed URL that the URL rules use, as the WHATWG parser serialises them
 * (`host` lowercased, IDN as punycode, default port dropped, `.`/`..` resolved).
 */
export interface UrlParts {
    /** The whole URL without its fragment. */
    href: string;
    /** `'https:'` */
    protocol: string;
    /** `user:pass@` or `''` */
    userinfo: string;
    /** Hostname plus a non-default port. */
    host: string;
    hostname: string;
    /** Starts with `/` for http(s). */
    pathname: string;
    /** `''` or `'?…'` (never a bare `'?'`). */
    search: string;
}

/** Parses with the built-in WHATWG `URL`; a rejected string throws {@link InvalidUrlError}. */
export function parseUrl(url: string | URL): URL {
    if (url instanceof URL) return url;
    if (typeof url !== 'string') throw new InvalidUrlError(String(url), `expected a string, got ${typeof url}`);
    try {
        return new URL(url);
    } catch {
        throw new InvalidUrlError(url, diagnoseUrl(url));
    }
}

export function partsOfUrl(u: URL): UrlParts {
    const { username, password } = u;
    const href = u.href;
    const hash = href.indexOf('#');
    return {
        href: hash < 0 ? href : href.slice(0, hash),
        protocol: u.protocol,
        userinfo: username || password ? `${username}${password ? `:${password}` : ''}@` : '',
        host: u.host,
        hostname: u.hostname,
        pathname: u.pathname,
        search: u.search,
    };
}

// One-entry memo. The usual pipeline is `c = cleanUrl(x)`, then `dedupKey(c)`, `shapeKey(c)` …;
// cleanUrl leaves the parts of its result here, so the calls that follow do not parse again.
// Exact, not a heuristic: an entry is used only for the identical string, and its parts are
// those the parser gives for that string (cleanUrl builds its output from canonical pieces; a
// property test checks that re-parsing it gives the same parts).
let memoKey: string | undefined;
let memoParts: UrlParts | undefined;

export function rememberParts(href: string, parts: UrlParts): void {
    memoKey = href;
    memoParts = parts;
}

/** The parts of `url`, from the memo when `url` is the string last cleaned or parsed. */
export function urlParts(url: string | URL): UrlParts {
    if (typeof url === 'string') {
        if (url === memoKey) return memoParts!;
        const parts = partsOfUrl(parseUrl(url));
        rememberParts(url, parts);
        return parts;
    }
    return partsOfUrl(parseUrl(url));
}

/** Test hook: forget the memo, so a test can compare memoised and fresh results. */
export function forgetUrlParts(): void {
    memoKey = undefined;
    memoParts = undefined;
}

/** `protocol//userinfo host pathname search`: the href of `parts` without a fragment. */
export function joinParts(parts: UrlParts, pathname = parts.pathname, search = parts.search): string {
    return `${parts.protocol}//${parts.userinfo}${parts.host}${pathname}${search}`;
}

export function isHttp(parts: UrlParts): boolean {
    return parts.protocol === 'https:' || parts.protocol === 'http:';
}
