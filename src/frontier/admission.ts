/**
 * Admission: the rules a discovered URL passes before it may be queued, in order, each named for what it rejects
 * (Heritrix's decide rules): the pre-fetch filter, cleaning, the learned rewrite rules, scope, depth and the user's
 * globs. What passes gets its canonical spelling and dedup key; dedup, robots.txt and room are the frontier's.
 */
import { cleanUrl, skipReason } from '../url/index.js';
import type { CrawlScope, SkipOptions, SkipReason, UrlGlobs } from '../url/index.js';
import type { TrapLearner } from './trap-learner.js';

/** Why a discovered URL was not queued (or left the queue). Reported as `FOCUS_REPORT.skipped`. */
export type FrontierSkipReason =
    | SkipReason
    | 'out-of-scope'
    | 'duplicate-url'
    | 'duplicate-spelling'
    | 'dry-subtree'
    | 'frontier-full'
    | 'evicted'
    | 'robots-disallowed'
    | 'beyond-max-depth'
    | 'excluded-by-glob'
    | 'not-included-by-glob';

export interface AdmissionRules {
    /** Limits of the pre-fetch URL filter. @default DEFAULT_SKIP_OPTIONS */
    skip?: SkipOptions;
    /** The hosts the crawl may fetch. */
    scope: CrawlScope;
    /** Links deeper than this (start URLs are depth 0) are refused. @default no limit */
    maxDepth?: number;
    /** The user's include and exclude globs; start URLs are exempt. @default none */
    globs?: UrlGlobs;
    /** Its rewrite rules give the canonical spelling, and its `keyOf` the dedup key. */
    trapLearner: TrapLearner;
}

/** A URL that passed: its cleaned and canonical spellings, and its dedup key. */
export interface Admitted {
    admitted: true;
    /** Cleaned, before the rewrite rules. */
    cleaned: string;
    /** Cleaned and rewritten: the spelling to queue. */
    url: string;
    uniqueKey: string;
}

/** A URL that did not pass, and the spelling to report it under (raw if it could not be cleaned). */
export interface Refused {
    admitted: false;
    reason: FrontierSkipReason;
    url: string;
}

export class Admission {
    readonly #rules: AdmissionRules;

    constructor(rules: AdmissionRules) {
        this.#rules = rules;
    }

    /** Whether a URL found at `depth` may be queued, and under which spelling and key. */
    judge(rawUrl: string, depth: number): Admitted | Refused {
        const { skip, scope, maxDepth = Infinity, globs, trapLearner } = this.#rules;
        const filtered = skipReason(rawUrl, skip);
        if (filtered) return refused(filtered, rawUrl);
        let cleaned: string;
        try {
            cleaned = cleanUrl(rawUrl);
        } catch {
            return refused('malformed-url', rawUrl);
        }
        const url = trapLearner.rewrite(cleaned);
        if (!scope.includes(url)) return refused('out-of-scope', url);
        if (depth > maxDepth) return refused('beyond-max-depth', url);
        // Start URLs (depth 0) are the user's own choice: the globs filter what the crawl discovers.
        const outside = depth > 0 && globs ? globs.verdict(url) : null;
        if (outside) return refused(outside, url);
        return { admitted: true, cleaned, url, uniqueKey: trapLearner.keyOf(url) };
    }
}

function refused(reason: FrontierSkipReason, url: string): Refused {
    return { admitted: false, reason, url };
}
