/**
 * URL globs, as Website Content Crawler and Crawlee's `enqueueLinks({ globs })` take them: `*` matches within one
 * path segment, `**` across segments, `?` one character, `{a,b}` either, `[abc]` / `[!abc]` a character class. A glob
 * matches the whole URL (`https://example.com/docs/**`).
 */

/** The regular expression of one glob. */
export function globToRegExp(glob: string): RegExp {
    let source = '';
    for (let i = 0; i < glob.length; i++) {
        const char = glob[i]!;
        if (char === '*') {
            if (glob[i + 1] === '*') {
                source += '.*';
                i++;
            } else source += '[^/]*';
        } else if (char === '?') source += '[^/]';
        else if (char === '{') {
            const end = glob.indexOf('}', i);
            if (end < 0) source += '\\{';
            else {
                source += `(?:${glob.slice(i + 1, end).split(',').map((part) => globToRegExp(part).source.slice(1, -1)).join('|')})`;
                i = end;
            }
        } else if (char === '[') {
            const end = glob.indexOf(']', i + 2);
            if (end < 0) source += '\\[';
            else {
                const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
                source += body.startsWith('!') ? `[^${body.slice(1)}]` : `[${body}]`;
                i = end;
            }
        } else source += char.replace(/[.+^$()|\\/]/g, (c) => `\\${c}`);
    }
    return new RegExp(`^${source}$`);
}

/** Why a URL is outside the globs, or null when it may be crawled. */
export type GlobVerdict = 'excluded-by-glob' | 'not-included-by-glob' | null;

/** Include and exclude globs together: excluded wins; with include globs, a URL must match one of them. */
export class UrlGlobs {
    readonly #include: RegExp[];
    readonly #exclude: RegExp[];

    constructor(include: readonly string[] = [], exclude: readonly string[] = []) {
        this.#include = include.map(globToRegExp);
        this.#exclude = exclude.map(globToRegExp);
    }

    get isEmpty(): boolean {
        return this.#include.length === 0 && this.#exclude.length === 0;
    }

    verdict(url: string): GlobVerdict {
        if (this.#exclude.some((glob) => glob.test(url))) return 'excluded-by-glob';
        if (this.#include.length > 0 && !this.#include.some((glob) => glob.test(url))) return 'not-included-by-glob';
        return null;
    }
}
