import { hashLanes } from '../stat/hash.js';

/**
 * 53-bit fingerprint of a text: the two lanes of {@link hashLanes} folded into one safe integer, so it is an exact
 * `Map` key and survives JSON. At a million pages the chance of any collision is about 5·10⁻⁵.
 * With `ignoreDigits`, texts that differ only in their digits get the same fingerprint (§2.4 skeletons).
 */
export function textFingerprint(text: string, ignoreDigits = false): number {
    const [h1, h2] = hashLanes(text, ignoreDigits);
    return (h2 & 0x1fffff) * 0x100000000 + h1;
}

/** What the trap learner keeps of a page's text: its fingerprint, and its skeleton's (digits ignored). */
export interface TextPrints {
    exact: number;
    skeleton: number;
}

export function textPrints(text: string): TextPrints {
    return { exact: textFingerprint(text), skeleton: textFingerprint(text, true) };
}
