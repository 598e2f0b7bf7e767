/** The parts of a page's handling, timed apart: the navigation, and what crawlee-focus adds to a plain Crawlee crawler. */
export const PAGE_PHASES = ['guard', 'navigate', 'read', 'extract', 'score', 'deliver', 'snapshot'] as const;
export type PagePhase = (typeof PAGE_PHASES)[number];

/** Mean milliseconds per handled page of each phase (`FOCUS_REPORT.timings`). */
export interface PageTimings {
    /** Pages scored by this process; the time of runs that scored nothing (an app shell sent to the browser) is spread over them. */
    pages: number;
    /**
     * guard: the scope guard before navigation; navigate: from then until the page hook runs (the fetch or page load,
     * which a plain crawler pays too, for comparison with the rest); read: the settle wait for a quiet DOM and the HTML read; extract:
     * text, Markdown and links; score: trap learner, page relevance, link scoring and the frontier; deliver: the
     * dataset write; snapshot: waiting until the crawl state with this page handled is durable.
     */
    millisPerPage: Record<PagePhase, number>;
}

/** Wall time per phase, summed over the pages of this process (for the cost bench, issue 11). */
export class PhaseClock {
    readonly #total = new Map<PagePhase, number>();
    #pages = 0;

    async time<T>(phase: PagePhase, work: () => Promise<T> | T): Promise<T> {
        const started = performance.now();
        try {
            return await work();
        } finally {
            this.add(phase, performance.now() - started);
        }
    }

    add(phase: PagePhase, millis: number): void {
        this.#total.set(phase, (this.#total.get(phase) ?? 0) + millis);
    }

    /** One more page scored. */
    countPage(): void {
        this.#pages += 1;
    }

    summary(): PageTimings {
        const perPage = (phase: PagePhase) => (this.#pages > 0 ? Math.round(((this.#total.get(phase) ?? 0) / this.#pages) * 100) / 100 : 0);
        return { pages: this.#pages, millisPerPage: Object.fromEntries(PAGE_PHASES.map((phase) => [phase, perPage(phase)])) as Record<PagePhase, number> };
    }
}
