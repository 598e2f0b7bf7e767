/** Longest example URL kept; a longer one is cut with an ellipsis (a trap can make URLs of any length). */
const MAX_SAMPLE_CHARS = 300;

/** Skipped links counted by reason, with the first few URLs of each kept as examples (`FOCUS_REPORT.skipped`). */
export class SkipTally<Reason extends string = string> {
    readonly #counts = new Map<Reason, number>();
    readonly #samples = new Map<Reason, string[]>();

    /** @param samplesPerReason Example URLs kept per reason. */
    constructor(readonly samplesPerReason = 20) {}

    /** Counts one skipped link, and keeps its URL while the reason has fewer than `samplesPerReason` examples. */
    count(reason: Reason, url: string): void {
        this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
        let samples = this.#samples.get(reason);
        if (!samples) this.#samples.set(reason, (samples = []));
        if (samples.length < this.samplesPerReason) samples.push(url.length > MAX_SAMPLE_CHARS ? `${url.slice(0, MAX_SAMPLE_CHARS)}…` : url);
    }

    /** Adds counts without examples (another worker's skips in a shared crawl). */
    add(counts: Readonly<Record<string, number>>): void {
        for (const [reason, count] of Object.entries(counts)) this.#counts.set(reason as Reason, (this.#counts.get(reason as Reason) ?? 0) + count);
    }

    /** The counts, largest first. */
    counts(): Record<string, number> {
        return Object.fromEntries([...this.#counts].sort((a, b) => b[1] - a[1]));
    }

    /** The example URLs of one reason, or of every reason. */
    samples(): Record<string, string[]>;
    samples(reason: Reason): string[];
    samples(reason?: Reason): Record<string, string[]> | string[] {
        if (reason) return [...(this.#samples.get(reason) ?? [])];
        return Object.fromEntries(this.#samples);
    }

    toJSON(): { skipped: Array<[Reason, number]>; samples: Array<[Reason, string[]]> } {
        return { skipped: [...this.#counts], samples: [...this.#samples] };
    }

    static fromJSON<Reason extends string>(json: { skipped: Array<[string, number]>; samples: Array<[string, string[]]> }, samplesPerReason?: number): SkipTally<Reason> {
        const tally = new SkipTally<Reason>(samplesPerReason);
        for (const [reason, count] of json.skipped) tally.#counts.set(reason as Reason, count);
        for (const [reason, samples] of json.samples) tally.#samples.set(reason as Reason, [...samples]);
        return tally;
    }
}
