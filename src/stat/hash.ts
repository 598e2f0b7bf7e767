/**
 * The package's one string hash: two 32-bit lanes in bryc's public-domain cyrb53 layout with
 * MurmurHash3's fmix32 finaliser constants. Page fingerprints, paragraph novelty, SimHash
 * shingles and URL-template keys all use it. Not cryptographic; it hashes UTF-16 code units.
 *
 * With `ignoreDigits`, ASCII digits are skipped: texts that differ only in numbers (calendar
 * months, page counters) hash alike, the "skeleton" of algorithms.md §2.4.
 */
export function hashLanes(text: string, ignoreDigits = false): [number, number] {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i += 1) {
        const code = text.charCodeAt(i);
        if (ignoreDigits && code >= 48 && code <= 57) continue;
        h1 = Math.imul(h1 ^ code, 2654435761);
        h2 = Math.imul(h2 ^ code, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
    return [h1 >>> 0, h2 >>> 0];
}

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => (i | 0x100).toString(16).slice(1));

function hex32(n: number): string {
    return HEX_BYTE[n >>> 24]! + HEX_BYTE[(n >>> 16) & 0xff]! + HEX_BYTE[(n >>> 8) & 0xff]! + HEX_BYTE[n & 0xff]!;
}

/** Both lanes of {@link hashLanes} as 16 lowercase hex digits: a 64-bit key that is a plain JSON string. */
export function hashHex(text: string): string {
    const [h1, h2] = hashLanes(text);
    return hex32(h2) + hex32(h1);
}
