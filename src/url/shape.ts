/**
 * URL templates (algorithms.md §2.3): `e.edu/events/2024/05?year=2024&month=5` →
 * `e.edu/events/#/#?month&year`. The trap learner keeps duplicate statistics per template.
 */
import { urlParts, type UrlParts } from './parts.js';

/**
 * A path segment at least this long that contains a digit becomes `*` (hashes, UUIDs, slugs
 * with IDs); pagesift's threshold is not visible (spec §12).
 */
export const LONG_SEGMENT = 16;

function isDigit(c: number): boolean {
    return c >= 48 && c <= 57;
}

/** `*` for a long segment with digits, else the segment with each digit run replaced by `#`. */
function segmentShape(segment: string): string {
    let digits = false;
    for (let i = 0; i < segment.length; i++) {
        if (isDigit(segment.charCodeAt(i))) {
            digits = true;
            break;
        }
    }
    if (!digits) return segment;
    if (segment.length >= LONG_SEGMENT) return '*';
    let out = '';
    let inRun = false;
    for (let i = 0; i < segment.length; i++) {
        const c = segment.charCodeAt(i);
        if (isDigit(c)) {
            if (!inRun) out += '#';
            inRun = true;
        } else {
            out += segment[i];
            inRun = false;
        }
    }
    return out;
}

function pathShape(pathname: string): string {
    // Fast path: nothing to replace.
    let digits = false;
    for (let i = 0; i < pathname.length; i++) {
        if (isDigit(pathname.charCodeAt(i))) {
            digits = true;
            break;
        }
    }
    return digits ? pathname.split('/').map(segmentShape).join('/') : pathname;
}

/**
 * Distinct parameter names, sorted, joined by `&`. Repeated names count once: `?tag=a&tag=b`
 * and `?tag=a` are the same template (facet filter combinations are exactly the traps the
 * templates are meant to catch).
 */
function queryShape(search: string): string {
    if (search === '') return '';
    const names: string[] = [];
    for (const piece of search.slice(1).split('&')) {
        if (piece === '') continue;
        const eq = piece.indexOf('=');
        const name = eq < 0 ? piece : piece.slice(0, eq);
        if (!names.includes(name)) names.push(name);
    }
    return names.length === 0 ? '' : `?${names.sort().join('&')}`;
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

// FNV-1a, 64 bit (Fowler–Noll–Vo): offset basis 0xcbf29ce484222325, prime 2^40 + 0x1b3.
// The state is two 32-bit halves; the low half is multiplied in 16-bit pieces so that every
// product is exact. BigInt would be several times slower.
const FNV_OFFSET_HI = 0xcbf29ce4 | 0;
const FNV_OFFSET_LO = 0x84222325 | 0;
const FNV_PRIME_LOW = 0x1b3;
const utf8 = new TextEncoder();

const HEX = Array.from({ length: 256 }, (_, i) => (i | 0x100).toString(16).slice(1));

function hex32(n: number): string {
    return HEX[n >>> 24]! + HEX[(n >>> 16) & 0xff]! + HEX[(n >>> 8) & 0xff]! + HEX[n & 0xff]!;
}

/**
 * FNV-1a 64 of the UTF-8 bytes of `text`, as 16 lowercase hex digits.
 * `fnv1a64('') === 'cbf29ce484222325'`, `fnv1a64('a') === 'af63dc4c8601ec8c'`.
 */
export function fnv1a64(text: string): string {
    for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) > 0x7f) return fnvBytes(utf8.encode(text));
    }
    let hi = FNV_OFFSET_HI;
    let lo = FNV_OFFSET_LO;
    for (let i = 0; i < text.length; i++) {
        const l = (lo ^ text.charCodeAt(i)) >>> 0;
        // (hi·2^32 + l) · (2^40 + 0x1b3) mod 2^64
        const pl = (l & 0xffff) * FNV_PRIME_LOW;
        const ph = (l >>> 16) * FNV_PRIME_LOW + (pl >>> 16);
        lo = ((ph & 0xffff) << 16) | (pl & 0xffff);
        hi = (Math.imul(hi, FNV_PRIME_LOW) + (ph >>> 16) + (l << 8)) | 0;
    }
    return hex32(hi >>> 0) + hex32(lo >>> 0);
}

/** The same over bytes (non-ASCII text, after UTF-8 encoding). */
function fnvBytes(bytes: Uint8Array): string {
    let hi = FNV_OFFSET_HI;
    let lo = FNV_OFFSET_LO;
    for (let i = 0; i < bytes.length; i++) {
        const l = (lo ^ bytes[i]!) >>> 0;
        const pl = (l & 0xffff) * FNV_PRIME_LOW;
        const ph = (l >>> 16) * FNV_PRIME_LOW + (pl >>> 16);
        lo = ((ph & 0xffff) << 16) | (pl & 0xffff);
        hi = (Math.imul(hi, FNV_PRIME_LOW) + (ph >>> 16) + (l << 8)) | 0;
    }
    return hex32(hi >>> 0) + hex32(lo >>> 0);
}

/**
 * A 64-bit key of the URL's template, {@link urlShape} hashed with FNV-1a 64, as 16 hex digits.
 * Queue entries carry it so demotion checks need not recompute the template. Cheap when `url`
 * is the string cleanUrl just returned (no second parse).
 * @throws InvalidUrlError if `url` is not an absolute URL.
 */
export function shapeKey(url: string | URL): string {
    return fnv1a64(urlShape(url));
}
