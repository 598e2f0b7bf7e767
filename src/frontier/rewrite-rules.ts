import { DEFAULT_DELTA, assertDelta } from '../stat/index.js';
import { cleanUrl, hostOf } from '../url/index.js';

/**
 * Different values of one parameter that must each be confirmed before the whole parameter is
 * dropped for a host: `page=1` equal to "no parameter" says nothing about `page=2` (pagesift §2.5).
 */
export const WHOLE_PARAM_VALUES = 2;

/** A learned URL rewrite rule, as reported by {@link RewriteRuleLearner.rules}. */
export type RewriteRuleInfo =
    | { host: string; kind: 'drop-param-value'; name: string; value: string; support: number }
    | { host: string; kind: 'drop-param'; name: string; support: number }
    | { host: string; kind: 'drop-trailing-segment'; segment: string; support: number }
    | { host: string; kind: 'drop-extension'; extension: string; support: number };

/** A rule that one duplicate pair suggests; it becomes active after enough distinct pairs. */
type Candidate =
    | { host: string; kind: 'drop-param-value'; name: string; value: string }
    | { host: string; kind: 'drop-trailing-segment'; segment: string }
    | { host: string; kind: 'drop-extension'; extension: string };

type CandidateJSON = Candidate & { pairs: [string, string][] };

export interface RewriteRuleLearnerJSON {
    delta: number;
    candidates: CandidateJSON[];
}

export interface RewriteRuleLearnerOptions {
    /**
     * Error rate of the test that a rule is not a coincidence; it sets how many distinct page
     * pairs must confirm a rule ({@link ruleSupport}).
     * @default 0.05
     */
    delta?: number;
}

/**
 * Confirmations needed before a rewrite rule is trusted: the smallest k with p₀ᵏ ≤ δ. Null
 * hypothesis: two pages are text-identical by chance with probability p₀. Only confirmations can
 * be observed (a rewritten URL is never fetched, so counter-examples stay invisible), so the
 * one-sided binomial tail of k confirmations is p₀ᵏ.
 */
export function requiredConfirmations(p0: number, delta: number): number {
    assertDelta(delta);
    if (!(p0 > 0 && p0 < 1)) throw new RangeError(`p0 must lie strictly between 0 and 1, got ${p0}`);
    // The epsilon keeps the exact boundary ln δ / ln √δ = 2.0000000000000004 at 2.
    return Math.max(1, Math.ceil(Math.log(delta) / Math.log(p0) - 1e-9));
}

/**
 * k* of the DUST rule learner. Like pagesift, p₀ is the fixed prior √δ rather than this crawl's
 * duplicate rate (updating it by the observed rate is not validated on field replays), so k* = 2.
 */
export function ruleSupport(delta: number = DEFAULT_DELTA): number {
    return requiredConfirmations(Math.sqrt(delta), delta);
}

interface HostRules {
    /** Parameter name → confirmed values that may be dropped. */
    values: Map<string, Set<string>>;
    /** Trailing path segments equivalent to their parent directory. */
    segments: Set<string>;
    /** File extensions (`.html`) a page's name may go without: `/a/b.html` is `/a/b`. */
    extensions: Set<string>;
}

interface QueryParam {
    raw: string;
    name: string;
    value: string;
}

/**
 * Learns host-scoped URL rewrite rules from pairs of URLs whose pages have identical text
 * (Bar-Yossef et al., "Do not crawl in the DUST", WWW 2007; Dasgupta et al., KDD 2008):
 * one extra query parameter (`print=1`), one extra trailing path segment (`index.html`), or a file extension on the
 * page's name (`/partners/acme.html` = `/partners/acme`, the way static hosts serve pages). The first two rewrite
 * URLs ({@link rewrite}): the spelling left is one the pairs showed the server answers. An extension rule says two
 * names are one page, not that every name answers without its extension (`/dir/index` is no page where
 * `/dir/index.html` is), so it only joins their dedup form ({@link pageForm}) and a page is fetched as linked.
 * A rule is applied to newly discovered URLs once {@link ruleSupport} distinct pairs confirm it.
 */
export class RewriteRuleLearner {
    readonly delta: number;
    /** Distinct confirming pairs each rule needs. */
    readonly support: number;
    private readonly candidates = new Map<string, { candidate: Candidate; pairs: Set<string> }>();
    private readonly active = new Map<string, HostRules>();
    private activations = 0;

    constructor(options: RewriteRuleLearnerOptions = {}) {
        this.delta = options.delta ?? DEFAULT_DELTA;
        this.support = ruleSupport(this.delta);
    }

