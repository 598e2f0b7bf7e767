/** The crawlers the bench compares. */
export type CrawlerKind = 'focus' | 'focus-never' | 'playwright' | 'cheerio' | 'keyword';

export interface CrawlerInfo {
    kind: CrawlerKind;
    /** Legend and table label. */
    label: string;
    /** Chart colour (colour-blind safe palette of Okabe & Ito). */
    colour: string;
    /**
     * Whether its crawl order depends on the budget. One that does not is crawled once at the largest budget and read
     * at smaller budgets from the prefix of its log (score.mjs --k).
     */
    budgetDependent: boolean;
    what: string;
}

export const CRAWLERS: readonly CrawlerInfo[] = [
    {
        kind: 'focus',
        label: 'crawlee-focus',
        colour: '#D55E00',
        budgetDependent: true,
        what: 'createFocusedCrawler, browser mode, adaptive stop',
    },
    {
        kind: 'focus-never',
        label: 'crawlee-focus (stop: never)',
        colour: '#E69F00',
        budgetDependent: true,
        what: 'createFocusedCrawler, browser mode, `stop: "never"` (spends the whole budget)',
    },
    {
        kind: 'keyword',
        label: 'URL-keyword best-first',
        colour: '#0072B2',
        budgetDependent: false,
        what: 'PlaywrightCrawler + a best-first queue on the share of query words in the URL (crawl4ai BestFirst + KeywordRelevanceScorer), ties in discovery order',
    },
    {
        kind: 'playwright',
        label: 'PlaywrightCrawler (BFS)',
        colour: '#009E73',
        budgetDependent: false,
        what: 'plain PlaywrightCrawler, default queue, `enqueueLinks()`, `maxRequestsPerCrawl` = budget',
    },
    {
        kind: 'cheerio',
        label: 'CheerioCrawler (BFS)',
        colour: '#CC79A7',
        budgetDependent: false,
        what: 'plain CheerioCrawler, default queue, `enqueueLinks()`, `maxRequestsPerCrawl` = budget',
    },
];

export function crawlerInfo(kind: CrawlerKind): CrawlerInfo {
    const info = CRAWLERS.find((crawler) => crawler.kind === kind);
    if (!info) throw new Error(`Unknown crawler "${kind}": use one of ${CRAWLERS.map((c) => c.kind).join(', ')}.`);
    return info;
}
