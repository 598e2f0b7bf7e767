/**
 * Redis key names of one crawl. Every key is under `cf:{<crawlId>}:`: the braces are a Cluster hash tag, so all keys
 * of a crawl live in one slot, as Lua scripts that touch several of them need.
 */

/** The keys every frontier script receives, in this order (scripts name them in {@link SCRIPT_PRELUDE}). */
export const FRONTIER_KEY_NAMES = [
    /** ZSET of URLs never leased: member = dedup key, score = priority. */
    'fresh',
    /** ZSET of URLs queued again after a retry or an expired lease (charged already). */
    'requeued',
    /** HASH dedup key → state: q fresh, r requeued, l leased, d done, f failed, x dropped. The dedup set. */
    'state',
    /** HASH dedup key → JSON {url, depth, payload}, while not done or failed. */
    'entry',
    /** HASH dedup key → host. */
    'host',
    /** HASH dedup key → score, kept while leased so a reclaimed URL goes back at its rank. */
    'score',
    /** HASH dedup key → failed attempts. */
    'attempts',
    /** ZSET of leased keys by deadline (server ms). */
    'leases',
    /** HASH dedup key → fence token of the current lease. */
    'leaseToken',
    /** HASH dedup key → worker holding the lease (for diagnosis). */
    'leaseWorker',
    /** HASH host → leases out. */
    'hostInFlight',
    /** HASH host → next allowed lease time (server ms). */
    'hostNext',
    /** HASH host → own delay between leases (Crawl-delay). */
    'hostDelay',
    /** HASH of counters (charged, done, failed, …). */
    'counters',
    /** STRING: the stop reason, set once. */
    'stop',
    /** STRING: the last fence token handed out. */
    'tokenSeq',
    /** STREAM: the event log, one entry (field `e`, JSON) per event committed with a page. */
    'events',
    /** SET of keys queued again after a lease (retried or reclaimed), until they are done, failed or dropped. */
    'leasedAgain',
    /** HASH dedup key → dataset item JSON of a page committed done, until its delivery is acknowledged. */
    'owed',
    /** HASH dedup key → fence token of the worker that owes the delivery. */
    'owedToken',
    /** ZSET of owed keys by deadline (server ms): past it, another worker may claim the delivery. */
    'owedDue',
    /** SET of hosts one of whose leases ended done or failed; any other host gets one lease at a time. */
    'hostAnswered',
    /** HASH dedup key → discovery sequence, while queued or leased: ties in score go in discovery order, as in process. */
    'discovery',
    /** STRING: the last discovery sequence given. */
    'discoverySeq',
] as const;

export type FrontierKeyName = (typeof FRONTIER_KEY_NAMES)[number];

/** Keys that are not passed to the frontier scripts. */
export interface CrawlKeys {
    /** All frontier keys, in {@link FRONTIER_KEY_NAMES} order. */
    frontier: string[];
    /** Each frontier key by name. */
    named: Record<FrontierKeyName, string>;
    /** STRING: the crawl identity JSON written by the first worker. */
    identity: string;
    /** STRING: the frontier options JSON written by the first worker. */
    options: string;
    /** STRING: the crawl's final report JSON, written by the first worker to finish. */
    report: string;
    /** Pattern matching every key of the crawl (for SCAN). */
    pattern: string;
}

/** A crawl id names keys: it must be non-empty and may not contain braces (they would break the hash tag). */
export function crawlKeys(crawlId: string): CrawlKeys {
    if (!crawlId || /[{}\s]/.test(crawlId)) {
        throw new TypeError(`A crawl id must be a non-empty name without braces or spaces (e.g. "docs-2026-01"), got ${JSON.stringify(crawlId)}`);
    }
    const prefix = `cf:{${crawlId}}:`;
    return {
        frontier: FRONTIER_KEY_NAMES.map((name) => prefix + name),
        named: Object.fromEntries(FRONTIER_KEY_NAMES.map((name) => [name, prefix + name])) as Record<FrontierKeyName, string>,
        identity: `${prefix}identity`,
        options: `${prefix}options`,
        report: `${prefix}report`,
        pattern: `${prefix}*`,
    };
}