    /** Records that the page at `url` has the same text as the page fetched earlier at `original`. */
    observeDuplicate(url: string, original: string): void {
        const a = new URL(cleanUrl(url));
        const b = new URL(cleanUrl(original));
        const host = hostOf(a.href);
        if (host !== hostOf(b.href)) return;
        const candidate = candidateFor(host, a, b);
        if (!candidate) return;
        const id = candidateId(candidate);
        let entry = this.candidates.get(id);
        if (!entry) {
            entry = { candidate, pairs: new Set() };
            this.candidates.set(id, entry);
        }
        entry.pairs.add(pairKey(a.href, b.href));
        if (entry.pairs.size === this.support) this.activate(candidate);
    }

    /**
     * The form all known spellings of the page share, for deduplication only: {@link rewrite}, then a confirmed file
     * extension dropped from the page's name. Not necessarily a URL the server answers.
     */
    pageForm(url: string): string {
        const rewritten = this.rewrite(url);
        const extensions = this.active.get(hostOf(rewritten))?.extensions;
        if (!extensions || extensions.size === 0) return rewritten;
        const parsed = new URL(rewritten);
        const path = withoutExtension(parsed.pathname, extensions);
        if (path === parsed.pathname) return rewritten;
        parsed.pathname = path;
        return parsed.href;
    }

    /** Applies the active parameter and segment rules of the URL's host to a cleaned URL; returns it unchanged if none apply. */
    rewrite(url: string): string {
        if (this.active.size === 0) return url;
        const rules = this.active.get(hostOf(url));
        if (!rules) return url;
        const parsed = new URL(url);
        const search = rewriteQuery(parsed.search, rules);
        const path = rewritePath(parsed.pathname, rules);
        if (search === parsed.search && path === parsed.pathname) return url;
        parsed.search = search;
        parsed.pathname = path;
        return parsed.href;
    }

    /** The active rules; a parameter with {@link WHOLE_PARAM_VALUES} confirmed values is one `drop-param` rule. */
    rules(): RewriteRuleInfo[] {
        const out: RewriteRuleInfo[] = [];
        for (const [host, rules] of this.active) {
            for (const [name, values] of rules.values) {
                const supports = [...values].map((value) =>
                    this.supportOf({ host, kind: 'drop-param-value', name, value }),
                );
                if (values.size >= WHOLE_PARAM_VALUES) {
                    out.push({ host, kind: 'drop-param', name, support: supports.reduce((a, b) => a + b, 0) });
                } else {
                    [...values].forEach((value, i) =>
                        out.push({ host, kind: 'drop-param-value', name, value, support: supports[i] ?? 0 }),
                    );
                }
            }
            for (const segment of rules.segments) {
                const support = this.supportOf({ host, kind: 'drop-trailing-segment', segment });
                out.push({ host, kind: 'drop-trailing-segment', segment, support });
            }
            for (const extension of rules.extensions) {
                out.push({ host, kind: 'drop-extension', extension, support: this.supportOf({ host, kind: 'drop-extension', extension }) });
            }
        }
        return out;
    }

    toJSON(): RewriteRuleLearnerJSON {
        return {
            delta: this.delta,
            candidates: [...this.candidates.values()].map(({ candidate, pairs }) => ({
                ...candidate,
                pairs: [...pairs].map((key) => JSON.parse(key) as [string, string]),
            })),
        };
    }

    static fromJSON(json: RewriteRuleLearnerJSON): RewriteRuleLearner {
        const learner = new RewriteRuleLearner({ delta: json.delta });
        for (const { pairs, ...candidate } of json.candidates) {
            const entry = { candidate, pairs: new Set(pairs.map(([a, b]) => pairKey(a, b))) };
            learner.candidates.set(candidateId(candidate), entry);
            if (entry.pairs.size >= learner.support) learner.activate(candidate);
        }
        return learner;
    }

    /** Rules activated so far: a change means dedup keys computed before it may no longer match (see {@link pageForm}). */
    get ruleCount(): number {
        return this.activations;
    }

    private activate(candidate: Candidate): void {
        this.activations += 1;
        let rules = this.active.get(candidate.host);
        if (!rules) {
            rules = { values: new Map(), segments: new Set(), extensions: new Set() };
            this.active.set(candidate.host, rules);
        }
        if (candidate.kind === 'drop-trailing-segment') {
            rules.segments.add(candidate.segment);
            return;
        }
        if (candidate.kind === 'drop-extension') {
            rules.extensions.add(candidate.extension);
            return;
        }
        let values = rules.values.get(candidate.name);
        if (!values) {
            values = new Set();
            rules.values.set(candidate.name, values);
        }
        values.add(candidate.value);
    }

    private supportOf(candidate: Candidate): number {
        return this.candidates.get(candidateId(candidate))?.pairs.size ?? 0;
    }
}

function candidateId(candidate: Candidate): string {
    if (candidate.kind === 'drop-param-value') return JSON.stringify([candidate.host, candidate.kind, candidate.name, candidate.value]);
    return JSON.stringify([candidate.host, candidate.kind, candidate.kind === 'drop-extension' ? candidate.extension : candidate.segment]);
}

/** Order-free key of a page pair, so (a, b) and (b, a) confirm a rule once. */
function pairKey(a: string, b: string): string {
    return JSON.stringify(a < b ? [a, b] : [b, a]);
}

