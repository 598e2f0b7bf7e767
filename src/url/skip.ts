/**
 * Pre-fetch filter (algorithms.md §2.2): URLs not worth fetching. One named reason per rule, in
 * the style of Heritrix's decide rules (`PathologicalPathDecideRule`,
 * `TooManyPathSegmentsDecideRule`); the reasons are reported to users in `skipped` counts.
 */

/** Why a URL is not fetched. */
export type SkipReason =
    /** Not http(s): `javascript:`, `mailto:`, `tel:`, `data:`, `file:`, `ftp:` … */
    | 'unsupported-scheme'
    /** The last path segment has the extension of a file that cannot become text (images, media, archives, fonts, scripts). */
    | 'binary-extension'
    /** The same path segment three or more times in a row (`more/more/more/`), typically a broken relative link. */
    | 'pathological-path'
    /** More path segments than `maxPathSegments`. */
    | 'too-deep'
    /** Longer than `maxUrlLength` characters. */
    | 'too-long'
    /** Not an absolute URL the WHATWG parser accepts (or not a string). */
    | 'malformed-url';

export interface SkipOptions {
    /**
     * Most path segments a fetched URL may have (Heritrix `TooManyPathSegmentsDecideRule`;
     * pagesift's value is not visible).
     * @default 20
     */
    maxPathSegments?: number;
    /**
     * Longest URL, in characters of the given string, worth fetching (Heritrix's default
     * `max-length`). The API's hard limit of 8,192 bytes is a separate, larger bound.
     * @default 2048
     */
    maxUrlLength?: number;
}

export const DEFAULT_SKIP_OPTIONS: Readonly<Required<SkipOptions>> = Object.freeze({
    maxPathSegments: 20,
    maxUrlLength: 2048,
});

/**
 * A segment repeated this many times in a row makes a path pathological (Heritrix
 * `PathologicalPathDecideRule`, which allows 2 repetitions).
 */
export const PATHOLOGICAL_REPEATS = 3;

/**
 * Extensions of files that cannot become text, lowercase. pagesift's visible list (images,
 * audio/video), the completion of algorithms.md §2.2 (more audio, archives, installers,
 * fonts, scripts, styles, source maps) and a few more media/package types. PDF, Office, EPUB, CSV, XML, JSON and plain text are
 * fetched: they convert to Markdown.
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
    // images
    'jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'bmp', 'ico', 'svg', 'tif', 'tiff', 'heic', 'psd',
    // audio / video
    'mp3', 'mp4', 'm4a', 'm4v', 'mov', 'avi', 'wmv', 'flv', 'mkv', 'webm', 'wav', 'ogg',
    'flac', 'aac', 'opus', '3gp',
    // archives, disk images, installers, binaries
    'zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar', 'dmg', 'iso', 'exe', 'msi', 'apk', 'bin',
    // fonts
    'woff', 'woff2', 'ttf', 'otf', 'eot',
    // scripts, styles, source maps
    'css', 'js', 'mjs', 'map',
    // ours, beyond the spec's list: more media, Flash, Java and Linux packages
    'mpg', 'mpeg', 'ogv', 'oga', 'wma', 'aif', 'aiff', 'mid', 'midi', 'jfif', 'heif', 'swf', 'jar',
    'deb', 'rpm', 'zst',
]);

const LONGEST_EXTENSION = 5;

function limit(value: number | undefined, fallback: number): number {
    return typeof value === 'number' && value >= 0 ? value : fallback;
}

/** Lowercase extension of the last path segment (`''` if none). Matrix parameters (`;…`) are ignored. */
function extensionOf(pathname: string): string {
    const slash = pathname.lastIndexOf('/');
    let last = pathname.slice(slash + 1);
    const semi = last.indexOf(';');
    if (semi >= 0) last = last.slice(0, semi);
    const dot = last.lastIndexOf('.');
    if (dot < 0 || last.length - dot - 1 > LONGEST_EXTENSION) return '';
    return last.slice(dot + 1).toLowerCase();
}

/** The scheme of `url` lowercased, or `''` if it does not start with one. */
function schemeOf(url: string): string {
    let start = 0;
    while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
    for (let i = start; i < url.length && i < start + 32; i++) {
        const c = url.charCodeAt(i);
        if (c === 58 /* : */) return i > start ? url.slice(start, i).toLowerCase() : '';
        const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
        const other = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46; // digit + - .
        if (!letter && !(other && i > start)) return '';
    }
    return '';
}

function pathReason(pathname: string, maxSegments: number): SkipReason | null {
    if (BINARY_EXTENSIONS.has(extensionOf(pathname))) return 'binary-extension';
    let segments = 0;
    let run = 0;
    let previous = '';
    for (const segment of pathname.split('/')) {
        if (segment === '') continue;
        segments++;
        run = segment === previous ? run + 1 : 1;
        if (run >= PATHOLOGICAL_REPEATS) return 'pathological-path';
        previous = segment;
    }
    return segments > maxSegments ? 'too-deep' : null;
}

/**
 * Why `url` is not worth fetching, or `null` to fetch it (algorithms.md §2.2). Checks, first
 * match wins: malformed or non-http(s) scheme, too long, binary extension, pathological path,
 * too deep. Never throws: anything that is not an absolute http(s) URL string gives
 * `'unsupported-scheme'` or `'malformed-url'`.
 */
export function skipReason(url: string | URL, options?: SkipOptions): SkipReason | null {
    try {
        const maxLength = limit(options?.maxUrlLength, DEFAULT_SKIP_OPTIONS.maxUrlLength);
        const maxSegments = limit(options?.maxPathSegments, DEFAULT_SKIP_OPTIONS.maxPathSegments);
        let parsed: URL;
        if (url instanceof URL) {
            parsed = url;
        } else {
            if (typeof url !== 'string') return 'malformed-url';
            if (url.length > maxLength) {
                // Do not parse megabytes; a long data:/javascript: URL is still reported by scheme.
                const scheme = schemeOf(url);
                return scheme !== '' && scheme !== 'http' && scheme !== 'https' ? 'unsupported-scheme' : 'too-long';
            }
            try {
                parsed = new URL(url);
            } catch {
                return 'malformed-url';
            }
        }
        const protocol = parsed.protocol;
        if (protocol !== 'https:' && protocol !== 'http:') return 'unsupported-scheme';
        if (url instanceof URL && parsed.href.length > maxLength) return 'too-long';
        return pathReason(parsed.pathname, maxSegments);
    } catch {
        return 'malformed-url';
    }
}
