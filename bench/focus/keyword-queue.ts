import { Request } from 'crawlee';
import type {
    AddRequestsBatchedOptions,
    AddRequestsBatchedResult,
    Dictionary,
    IRequestManager,
    RequestQueueOperationOptions,
    RequestsLike,
    Source,
} from 'crawlee';

import { requestIdOf } from '../../src/crawlee/request-id.js';
import { BestFirstQueue } from '../../src/frontier/index.js';

type ProcessedRequest = AddRequestsBatchedResult['addedRequests'][number];
type OperationInfo = Awaited<ReturnType<IRequestManager['addRequest']>>;

/** Query words, lower-cased, as crawl4ai's `KeywordRelevanceScorer` keeps its keywords. */
export function queryKeywords(query: string): string[] {
    return [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
}

/**
 * crawl4ai's `KeywordRelevanceScorer` (deep_crawling/scorers.py): the share of keywords found as substrings of the
 * lower-cased URL string.
 */
export function urlKeywordScore(url: string, keywords: readonly string[]): number {
    if (keywords.length === 0) return 0;
    const haystack = url.toLowerCase();
    return keywords.filter((keyword) => haystack.includes(keyword)).length / keywords.length;
}

export interface UrlKeywordQueueOptions {
    /** The topic; its words are the keywords. */
    query: string;
    /** Pages handed out at most; the queue, not `maxRequestsPerCrawl`, enforces it, so no link is cut before it is scored. */
    maxPages: number;
}

/**
 * A Crawlee request queue that hands out URLs best-first by {@link urlKeywordScore}, ties in discovery order: the
 * order of crawl4ai's `BestFirstCrawlingStrategy` with a `KeywordRelevanceScorer`. In-memory, single process.
 */
export class UrlKeywordQueue implements IRequestManager {
    /** Written by the crawler at construction. */
    internalTimeoutMillis = 0;
    /** Written by the crawler at construction. */
    requestLockSecs = 0;
    /** Not `default`: the crawler drops a queue of that name on a second `run()`. */
    readonly name = 'url-keyword';

    private readonly keywords: string[];
    private readonly queue = new BestFirstQueue<Request>();
    private readonly requests = new Map<string, Request>();
    private readonly inProgress = new Set<string>();
    private readonly handled = new Set<string>();
    private readonly retries: Request[] = [];
    private taken = 0;

    constructor(private readonly options: UrlKeywordQueueOptions) {
        this.keywords = queryKeywords(options.query);
    }

    /** Pages handed out so far (each counts once, retries do not). */
    get pagesTaken(): number {
        return this.taken;
    }

    async isFinished(): Promise<boolean> {
        return this.inProgress.size === 0 && (await this.isEmpty());
    }

    async isEmpty(): Promise<boolean> {
        return this.retries.length === 0 && (this.queue.size === 0 || this.taken >= this.options.maxPages);
    }

    async handledCount(): Promise<number> {
        return this.handled.size;
    }

    getTotalCount(): number {
        return this.requests.size;
    }

    getPendingCount(): number {
        return this.requests.size - this.handled.size;
    }

    async fetchNextRequest<T extends Dictionary = Dictionary>(): Promise<Request<T> | null> {
        let request = this.retries.shift();
        if (!request) {
            if (this.taken >= this.options.maxPages) return null;
            request = this.queue.pop()?.signal;
            if (!request) return null;
            this.taken += 1;
        }
        this.inProgress.add(request.id!);
        return request as unknown as Request<T>;
    }

    async markRequestHandled(request: Request): Promise<OperationInfo> {
        const id = request.id!;
        this.inProgress.delete(id);
        const wasAlreadyHandled = this.handled.has(id);
        this.handled.add(id);
        request.handledAt ??= new Date().toISOString();
        this.requests.set(id, request);
        return { requestId: id, uniqueKey: request.uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled, forefront: false } as OperationInfo;
    }

    async reclaimRequest(request: Request, options: RequestQueueOperationOptions = {}): Promise<OperationInfo> {
        const id = request.id!;
        this.inProgress.delete(id);
        this.requests.set(id, request);
        // A retry was already paid for from the budget: it goes before new pages.
        this.retries.push(request);
        return { requestId: id, uniqueKey: request.uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled: false, forefront: options.forefront ?? false } as OperationInfo;
    }

    async addRequest(source: Source, _options: RequestQueueOperationOptions = {}): Promise<OperationInfo> {
        return this.add(source);
    }

    /** Adds every request given: `maxNewRequests` is ignored, the page budget is enforced when a request is taken. */
    async addRequestsBatched(requests: RequestsLike, _options: AddRequestsBatchedOptions = {}): Promise<AddRequestsBatchedResult> {
        const addedRequests: ProcessedRequest[] = [];
        for await (const item of requests as AsyncIterable<Source | string>) {
            addedRequests.push(this.add(typeof item === 'string' ? { url: item } : item) as ProcessedRequest);
        }
        return { addedRequests, waitForAllRequestsToBeAdded: Promise.resolve([]) };
    }

    async *[Symbol.asyncIterator](): AsyncGenerator<Request> {
        for (;;) {
            const request = await this.fetchNextRequest();
            if (!request) return;
            yield request;
        }
    }

    private add(source: Source): OperationInfo {
        const request = source instanceof Request ? source : new Request(source as ConstructorParameters<typeof Request>[0]);
        const id = requestIdOf(request.uniqueKey);
        request.id = id;
        const info = { requestId: id, uniqueKey: request.uniqueKey, wasAlreadyHandled: this.handled.has(id), forefront: false };
        if (this.requests.has(id)) return { ...info, wasAlreadyPresent: true } as OperationInfo;
        this.requests.set(id, request);
        this.queue.offer(id, request.url, request.crawlDepth ?? 0, urlKeywordScore(request.url, this.keywords), request, Number.POSITIVE_INFINITY);
        return { ...info, wasAlreadyPresent: false } as OperationInfo;
    }
}
