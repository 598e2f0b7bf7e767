/**
 * `LEARNED_RULES`: what the crawl learned about the site, in a form a user can review and paste into the next run:
 * the demoted trap templates and failing parts as URL globs (for `excludeUrlGlobs`, or Crawlee's
 * `enqueueLinks({ exclude })`), and the rewrite rules as regular expressions of what they drop.
 */
import type { FailingPartInfo, RewriteRuleInfo, TrapInfo } from '../frontier/index.js';

export interface LearnedRules {
    /** One glob per demoted template or failing part, and why. */
    excludeUrlGlobs: Array<{ glob: string; why: string }>;
    /** Spellings of one page: what each rule drops from URLs of its host, as a pattern to replace with `replacement`. */
    rewriteRules: Array<{ host: string; pattern: string; replacement: string; why: string }>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A URL template (`e.edu/events/#/#?month&year`) or failing part (`e.org/keyword_*.html`, `e.org/guide/#/`, a bare host)
 * as a glob over whole URLs: digit runs (`#`) and long ID segments (`*`) become `*`, parameters become `[?]*`, any
 * scheme. A failing part that ends in `/` is a directory (everything below it); a template that does is one page.
 */
export function templateGlob(template: string, { part = false } = {}): string {
    const [path = '', query] = template.split('?', 2);
    const wildcard = path.replace(/#+/g, '*');
    if (!wildcard.includes('/')) return `*://${wildcard}/**`; // a bare host: everything on it
    const below = part && wildcard.endsWith('/') ? '**' : '';
    return `*://${wildcard}${below}${query !== undefined ? '[?]*' : ''}`;
}

function ruleOf(rule: RewriteRuleInfo): LearnedRules['rewriteRules'][number] {
    const host = rule.host;
    if (rule.kind === 'drop-trailing-segment') {
        return { host, pattern: `/${escapeRegExp(rule.segment)}$`, replacement: '/', why: `"/${rule.segment}" names the same page as its directory (${rule.support} duplicate pairs)` };
    }
    if (rule.kind === 'drop-extension') {
        return { host, pattern: `(?<=[^/])${escapeRegExp(rule.extension)}(?=[?#]|$)`, replacement: '', why: `a page's name ending in "${rule.extension}" names the same page without it (${rule.support} duplicate pairs)` };
    }
    if (rule.kind === 'drop-param') {
        return { host, pattern: `[?&]${escapeRegExp(rule.name)}=[^&]*`, replacement: '', why: `the parameter "${rule.name}" does not change the page (${rule.support} duplicate pairs)` };
    }
    return { host, pattern: `[?&]${escapeRegExp(rule.name)}=${escapeRegExp(rule.value)}(?=&|$)`, replacement: '', why: `"${rule.name}=${rule.value}" does not change the page (${rule.support} duplicate pairs)` };
}

export function learnedRules(learned: { traps: TrapInfo[]; failing: FailingPartInfo[]; rewriteRules: RewriteRuleInfo[] }): LearnedRules {
    return {
        excludeUrlGlobs: [
            ...learned.traps.map((trap) => ({ glob: templateGlob(trap.shape), why: `trap: ${trap.repeated} of ${trap.fetched} pages repeated earlier content` })),
            ...learned.failing.map((part) => ({ glob: templateGlob(part.part, { part: true }), why: `failing: ${part.failed} of ${part.fetched} fetches failed` })),
        ],
        rewriteRules: learned.rewriteRules.map(ruleOf),
    };
}
