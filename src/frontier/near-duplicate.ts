/**
 * Near-duplicate texts by SimHash (Charikar 2002) over word shingles, looked up as Manku, Jain and Das Sarma
 * ("Detecting near-duplicates for web crawling", WWW 2007) do: 64-bit fingerprints, near-duplicate at a Hamming
 * distance ≤ 3, found through the fingerprint's bands.
 */

import { hashLanes } from '../stat/hash.js';

/** Hamming distance at or under which two 64-bit SimHashes are near-duplicates (Manku et al. 2007, k = 3). */
export const NEAR_DUPLICATE_DISTANCE = 3;

/** Words per shingle: one changed word changes this many features, so short distinct texts stay apart. */
export const SHINGLE_WORDS = 3;

/**
 * Texts with fewer words get no SimHash: on a few dozen shingles a handful of changed words can still land within
 * three bits, and short pages are what exact-text deduplication already covers.
 */
export const NEAR_DUPLICATE_MIN_WORDS = 50;

/** A 64-bit SimHash as 16 lowercase hex digits (plain JSON, exact as a Map key). */
export type SimHash = string;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * SimHash of a text (Markdown or plain; link targets are left out): lowercase word 3-shingles, each hashed to 64 bits and weighted by its count.
 * `null` when the text has fewer than {@link NEAR_DUPLICATE_MIN_WORDS} words.
 */
export function simHash(text: string): SimHash | null {
    const words = withoutLinkTargets(text).toLowerCase().match(WORD);
    if (!words || words.length < NEAR_DUPLICATE_MIN_WORDS) return null;
    const counts = new Map<string, number>();
    for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) {
        const shingle = words.slice(i, i + SHINGLE_WORDS).join(' ');
        counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
    }
    const sums = new Float64Array(64);
    for (const [shingle, count] of counts) {
        const [hi, lo] = hashLanes(shingle);
        for (let bit = 0; bit < 32; bit++) {
            sums[bit] = sums[bit]! + ((hi >>> bit) & 1 ? count : -count);
            sums[32 + bit] = sums[32 + bit]! + ((lo >>> bit) & 1 ? count : -count);
        }
    }
    let hi = 0;
    let lo = 0;
    for (let bit = 0; bit < 32; bit++) {
        if (sums[bit]! > 0) hi |= 1 << bit;
        if (sums[32 + bit]! > 0) lo |= 1 << bit;
    }
    return hex32(hi) + hex32(lo);
}

/**
 * Markdown link and image targets removed (their text stays): URLs are mostly ids and query strings that change
 * between otherwise identical pages, and would weigh as much as the words.
 */
function withoutLinkTargets(markdown: string): string {
    return markdown.replace(/\]\([^)\s]*(?:\s+"[^"]*")?\)/g, ']').replace(/<https?:[^>\s]*>/g, ' ');
}

/** Bits in which two SimHashes differ. */
export function hammingDistance(a: SimHash, b: SimHash): number {
    return popCount(parseInt(a.slice(0, 8), 16) ^ parseInt(b.slice(0, 8), 16)) + popCount(parseInt(a.slice(8), 16) ^ parseInt(b.slice(8), 16));
}

export interface NearDuplicateIndexOptions {
    /** Largest Hamming distance that counts as near-duplicate, 0–3. @default NEAR_DUPLICATE_DISTANCE */
    maxDistance?: number;
}

/**
 * The SimHashes of delivered pages, each with its URL. Lookup splits a fingerprint into four 16-bit bands: texts
 * within 3 bits share at least one band exactly (pigeonhole), so only pages sharing a band are compared.
 */
export class NearDuplicateIndex {
    readonly maxDistance: number;
    private readonly urls = new Map<SimHash, string>();
    private readonly bands = new Map<string, SimHash[]>();

    constructor(options: NearDuplicateIndexOptions = {}) {
        const maxDistance = options.maxDistance ?? NEAR_DUPLICATE_DISTANCE;
        if (!(maxDistance >= 0 && maxDistance <= BANDS - 1)) throw new RangeError(`maxDistance must be 0–${BANDS - 1} with ${BANDS} bands, got ${maxDistance}`);
        this.maxDistance = maxDistance;
    }

    get size(): number {
        return this.urls.size;
    }

    /** The URL of an indexed page whose text is a near-duplicate of `hash`, if any (the closest one). */
    find(hash: SimHash): string | undefined {
        let best: { url: string; distance: number } | undefined;
        for (const key of bandKeys(hash)) {
            for (const candidate of this.bands.get(key) ?? []) {
                const distance = hammingDistance(hash, candidate);
                if (distance <= this.maxDistance && (!best || distance < best.distance)) best = { url: this.urls.get(candidate)!, distance };
            }
        }
        return best?.url;
    }

    /** Indexes a page's SimHash; the first URL of a fingerprint is kept. */
    add(hash: SimHash, url: string): void {
        if (this.urls.has(hash)) return;
        this.urls.set(hash, url);
        for (const key of bandKeys(hash)) {
            const list = this.bands.get(key);
            if (list) list.push(hash);
            else this.bands.set(key, [hash]);
        }
    }

    toJSON(): Array<[SimHash, string]> {
        return [...this.urls];
    }

    static fromJSON(entries: Array<[SimHash, string]>, options: NearDuplicateIndexOptions = {}): NearDuplicateIndex {
        const index = new NearDuplicateIndex(options);
        for (const [hash, url] of entries) index.add(hash, url);
        return index;
    }
}

const BANDS = 4;
const BAND_HEX = 16 / BANDS;

function bandKeys(hash: SimHash): string[] {
    return Array.from({ length: BANDS }, (_, band) => `${band}:${hash.slice(band * BAND_HEX, (band + 1) * BAND_HEX)}`);
}

function popCount(n: number): number {
    let x = n >>> 0;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function hex32(n: number): string {
    return (n >>> 0).toString(16).padStart(8, '0');
}
