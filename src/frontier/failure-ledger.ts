/** A ledger's counts: `[key, fetched, failed]`, or `[key, fetched, failed, 1]` for a part a decisive failure condemned. */
export type FailureLedgerJSON = Array<[string, number, number] | [string, number, number, 1]>;

/** Fetches and failures of one part of a site (a host, a failure template). */
export interface FailureCounts {
    fetched: number;
    failed: number;
}

/**
 * Which parts of a site keep failing: per key, fetches and failed fetches; a part is failing once it has `minFetched`
 * fetches and more than `failedShare` of them failed (with `failedShare` 1: all of them), or once a failure that speaks
 * for the whole part ({@link recordDecisive}) found no fetch of it succeeded; it stops failing when enough of its
 * fetches succeed again.
 */
export class FailureLedger {
    private readonly counts = new Map<string, FailureCounts>();
    private readonly failing = new Set<string>();
    /** Parts a decisive failure condemned: failing while none of their fetches succeeded. */
    private readonly condemned = new Set<string>();

    constructor(
        private readonly minFetched: number,
        private readonly failedShare: number,
    ) {}

    /** Counts one fetch; true when the part started or stopped failing. */
    record(key: string, failed: boolean): boolean {
        const counts = this.counts.get(key) ?? { fetched: 0, failed: 0 };
        counts.fetched += 1;
        if (failed) counts.failed += 1;
        this.counts.set(key, counts);
        return this.update(key, counts);
    }

    /**
     * Counts one failed fetch whose failure is about the whole part, not the page (a host that does not resolve, or
     * whose gateway cannot reach it): one is enough while no fetch of the part succeeded. True when it started failing.
     */
    recordDecisive(key: string): boolean {
        this.condemned.add(key);
        return this.record(key, true);
    }

    /** Counts one earlier fetch, recorded as a success, as failed after all; true when the part started failing. */
    reclassifyAsFailed(key: string): boolean {
        const counts = this.counts.get(key);
        if (!counts || counts.failed >= counts.fetched) return false;
        counts.failed += 1;
        return this.update(key, counts);
    }

    /** Whether any fetch of the part succeeded. */
    hasSucceeded(key: string): boolean {
        const counts = this.counts.get(key);
        return counts !== undefined && counts.failed < counts.fetched;
    }

    isFailing(key: string): boolean {
        return this.failing.size > 0 && this.failing.has(key);
    }

    /** The failing parts with their counts. */
    failingParts(): Array<{ key: string } & FailureCounts> {
        return [...this.failing].map((key) => ({ key, ...this.counts.get(key)! }));
    }

    /** `[key, fetched, failed]`, with a fourth element `1` for a condemned part. */
    toJSON(): FailureLedgerJSON {
        return [...this.counts].map(([key, { fetched, failed }]) => (this.condemned.has(key) ? [key, fetched, failed, 1] : [key, fetched, failed]));
    }

    static fromJSON(json: FailureLedgerJSON, minFetched: number, failedShare: number): FailureLedger {
        const ledger = new FailureLedger(minFetched, failedShare);
        for (const [key, fetched, failed, condemned] of json) {
            const counts = { fetched, failed };
            ledger.counts.set(key, counts);
            if (condemned === 1) ledger.condemned.add(key);
            ledger.update(key, counts);
        }
        return ledger;
    }

    private update(key: string, { fetched, failed }: FailureCounts): boolean {
        if (failed < fetched) this.condemned.delete(key); // a fetch succeeded: the decisive failure was not the part's
        const failing = (this.condemned.has(key) && fetched >= 1)
            || (fetched >= this.minFetched && (this.failedShare >= 1 ? failed === fetched : failed > this.failedShare * fetched));
        if (failing === this.failing.has(key)) return false;
        if (failing) this.failing.add(key);
        else this.failing.delete(key);
        return true;
    }
}
