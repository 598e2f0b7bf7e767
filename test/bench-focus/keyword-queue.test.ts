import { Request } from 'crawlee';
import { describe, expect, it } from 'vitest';

import { UrlKeywordQueue, queryKeywords, urlKeywordScore } from '../../bench/focus/keyword-queue.js';

async function drain(queue: UrlKeywordQueue): Promise<string[]> {
    const urls: string[] = [];
    for (let request = await queue.fetchNextRequest(); request; request = await queue.fetchNextRequest()) {
        urls.push(request.url);
        await queue.markRequestHandled(request);
    }
    return urls;
}

describe('URL keyword score (crawl4ai KeywordRelevanceScorer)', () => {
    it('is the share of query words found anywhere in the lower-cased URL', () => {
        const words = queryKeywords('Graduate Admissions PhD');
        expect(words).toEqual(['graduate', 'admissions', 'phd']);
        expect(urlKeywordScore('http://x.org/Graduate/admissions.html', words)).toBeCloseTo(2 / 3);
        expect(urlKeywordScore('http://x.org/news/', words)).toBe(0);
        // Substring match, as crawl4ai does: "phd" inside "phdprogram" counts.
        expect(urlKeywordScore('http://x.org/phdprogram/graduate-admissions', words)).toBe(1);
    });

    it('scores 0 for an empty query', () => {
        expect(urlKeywordScore('http://x.org/a', queryKeywords('   '))).toBe(0);
    });
});

describe('UrlKeywordQueue', () => {
    it('hands out the best-scoring URL first, ties in discovery order', async () => {
        const queue = new UrlKeywordQueue({ query: 'machine translation', maxPages: 10 });
        await queue.addRequestsBatched(['http://x.org/a', 'http://x.org/machine', 'http://x.org/b', 'http://x.org/machine-translation', 'http://x.org/translation']);
        expect(await drain(queue)).toEqual([
            'http://x.org/machine-translation',
            'http://x.org/machine',
            'http://x.org/translation',
            'http://x.org/a',
            'http://x.org/b',
        ]);
    });

    it('ignores maxNewRequests, enforces its page budget when taking, and counts a URL once', async () => {
        const queue = new UrlKeywordQueue({ query: 'q', maxPages: 2 });
        const result = await queue.addRequestsBatched(['http://x.org/1', 'http://x.org/2', 'http://x.org/3', 'http://x.org/1'], { maxNewRequests: 1 });
        expect(result.addedRequests.filter((r) => !r.wasAlreadyPresent)).toHaveLength(3);
        expect(await drain(queue)).toEqual(['http://x.org/1', 'http://x.org/2']);
        expect(await queue.isEmpty()).toBe(true);
        expect(await queue.isFinished()).toBe(true);
    });

    it('gives a reclaimed request back before new ones without charging the budget again', async () => {
        const queue = new UrlKeywordQueue({ query: 'q', maxPages: 2 });
        await queue.addRequestsBatched(['http://x.org/1', 'http://x.org/2', 'http://x.org/3']);
        const first = (await queue.fetchNextRequest())!;
        expect(await queue.isFinished()).toBe(false);
        await queue.reclaimRequest(first as Request);
        expect(await drain(queue)).toEqual(['http://x.org/1', 'http://x.org/2']);
        expect(queue.pagesTaken).toBe(2);
    });

    it('stays unfinished while a request is in progress', async () => {
        const queue = new UrlKeywordQueue({ query: 'q', maxPages: 5 });
        await queue.addRequest(new Request({ url: 'http://x.org/1' }));
        const request = await queue.fetchNextRequest();
        expect(await queue.isEmpty()).toBe(true);
        expect(await queue.isFinished()).toBe(false);
        await queue.markRequestHandled(request!);
        expect(await queue.isFinished()).toBe(true);
    });
});
