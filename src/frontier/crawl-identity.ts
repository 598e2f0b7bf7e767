import { hashHex } from '../stat/index.js';

/**
 * What makes workers one crawl. The first worker under a crawl id writes it; every later worker must bring the same,
 * or it would spend the shared budget on another crawl's frontier.
 */
export interface CrawlIdentity {
    /** The topic, or `null` for a breadth-first crawl. */
    query: string | null;
    /** Start URLs, as given (order does not matter). */
    seeds: string[];
    /** `browser`, `http` or `adaptive`. */
    mode: string;
    /** {@link optionsHash} of the options that change what is crawled (budget, scope, globs, frontier limits). */
    optionsHash: string;
}

/** A stable hash of plain options: key order does not matter, `undefined` fields count as absent. */
export function optionsHash(options: Record<string, unknown>): string {
    return hashHex(canonicalJson(options));
}

/** The identity in the form it is stored and compared in: seeds sorted and unique. */
export function normalizeIdentity(identity: CrawlIdentity): CrawlIdentity {
    return {
        query: identity.query ?? null,
        seeds: [...new Set(identity.seeds)].sort(),
        mode: identity.mode,
        optionsHash: identity.optionsHash,
    };
}

/** The fields in which two identities differ, in a fixed order. */
export function identityDifferences(stored: CrawlIdentity, mine: CrawlIdentity): Array<keyof CrawlIdentity> {
    const a = normalizeIdentity(stored);
    const b = normalizeIdentity(mine);
    const fields: Array<keyof CrawlIdentity> = ['query', 'seeds', 'mode', 'optionsHash'];
    return fields.filter((field) => canonicalJson(a[field]) !== canonicalJson(b[field]));
}

/** A worker tried to join a crawl id that holds another crawl. */
export class CrawlIdentityMismatchError extends Error {
    override readonly name = 'CrawlIdentityMismatchError';

    constructor(
        readonly crawlId: string,
        readonly stored: CrawlIdentity,
        readonly mine: CrawlIdentity,
        readonly differences: Array<keyof CrawlIdentity>,
    ) {
        const describe = (field: keyof CrawlIdentity): string => {
            const label = field === 'optionsHash' ? 'options (budget, scope, frontier limits)' : field;
            return `${label}: the crawl has ${JSON.stringify(stored[field])}, this worker ${JSON.stringify(mine[field])}`;
        };
        super(
            `Crawl id "${crawlId}" already holds another crawl (${differences.map(describe).join('; ')}). ` +
                'Start this worker with the same query, seeds, mode and options as the others, ' +
                'or give it a new crawl id to start a separate crawl.',
        );
    }
}

/** Throws {@link CrawlIdentityMismatchError} unless `stored` (what the first worker wrote) matches `mine`. */
export function assertSameCrawl(crawlId: string, stored: CrawlIdentity, mine: CrawlIdentity): void {
    const differences = identityDifferences(stored, mine);
    if (differences.length > 0) throw new CrawlIdentityMismatchError(crawlId, normalizeIdentity(stored), normalizeIdentity(mine), differences);
}

function canonicalJson(value: unknown): string {
    return JSON.stringify(value, (_key, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
            : v,
    );
}
