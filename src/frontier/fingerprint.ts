/**
 * The two 32-bit lanes of a string hash: bryc's public-domain cyrb53 layout with MurmurHash3's fmix32 finaliser
 * constants. One hash for the whole package: page fingerprints, paragraph novelty and SimHash shingles.
 *
 * With `ignoreDigits`, ASCII digits are skipped: texts that differ only in numbers (calendar months, page counters)
 * hash alike, the "skeleton" of §2.4.
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

/**
 * 53-bit fingerprint of a text: the two lanes of {@link hashLanes} folded into one safe integer, so it is an exact
 * `Map` key and survives JSON. At a million pages the chance of any collision is about 5·10⁻⁵.
 */
export function textFingerprint(text: string, ignoreDigits = false): number {
    const [h1, h2] = hashLanes(text, ignoreDigits);
    return (h2 & 0x1fffff) * 0x100000000 + h1;
}
