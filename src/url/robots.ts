/**
 * robots.txt (RFC 9309, the Robots Exclusion Protocol): the rules of one host for one crawler, parsed once and
 * asked per URL. Pure: the caller fetches the file.
 */

/**
 * Parsing stops after this many characters of the file (RFC 9309 §2.5: a parsing limit of at least 500 KiB).
 */
export const ROBOTS_PARSE_LIMIT = 500 * 1024;

/** The product token the crawler looks for in `User-agent` lines; its User-Agent header names it too. */
export const ROBOTS_PRODUCT_TOKEN = 'crawlee-focus';

interface Rule {
    allow: boolean;
    /** Normalised path pattern (`*` wildcards, optional trailing `$`). */
    pattern: string;
    /** Octets of the pattern, for the longest-match rule. */
    length: number;
}

interface Group {
    agents: string[];
    rules: Rule[];
    crawlDelaySeconds: number | null;
}

/** What robots.txt says to one crawler about one host. */
export class RobotsPolicy {
    private constructor(
        private readonly rules: readonly Rule[],
        /** `Crawl-delay` of the crawler's group, in seconds (not in RFC 9309; honoured as Bing and Yandex do). */
        readonly crawlDelaySeconds: number | null,
        /** `Sitemap` URLs, whatever the group. */
        readonly sitemaps: readonly string[],
    ) {}

    /** Everything allowed: no robots.txt (4xx), or an empty one. */
    static allowAll(sitemaps: readonly string[] = []): RobotsPolicy {
        return new RobotsPolicy([], null, sitemaps);
    }

    /** Nothing allowed: robots.txt unreachable (5xx, network error), as RFC 9309 §2.3.1.4 asks. */
    static disallowAll(): RobotsPolicy {
        return new RobotsPolicy([{ allow: false, pattern: '/', length: 1 }], null, []);
    }

    /**
     * Parses a robots.txt for the crawler named `productToken`: its own groups if any name it (case-insensitively),
     * else the `*` groups; matching groups are merged (RFC 9309 §2.2.1).
     */
    static parse(text: string, productToken: string = ROBOTS_PRODUCT_TOKEN): RobotsPolicy {
        const groups = parseGroups(text.slice(0, ROBOTS_PARSE_LIMIT));
        const token = productToken.toLowerCase();
        let chosen = groups.groups.filter((g) => g.agents.includes(token));
        if (chosen.length === 0) chosen = groups.groups.filter((g) => g.agents.includes('*'));
        const delays = chosen.map((g) => g.crawlDelaySeconds).filter((d): d is number => d !== null);
        return new RobotsPolicy(
            chosen.flatMap((g) => g.rules),
            delays.length > 0 ? Math.max(...delays) : null,
            groups.sitemaps,
        );
    }

    /**
     * Whether the crawler may fetch `url`: the longest matching rule decides, `Allow` wins a tie, no match allows
     * (RFC 9309 §2.2.2). /robots.txt itself is always allowed.
     */
    isAllowed(url: string | URL): boolean {
        if (this.rules.length === 0) return true;
        let parsed: URL;
        try {
            parsed = typeof url === 'string' ? new URL(url) : url;
        } catch {
            return false;
        }
        if (parsed.pathname === '/robots.txt') return true;
        const path = normalizePath(parsed.pathname + parsed.search);
        let best: Rule | null = null;
        for (const rule of this.rules) {
            if (best && (rule.length < best.length || (rule.length === best.length && best.allow))) continue;
            if (matchesPattern(path, rule.pattern)) best = rule;
        }
        return best?.allow ?? true;
    }
}

function parseGroups(text: string): { groups: Group[]; sitemaps: string[] } {
    const groups: Group[] = [];
    const sitemaps: string[] = [];
    let current: Group | null = null;
    let lastWasAgent = false;
    for (const rawLine of text.split(/\r\n|\r|\n/)) {
        const line = rawLine.replace(/#.*$/, '').trim();
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const key = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (key === 'sitemap') {
            if (value) sitemaps.push(value);
            continue;
        }
        if (key === 'user-agent') {
            // Consecutive user-agent lines share one group; a user-agent after rules starts the next group.
            if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [], crawlDelaySeconds: null }));
            const agent = value.split(/[\s/]/)[0]!.toLowerCase();
            if (agent) current.agents.push(agent);
            lastWasAgent = true;
            continue;
        }
        if (!current) continue; // rules before any user-agent line belong to no group
        if (key === 'allow' || key === 'disallow') {
            // Only a rule ends a run of user-agent lines (RFC 9309 §2.2.1): `Crawl-delay` or an unknown line between
            // two user-agent lines leaves them one group, as Google's parser reads it.
            lastWasAgent = false;
            // An empty Disallow allows everything: it adds no rule.
            if (!value) continue;
            const pattern = normalizePath(value.startsWith('/') || value.startsWith('*') ? value : `/${value}`);
            current.rules.push({ allow: key === 'allow', pattern, length: Buffer.byteLength(pattern) });
        } else if (key === 'crawl-delay') {
            const seconds = Number(value);
            if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelaySeconds = Math.max(current.crawlDelaySeconds ?? 0, seconds);
        }
    }
    return { groups, sitemaps };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * One spelling per path: non-ASCII characters percent-encoded as UTF-8, escapes in upper case, and escapes of
 * unreserved characters decoded (RFC 9309 §2.2.2 compares octets after this normalisation).
 */
function normalizePath(path: string): string {
    let out = '';
    for (let i = 0; i < path.length; i++) {
        const char = path[i]!;
        if (char === '%' && /^[0-9a-fA-F]{2}$/.test(path.slice(i + 1, i + 3))) {
            const decoded = String.fromCharCode(parseInt(path.slice(i + 1, i + 3), 16));
            out += UNRESERVED.test(decoded) ? decoded : `%${path.slice(i + 1, i + 3).toUpperCase()}`;
            i += 2;
        } else if (char.charCodeAt(0) > 0x7e || char.charCodeAt(0) < 0x21) {
            const codePoint = path.codePointAt(i)!;
            if (codePoint > 0xffff) i += 1;
            out += encodeURIComponent(String.fromCodePoint(codePoint));
        } else {
            out += char;
        }
    }
    return out;
}

/**
 * Whether `path` starts with a match of `pattern` (`*` = any run of characters, a final `$` = end of path).
 * Iterative with one backtrack point, so a hostile pattern costs O(path × pattern) at worst, never exponential.
 */
export function matchesPattern(path: string, pattern: string): boolean {
    const anchored = pattern.endsWith('$');
    const body = anchored ? pattern.slice(0, -1) : pattern;
    let p = 0;
    let b = 0;
    let starAt = -1;
    let starPath = 0;
    while (p < path.length) {
        if (b === body.length && !anchored) return true; // prefix match: the rest of the path is free
        if (b < body.length && body[b] === '*') {
            starAt = b++;
            starPath = p;
        } else if (b < body.length && body[b] === path[p]) {
            p++;
            b++;
        } else if (starAt >= 0) {
            b = starAt + 1;
            p = ++starPath;
        } else {
            return false;
        }
    }
    while (b < body.length && body[b] === '*') b++;
    return b === body.length;
}
