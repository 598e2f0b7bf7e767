/** A delivered page, as REPORT.html lists the best of them. */
export interface TopPage {
    url: string;
    title: string;
    relevance: number;
    depth: number;
}

/** Pages `FOCUS_REPORT.topPages` lists. @default 20 */
export const TOP_PAGES = 20;

/** The most relevant delivered pages, best first (ties: the earlier delivered). */
export class TopPages {
    private readonly pages: TopPage[] = [];

    constructor(private readonly size = TOP_PAGES) {}

    add(page: TopPage): void {
        if (this.pages.length >= this.size && page.relevance <= this.pages.at(-1)!.relevance) return;
        const at = this.pages.findIndex((p) => p.relevance < page.relevance);
        this.pages.splice(at === -1 ? this.pages.length : at, 0, { ...page });
        if (this.pages.length > this.size) this.pages.pop();
    }

    toArray(): TopPage[] {
        return this.pages.map((p) => ({ ...p }));
    }
}
