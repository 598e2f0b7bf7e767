/**
 * 53-bit fingerprint of a text: two 32-bit multiplicative lanes folded into one safe integer, so
 * it is an exact `Map` key and survives JSON (layout of bryc's public-domain cyrb53, finaliser
 * constants from MurmurHash3's fmix32).
 * At a million pages the chance of any collision is about 5·10⁻⁵.
 *
 * With `ignoreDigits`, ASCII digits are skipped: pages that differ only in numbers (calendar
 * months, page counters) get the same fingerprint, the "skeleton" of §2.4.
 */
export function textFingerprint(text: string, ignoreDigits = false): number {
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
    return (h2 & 0x1fffff) * 0x100000000 + (h1 >>> 0);
}