/** The rule a duplicate pair suggests, if the URLs differ by exactly one parameter or trailing segment. */
function candidateFor(host: string, a: URL, b: URL): Candidate | undefined {
    if (a.pathname === b.pathname) {
        const extra = extraParam(parseQuery(a.search), parseQuery(b.search));
        return extra && { host, kind: 'drop-param-value', name: extra.name, value: extra.value };
    }
    if (a.search !== b.search) return undefined;
    const segment = extraTrailingSegment(a.pathname, b.pathname) ?? extraTrailingSegment(b.pathname, a.pathname);
    if (segment !== undefined) return { host, kind: 'drop-trailing-segment', segment };
    const extension = extraExtension(a.pathname, b.pathname) ?? extraExtension(b.pathname, a.pathname);
    return extension === undefined ? undefined : { host, kind: 'drop-extension', extension };
}

/** A file extension: a dot and up to eight letters or digits (`.html`, `.php`, `.aspx`). */
const EXTENSION = /\.[a-z0-9]{1,8}$/i;

/** `.html` for (`/a/b`, `/a/b.html`): the longer path is the shorter one with an extension on its name; else undefined. */
function extraExtension(shorter: string, longer: string): string | undefined {
    if (shorter.endsWith('/') || !longer.startsWith(shorter)) return undefined;
    const rest = longer.slice(shorter.length);
    return EXTENSION.test(rest) && rest.lastIndexOf('.') === 0 ? rest.toLowerCase() : undefined;
}

/** The one parameter that one list has in addition to the other (as multisets), if exactly one. */
function extraParam(a: QueryParam[], b: QueryParam[]): QueryParam | undefined {
    const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
    if (longer.length !== shorter.length + 1) return undefined;
    const unmatched = new Map<string, number>();
    for (const { name, value } of shorter) {
        const key = JSON.stringify([name, value]);
        unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
    }
    let extra: QueryParam | undefined;
    for (const param of longer) {
        const key = JSON.stringify([param.name, param.value]);
        const count = unmatched.get(key) ?? 0;
        if (count > 0) unmatched.set(key, count - 1);
        else if (extra) return undefined;
        else extra = param;
    }
    return extra;
}

/** `index.html` for (`/dir/`, `/dir/index.html`), `more` for (`/a`, `/a/more/`); else undefined. */
function extraTrailingSegment(shorter: string, longer: string): string | undefined {
    const base = shorter.endsWith('/') ? shorter : `${shorter}/`;
    if (!longer.startsWith(base)) return undefined;
    const rest = longer.slice(base.length).replace(/\/$/, '');
    return rest !== '' && !rest.includes('/') ? rest : undefined;
}

function parseQuery(search: string): QueryParam[] {
    if (search.length <= 1) return [];
    return search
        .slice(1)
        .split('&')
        .filter((raw) => raw !== '')
        .map((raw) => {
            const eq = raw.indexOf('=');
            const name = eq < 0 ? raw : raw.slice(0, eq);
            const value = eq < 0 ? '' : raw.slice(eq + 1);
            return { raw, name: decodeQueryComponent(name), value: decodeQueryComponent(value) };
        });
}

function decodeQueryComponent(text: string): string {
    try {
        return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
        return text; // malformed percent-encoding: compare the raw text
    }
}

/** Removes the dropped parameters, keeping the raw spelling and order of the others. */
function rewriteQuery(search: string, rules: HostRules): string {
    if (rules.values.size === 0 || search.length <= 1) return search;
    const params = parseQuery(search);
    const kept = params.filter(({ name, value }) => {
        const values = rules.values.get(name);
        return !values || (values.size < WHOLE_PARAM_VALUES && !values.has(value));
    });
    if (kept.length === params.length) return search;
    return kept.length === 0 ? '' : `?${kept.map((p) => p.raw).join('&')}`;
}

/** Strips confirmed trailing segments, leaving the parent directory: `/dir/index.html` → `/dir/`. */
function rewritePath(path: string, rules: HostRules): string {
    let current = path;
    for (;;) {
        const trimmed = current.replace(/\/$/, '');
        const slash = trimmed.lastIndexOf('/');
        if (!rules.segments.has(trimmed.slice(slash + 1))) return current;
        current = trimmed.slice(0, slash + 1);
    }
}

/** Drops a confirmed extension from the page's name: `/dir/page.html` → `/dir/page`. */
function withoutExtension(path: string, extensions: ReadonlySet<string>): string {
    if (path.endsWith('/')) return path;
    const extension = EXTENSION.exec(path.slice(path.lastIndexOf('/') + 1))?.[0];
    // A name that is only an extension (`/.htaccess`) has no page name to keep.
    if (extension === undefined || !extensions.has(extension.toLowerCase()) || path.endsWith(`/${extension}`)) return path;
    return path.slice(0, -extension.length);
}
