import { BasicCrawler, Request } from 'crawlee';
import { describe, expect, it } from 'vitest';

import { Focus, FocusedRequestManager, FrontierRanking, crawlerAcceptsRequestManager } from '../../src/index.js';
import type { FocusedRequestManagerOptions } from '../../src/index.js';
import { RobotsCache } from '../../src/crawlee/robots-cache.js';

const SEED = 'https://www.e.edu/';

function focusedManager(options: ConstructorParameters<typeof FocusedRequestManager>[0] = {}) {
    return new FocusedRequestManager({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), ...options });
}

async function drain(manager: FocusedRequestManager): Promise<string[]> {
    const urls: string[] = [];
    for (let r = await manager.fetchNextRequest(); r; r = await manager.fetchNextRequest()) {
        urls.push(r.url);
        await manager.markRequestHandled(r);
    }
    return urls;
}

const parent = { url: SEED, depth: 0, relevance: 0.2, isHub: false };

const visaLinks = (count: number) => Array.from({ length: count }, (_, i) => ({ url: `https://www.e.edu/international/visa-scholarship-${i}`, anchor: `Visa and scholarship ${i}` }));

/** Queues the seed, takes it and marks it handled. */
async function handleSeed(manager: FocusedRequestManager): Promise<void> {
    await manager.addRequestsBatched([SEED]);
    await manager.markRequestHandled((await manager.fetchNextRequest())!);
}

/** Handles the seed, offers `links` as the seed's, and takes and handles the next nine pages (the 10th of the crawl explores). */
async function nineAfterSeed(manager: FocusedRequestManager, links: Array<{ url: string; anchor: string }>): Promise<string[]> {
    await handleSeed(manager);
    manager.offerLinks(links, parent);
    const taken: string[] = [];
    for (let i = 0; i < 9; i++) {
        const request = (await manager.fetchNextRequest())!;
        taken.push(request.url);
        await manager.markRequestHandled(request);
    }
    return taken;
}

/** A forum link that outscores the school's own, popped first (then parked, when an exploration takes the turn). */
const forumFirst = [
    { url: 'https://forum.e.edu/visa-scholarship', anchor: 'Visa and scholarship forum: visa scholarship questions' },
    { url: 'https://www.e.edu/international/visa-1', anchor: 'Visa' },
    { url: 'https://www.e.edu/campus/map', anchor: 'Campus map' },
];

/** Explores exactly when told (`exploreNext`): a link popped before an exploration stays parked. */
class ExploreOnDemand extends FocusedRequestManager {
    exploreNext = false;
    protected override exploringPaysMore(): boolean {
        return this.exploreNext;
    }
}

describe('FocusedRequestManager', () => {
    it('cleans, filters, scopes and deduplicates every URL, counting skips by reason', async () => {
        const manager = focusedManager();
        await manager.addRequestsBatched([SEED]);
        manager.offerLinks(
            [
                { url: 'https://www.e.edu/visa?utm_source=x', anchor: 'Visa' },
                { url: 'https://www.e.edu/visa#top', anchor: 'Visa again' }, // same page once cleaned
                { url: 'https://www.e.edu/campus.jpg', anchor: 'Photo' },
                { url: 'mailto:office@e.edu', anchor: 'Mail us' },
                { url: 'https://elsewhere.org/visa', anchor: 'Visa elsewhere' },
                { url: 'https://apply.e.edu/scholarship', anchor: 'Scholarships' }, // subdomain: in scope
            ],
            parent,
        );
        expect(manager.skippedCounts()).toMatchObject({ 'duplicate-url': 1, 'binary-extension': 1, 'unsupported-scheme': 1, 'out-of-scope': 1 });
        expect(manager.skippedLinks('out-of-scope')).toEqual(['https://elsewhere.org/visa']);
        const fetched = await drain(manager);
        expect(fetched[0]).toBe(SEED); // seeds carry a fixed, top score
        expect(new Set(fetched)).toEqual(new Set([SEED, 'https://www.e.edu/visa', 'https://apply.e.edu/scholarship']));
    });

    it('gives one page in ten to a section of the site no fetch has entered, and keeps that across a snapshot', async () => {
        const manager = focusedManager({ maxPages: 30 });
        const taken = await nineAfterSeed(manager, [
            ...visaLinks(40),
            { url: 'https://www.e.edu/campus/map', anchor: 'Campus map' },
            { url: 'https://www.e.edu/library/hours', anchor: 'Library hours' },
        ]);
        // pages 2…9 follow the scores; the 10th explores a section never entered (not the visa section)
        expect(taken.slice(0, 8).every((url) => url.includes('/international/'))).toBe(true);
        expect(taken[8]).toMatch(/\/(campus|library)\//);
        const restored = FocusedRequestManager.fromJSON(JSON.parse(JSON.stringify(manager.toJSON())), { focus: new Focus('visa scholarship', { seedUrls: [SEED] }), maxPages: 30 });
        expect(restored.explorations).toBe(1);
        expect(restored.sectionsOpened).toBe(2);
        for (let i = 0; i < 10; i++) await restored.markRequestHandled((await restored.fetchNextRequest())!);
        // the next turn explores the one section still unopened
        expect(restored.explorations).toBe(2);
        expect(restored.sectionsOpened).toBe(3);
    });

    it('explores off its turn once the best link surely pays less than exploring, and keeps to the scores before', async () => {
        const focus = new Focus('visa scholarship', { seedUrls: [SEED] });
        const manager = new FocusedRequestManager({ focus, maxPages: 30 });
        await handleSeed(manager);
        manager.offerLinks([...visaLinks(40), { url: 'https://www.e.edu/campus/map', anchor: 'Campus map' }, { url: 'https://www.e.edu/library/hours', anchor: 'Library hours' }], parent);
        const take = async () => {
            const request = (await manager.fetchNextRequest())!;
            await manager.markRequestHandled(request);
            return request.url;
        };
        // Nothing learned yet: the scores decide (and three pages open the visa links' section).
        for (let i = 0; i < 3; i++) expect(await take()).toContain('/international/');
        // Forty links like the visa ones were fetched and paid nothing: even the upper end of their rate is low.
        const { signal } = focus.scoreLink({ url: 'https://www.e.edu/international/visa-scholarship-99', anchor: 'Visa and scholarship 99', context: '', depth: 1 }, parent);
        for (let i = 0; i < 40; i++) focus.observeUnproductiveLink(signal);
        expect(focus.linkProbability(focus.score(signal)).high).toBeLessThan(0.5);
        expect([await take(), await take()].sort()).toEqual(['https://www.e.edu/campus/map', 'https://www.e.edu/library/hours']);
        expect(manager.explorations).toBe(2);
        // No section is left unopened: back to the scores.
        expect(await take()).toContain('/international/');
        expect(manager.explorations).toBe(2);
    });

    it("takes a page's name with and without its extension for one page once two pairs confirm it, and fetches it as linked", async () => {
        const manager = focusedManager();
        for (const name of ['acme', 'zenith']) {
            manager.trapLearner.observe(`https://www.e.edu/partners/${name}`, `The ${name} partner page`);
            manager.trapLearner.observe(`https://www.e.edu/partners/${name}.html`, `The ${name} partner page`);
        }
        await handleSeed(manager);
        manager.offerLinks(
            [
                { url: 'https://www.e.edu/partners/nova', anchor: 'Nova visa scholarship' },
                { url: 'https://www.e.edu/partners/nova.html', anchor: 'Nova' },
                { url: 'https://www.e.edu/visa/index.html', anchor: 'Visa index' },
            ],
            parent,
        );
        expect(manager.skippedCounts()['duplicate-spelling']).toBe(1);
        // Not rewritten: /visa/index is no page where /visa/index.html is.
        expect((await drain(manager)).sort()).toEqual(['https://www.e.edu/partners/nova', 'https://www.e.edu/visa/index.html']);
    });

    it('does not fetch a page again when a rule learned after it was fetched changes its key', async () => {
        const manager = focusedManager();
        await handleSeed(manager);
        manager.offerLinks([{ url: 'https://www.e.edu/visa/index.html', anchor: 'Visa scholarship' }], parent);
        expect(await drain(manager)).toEqual(['https://www.e.edu/visa/index.html']);
        // Only now does the crawl learn that a page's `.html` may be dropped: the list's key becomes /visa/index.
        for (const name of ['acme', 'zenith']) {
            manager.trapLearner.observe(`https://www.e.edu/partners/${name}`, `The ${name} partner page`);
            manager.trapLearner.observe(`https://www.e.edu/partners/${name}.html`, `The ${name} partner page`);
        }
        const visaPage = { url: 'https://www.e.edu/visa/index.html', depth: 1, relevance: 0.9, isHub: true };
        manager.offerLinks(
            [
                { url: 'https://www.e.edu/visa/index.html', anchor: 'Visa scholarship' },
                { url: 'https://www.e.edu/visa/index', anchor: 'Visa scholarship' },
                { url: 'https://www.e.edu/visa/scholarship-fund', anchor: 'Visa scholarship fund' },
            ],
            visaPage,
        );
        expect(await drain(manager)).toEqual(['https://www.e.edu/visa/scholarship-fund']);
    });

    it('drops an exploration pick that a rule learned meanwhile makes a spelling of a fetched page', async () => {
        const manager = focusedManager({ maxPages: 30 });
        await handleSeed(manager);
        manager.offerLinks([...visaLinks(12), { url: 'https://www.e.edu/library/hours', anchor: 'Visa and scholarship library hours' }, { url: 'https://www.e.edu/library/hours?print=1', anchor: 'Print' }], parent);
        const taken: string[] = [];
        const take = async () => {
            const request = (await manager.fetchNextRequest())!;
            taken.push(request.url);
            await manager.markRequestHandled(request);
        };
        for (let i = 0; i < 8; i++) await take();
        expect(taken).toContain('https://www.e.edu/library/hours');
        for (const name of ['a', 'b']) {
            manager.trapLearner.observe(`https://www.e.edu/${name}`, `page ${name}`);
            manager.trapLearner.observe(`https://www.e.edu/${name}?print=1`, `page ${name}`);
        }
        // The 10th page of the crawl explores: the library section's one queued link is the printable spelling.
        await take();
        expect(taken).not.toContain('https://www.e.edu/library/hours?print=1');
        expect(manager.skippedCounts()['duplicate-spelling']).toBe(1);
    });

    it("explores the section its links' evidence favours, a news section's too: exploring tests the demotion", async () => {
        const manager = focusedManager({ maxPages: 200 }); // room for the visa section: its cluster cap is not reached
        const taken = await nineAfterSeed(manager, [
            ...visaLinks(12),
            { url: 'https://www.e.edu/news/awards-announced', anchor: 'Visa and scholarship awards announced' },
            { url: 'https://www.e.edu/campus/visa-office', anchor: 'Visa office' },
        ]);
        expect(taken.slice(0, 8).every((url) => url.includes('/international/'))).toBe(true);
        // The 10th page of the crawl explores. Ranked as the queue ranks them the news link, demoted as news, is below
        // the campus one; but it names both query terms where the campus link names one, and exploring opens news.
        expect(taken[8]).toBe('https://www.e.edu/news/awards-announced');
        expect(manager.explorations).toBe(1);
    });

    it('explores a section through its entry, and one deep page of it reached by its score does not close it', async () => {
        const manager = focusedManager({ maxPages: 30 });
        const taken = await nineAfterSeed(manager, [
            ...visaLinks(7),
            { url: 'https://www.e.edu/news/scholarships-for-visa-holders', anchor: 'New scholarships for visa holders' },
            { url: 'https://www.e.edu/news/visa-office-moves', anchor: 'The visa office moves' },
            { url: 'https://www.e.edu/news/', anchor: 'News' },
            { url: 'https://www.e.edu/campus/map', anchor: 'Campus map' },
        ]);
        expect(taken).toContain('https://www.e.edu/news/scholarships-for-visa-holders');
        // The 10th page explores the best unopened section, news, through its entry rather than campus.
        expect(taken[8]).toBe('https://www.e.edu/news/');
        expect(manager.sectionsOpened).toBe(2); // international (a sample of its pages) and news
    });

    it('ranks the links of a host that cannot be reached behind every link with any evidence, however weak', async () => {
        const manager = focusedManager();
        await handleSeed(manager);
        manager.offerLinks(
            [
                { url: 'https://forum.e.edu/visa-scholarship-1', anchor: 'Visa and scholarship forum' },
                { url: 'https://forum.e.edu/visa-scholarship-2', anchor: 'More visa and scholarship questions' },
                { url: 'https://www.e.edu/misc/page', anchor: 'Page' },
            ],
            { ...parent, relevance: 0.05 },
        );
        const first = (await manager.fetchNextRequest())!;
        expect(first.url).toMatch(/^https:\/\/forum\.e\.edu\//);
        manager.trapLearner.observeFailure(first.url, true);
        await manager.markRequestHandled(first);
        expect(await drain(manager)).toEqual(['https://www.e.edu/misc/page', expect.stringMatching(/^https:\/\/forum\.e\.edu\//)]);
    });

    it('ranks a failing link behind links with no evidence at all, not in a tie with them', async () => {
        const manager = focusedManager();
        await handleSeed(manager);
        // Found first, so a tie in score would serve it first.
        manager.offerLinks([{ url: 'https://forum.e.edu/visa-scholarship-1', anchor: 'Visa and scholarship forum' }], { ...parent, relevance: 0 });
        manager.trapLearner.observeFailure('https://forum.e.edu/visa-scholarship-0', true);
        manager.offerLinks([{ url: 'https://www.e.edu/misc/page', anchor: 'Page' }], { ...parent, relevance: 0 });
        expect(await drain(manager)).toEqual(['https://www.e.edu/misc/page', 'https://forum.e.edu/visa-scholarship-1']);
    });

    it('takes links without evidence first where the pages of their directory revealed the most new links', async () => {
        const manager = focusedManager();
        await handleSeed(manager);
        const page = (path: string) => ({ url: `https://www.e.edu/x/${path}`, depth: 1, relevance: 0, isHub: false });
        // A listing in /x/news/ showed ten links no page had shown; a page in /x/about/ only the menu again.
        const posts = Array.from({ length: 10 }, (_, i) => ({ url: `https://www.e.edu/x/posts/post-${i}`, anchor: `Post ${i}`, inMainContent: true }));
        manager.offerLinks(posts, page('news/index.html'));
        manager.offerLinks([{ url: 'https://www.e.edu/x/about/history.html', anchor: 'History' }], page('about/contact.html'));
        // Found after the about page's link: a tie would serve it last.
        manager.offerLinks([{ url: 'https://www.e.edu/x/news/releases.html', anchor: 'Releases' }], page('about/logos.html'));
        manager.rescore(); // as the crawl does when it learns: a rank given before a directory was seen is renewed
        const order = await drain(manager);
        expect(order.indexOf('https://www.e.edu/x/news/releases.html')).toBeLessThan(order.indexOf('https://www.e.edu/x/about/history.html'));
    });

    it('keeps a failing link waiting while a better link waits for its busy host', async () => {
        const manager = focusedManager({ maxRequestsPerHost: 1 });
        await handleSeed(manager);
        manager.trapLearner.observeFailure('https://forum.e.edu/visa-scholarship-0', true);
        manager.offerLinks(
            [
                { url: 'https://www.e.edu/international/visa-scholarship-1', anchor: 'Visa and scholarship 1' },
                { url: 'https://www.e.edu/international/visa-scholarship-2', anchor: 'Visa and scholarship 2' },
                { url: 'https://forum.e.edu/visa-scholarship-1', anchor: 'Visa and scholarship forum' },
            ],
            parent,
        );
        const first = (await manager.fetchNextRequest())!;
        expect(first.url).toMatch(/^https:\/\/www\.e\.edu\/international\//);
        // www.e.edu is at its limit: nothing is handed out rather than the failing forum link.
        expect(await manager.fetchNextRequest()).toBeNull();
        await manager.markRequestHandled(first);
        expect((await manager.fetchNextRequest())!.url).toMatch(/^https:\/\/www\.e\.edu\/international\//);
    });

    it('keeps a parked link waiting once its host fails, while a better link waits for its busy host', async () => {
        // A link popped and then passed over for an exploration stays parked; its host failing meanwhile makes it the
        // last resort, not the filler handed out whenever every queued host is busy.
        const manager = new ExploreOnDemand({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), maxRequestsPerHost: 1 });
        await handleSeed(manager);
        manager.offerLinks(forumFirst, parent);
        manager.exploreNext = true;
        const explored = (await manager.fetchNextRequest())!;
        expect(explored.url).toMatch(/^https:\/\/www\.e\.edu\//); // the forum link was popped, and stays parked
        manager.exploreNext = false;
        manager.trapLearner.observeFailure('https://forum.e.edu/other', true);
        // www.e.edu is at its limit with the exploration in flight: nothing is handed out rather than the failing link.
        expect(await manager.fetchNextRequest()).toBeNull();
        await manager.markRequestHandled(explored);
        expect((await manager.fetchNextRequest())!.url).toMatch(/^https:\/\/www\.e\.edu\//);
    });

    it('sets a parked link aside once its host fails, behind the links set aside for room', async () => {
        // Seed, the exploration, and two more pages; the campus map does not fit the queue and waits in the reserve.
        const manager = new ExploreOnDemand({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), maxRequestsPerHost: 1, maxPages: 4 });
        await handleSeed(manager);
        manager.offerLinks([...forumFirst, { url: 'https://www.e.edu/international/visa-2', anchor: 'Visa' }], parent);
        expect(manager.reserveSize).toBe(1);
        manager.exploreNext = true;
        const explored = (await manager.fetchNextRequest())!; // the forum link was popped first, and stays parked
        manager.exploreNext = false;
        manager.trapLearner.observeFailure('https://forum.e.edu/other', true);
        await manager.markRequestHandled(explored);
        const rest = await drain(manager);
        expect(rest).toHaveLength(2);
        expect(rest).not.toContain('https://forum.e.edu/visa-scholarship');
    });

    it('takes the best link first, whatever the order of discovery', async () => {
        const manager = focusedManager();
        await manager.addRequestsBatched([SEED]);
        const seed = await manager.fetchNextRequest();
        await manager.markRequestHandled(seed!);
        manager.offerLinks(
            [
                { url: 'https://www.e.edu/library', anchor: 'Library' },
                { url: 'https://www.e.edu/sports', anchor: 'Sports' },
                { url: 'https://www.e.edu/international/visa-and-scholarship', anchor: 'Visa and scholarship help' },
            ],
            parent,
        );
        expect((await manager.fetchNextRequest())!.url).toBe('https://www.e.edu/international/visa-and-scholarship');
    });

    it('moves a queued link up when it is found again with a better anchor, keeping the better provenance', async () => {
        const manager = focusedManager();
        await handleSeed(manager);
        manager.offerLinks([{ url: 'https://www.e.edu/p/17', anchor: 'More' }, { url: 'https://www.e.edu/p/18', anchor: 'Other' }], parent);
        manager.offerLinks([{ url: 'https://www.e.edu/p/18', anchor: 'Visa scholarship guide' }], { ...parent, url: 'https://www.e.edu/list' });
        const best = (await manager.fetchNextRequest())!;
        expect(best.url).toBe('https://www.e.edu/p/18');
        expect(manager.entryOf(best)).toMatchObject({ parentUrl: 'https://www.e.edu/list', anchorText: 'Visa scholarship guide' });
    });

    it('queues the next page of a listing with its best item not fetched yet, right after that item', async () => {
        const manager = focusedManager();
        await handleSeed(manager);
        const list = { ...parent, url: 'https://www.e.edu/news/?page=3', isHub: true };
        manager.offerLinks(
            [
                { url: 'https://www.e.edu/news/?page=4', anchor: 'next' },
                { url: 'https://www.e.edu/news/41', anchor: 'Board minutes' },
                { url: 'https://www.e.edu/news/42', anchor: 'Visa scholarship deadlines' },
                { url: 'https://www.e.edu/about', anchor: 'About' },
            ],
            list,
        );
        expect(await drain(manager)).toEqual(['https://www.e.edu/news/42', 'https://www.e.edu/news/?page=4', 'https://www.e.edu/news/41', 'https://www.e.edu/about']);
        // A page whose items were all fetched passes nothing on: the next page is worth only its own link.
        manager.offerLinks([{ url: 'https://www.e.edu/news/42', anchor: 'Visa scholarship deadlines' }, { url: 'https://www.e.edu/news/?page=5', anchor: 'next' }], list);
        const next = (await manager.fetchNextRequest())!;
        expect(manager.entryOf(next)?.signal?.continues).toBeUndefined();
    });

    it('passes a listing\'s promise on through a page of the list without an item of note', async () => {
        const manager = focusedManager();
        await handleSeed(manager);
        const list = (page: number) => ({ ...parent, url: `https://www.e.edu/news/?page=${page}`, depth: page - 2, isHub: true });
        manager.offerLinks([{ url: 'https://www.e.edu/news/42', anchor: 'Visa scholarship deadlines' }, { url: 'https://www.e.edu/news/?page=4', anchor: 'next' }], list(3));
        const taken = new Map<string, Request>();
        for (let r = await manager.fetchNextRequest(); r; r = await manager.fetchNextRequest()) taken.set(r.url, r);
        const page4 = taken.get('https://www.e.edu/news/?page=4')!;
        // Page 4 lists only board minutes; its next link keeps page 3's scholarship post, one hop further away.
        manager.offerLinks(
            [{ url: 'https://www.e.edu/news/51', anchor: 'Board minutes' }, { url: 'https://www.e.edu/news/?page=5', anchor: 'Older posts' }],
            { ...list(4), via: manager.entryOf(page4)!.signal },
        );
        const next = (await manager.fetchNextRequest())!;
        expect(next.url).toBe('https://www.e.edu/news/?page=5');
        expect(manager.entryOf(next)?.signal?.continues).toMatchObject({ anchorTerms: manager.entryOf(taken.get('https://www.e.edu/news/42')!)!.signal!.anchorTerms });
        expect((await manager.fetchNextRequest())?.url).toBe('https://www.e.edu/news/51');
    });

    it('skips links beyond maxDepth and outside the URL globs, but never a start URL', async () => {
        const manager = focusedManager({ maxDepth: 1, includeUrlGlobs: ['https://www.e.edu/visa/**'], excludeUrlGlobs: ['https://www.e.edu/visa/old/**'] });
        await manager.addRequestsBatched([SEED]); // not under /visa/: a start URL is the user's own choice
        manager.offerLinks(
            [
                { url: 'https://www.e.edu/visa/apply', anchor: 'Visa' },
                { url: 'https://www.e.edu/visa/old/2019', anchor: 'Old visa rules' },
                { url: 'https://www.e.edu/library', anchor: 'Library' },
            ],
            parent,
        );
        manager.offerLinks([{ url: 'https://www.e.edu/visa/deeper', anchor: 'Visa scholarship' }], { ...parent, depth: 1 });
        expect(await drain(manager)).toEqual([SEED, 'https://www.e.edu/visa/apply']);
        expect(manager.skippedCounts()).toMatchObject({ 'excluded-by-glob': 1, 'not-included-by-glob': 1, 'beyond-max-depth': 1 });
    });

    it('enforces maxPages when a request is taken, keeps the frontier within the room left and evicts the worst', async () => {
        const manager = focusedManager({ maxPages: 3 });
        await handleSeed(manager);
        manager.offerLinks(
            Array.from({ length: 10 }, (_, i) => ({ url: `https://www.e.edu/page-${i}`, anchor: `Page ${i}` })).concat([
                { url: 'https://www.e.edu/visa', anchor: 'Visa' },
            ]),
            parent,
        );
        expect(manager.frontierSize()).toBe(2); // room = 3 − 1 taken
        expect(manager.skippedCounts().evicted ?? 0).toBeGreaterThan(0);
        const rest = await drain(manager);
        expect(rest).toHaveLength(2);
        expect(rest[0]).toBe('https://www.e.edu/visa');
        expect(manager.pagesScheduled).toBe(3);
        expect(await manager.isFinished()).toBe(true);
        expect(manager.finishReason).toBe('limit_reached');
    });

    it('keeps the best sighting of a link set aside for room: a menu that shows it again from an off-topic page does not erase it', async () => {
        const manager = focusedManager({ maxFrontierSize: 2 });
        await handleSeed(manager);
        manager.offerLinks(visaLinks(3), parent);
        const [setAside] = manager.toJSON().reserve!.links;
        expect(manager.frontierSize()).toBe(2);
        const offTopic = { url: 'https://www.e.edu/sports', depth: 1, relevance: 0, isHub: false };
        manager.offerLinks([{ url: setAside!.payload.url, anchor: 'More' }], offTopic); // no room still
        expect(manager.toJSON().reserve!.links.map((l) => l.payload.parentUrl)).toEqual([SEED]);
        await manager.markRequestHandled((await manager.fetchNextRequest())!); // room for one more
        manager.offerLinks([{ url: setAside!.payload.url, anchor: 'More' }], offTopic);
        const taken = [(await manager.fetchNextRequest())!, (await manager.fetchNextRequest())!];
        const entry = manager.entryOf(taken.find((r) => r.url === setAside!.payload.url)!)!;
        expect(entry).toMatchObject({ parentUrl: SEED, anchorText: setAside!.payload.anchorText, depth: 1 });
    });

    it('lets a link set aside for room compete again once a re-score makes it better than the queue\'s worst', async () => {
        /** The link model learning, after the drop, that one kind of link pays: its score rises a hundredfold. */
        class LearningRanking extends FrontierRanking {
            readonly learned = new Set<string>();
            override adjust(score: number, shape: string, url: string): number {
                return super.adjust(score, shape, url) * (this.learned.has(url) ? 100 : 1);
            }
        }
        class Learning extends FocusedRequestManager {
            readonly learning = new LearningRanking(this.focus, this.trapLearner);
            constructor(options: FocusedRequestManagerOptions) {
                super(options);
                this.ranking = this.learning;
            }
            get learned(): Set<string> {
                return this.learning.learned;
            }
        }
        const manager = new Learning({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), maxFrontierSize: 2 });
        await handleSeed(manager);
        manager.offerLinks(visaLinks(3), parent);
        const setAside = manager.toJSON().reserve!.links.map((l) => l.payload.url);
        expect(setAside).toHaveLength(1);
        manager.rescore(); // nothing learned: the set-aside link stays set aside
        expect(manager.toJSON().reserve!.links.map((l) => l.payload.url)).toEqual(setAside);
        manager.learned.add(setAside[0]!);
        manager.rescore();
        expect(manager.frontierSize()).toBe(2);
        expect(manager.reserveSize).toBe(1);
        expect(manager.toJSON().reserve!.links.map((l) => l.payload.url)).not.toEqual(setAside); // the worst went aside
        expect(manager.refilled).toBe(1);
        expect((await manager.fetchNextRequest())!.url).toBe(setAside[0]);
    });

    it('queues the best set-aside links again when the queue runs empty with budget left, also after a resume', async () => {
        // The three best links turn out to be disallowed when they are taken (robots.txt arrived after they were queued):
        // the queue, sized to the budget, runs empty with three pages left, and the reserve refills it.
        let arrive = () => {};
        const robots = () => {
            const arrived = new Promise<void>((resolve) => (arrive = resolve));
            return new RobotsCache({ fetchText: async () => (await arrived, { status: 200, body: Buffer.from('User-agent: *\nDisallow: /closed/\n') }) });
        };
        const run = async (manager: FocusedRequestManager) => {
            const urls: string[] = [];
            while (!(await manager.isFinished())) {
                const request = await manager.fetchNextRequest();
                if (!request) {
                    await new Promise((r) => setTimeout(r, 5));
                    continue;
                }
                urls.push(request.url);
                await manager.markRequestHandled(request);
            }
            return urls;
        };
        const links = [
            ...['visa', 'scholarship', 'visa-scholarship'].map((w) => ({ url: `https://www.e.edu/closed/${w}`, anchor: `Visa scholarship ${w}` })),
            ...['library', 'sports', 'music', 'dining', 'parking'].map((w) => ({ url: `https://www.e.edu/${w}`, anchor: w })),
        ];

        const manager = focusedManager({ maxPages: 4, robots: robots() });
        await manager.addRequestsBatched([SEED]);
        manager.offerLinks(links, parent);
        expect(manager.frontierSize()).toBe(4); // the seed and the three best; five set aside
        arrive();
        const fetched = await run(manager);
        expect(fetched).toHaveLength(4);
        expect(fetched.filter((u) => u.includes('/closed/'))).toEqual([]);
        expect(manager.finishReason).toBe('limit_reached');
        expect(manager.refilled).toBe(3);
        expect(manager.reserveSize).toBe(2);

        // The same crawl saved before the queue ran empty: the snapshot carries the reserve.
        const before = focusedManager({ maxPages: 4, robots: robots() });
        await before.addRequestsBatched([SEED]);
        before.offerLinks(links, parent);
        const restored = FocusedRequestManager.fromJSON(JSON.parse(JSON.stringify(before.toJSON())), { focus: before.focus, maxPages: 4, robots: robots() });
        arrive();
        expect(await run(restored)).toHaveLength(4);
        expect(restored.finishReason).toBe('limit_reached');
    });

    it('follows Crawlee semantics for in-flight and reclaimed requests', async () => {
        const manager = focusedManager({ maxPages: 2 });
        await manager.addRequestsBatched([SEED, 'https://www.e.edu/visa']);
        const first = (await manager.fetchNextRequest())!;
        expect(first).toBeInstanceOf(Request);
        expect(first.id).toBeTruthy();
        expect(await manager.fetchNextRequest()).toBeNull(); // the host has not answered yet: one request at a time
        expect(await manager.isFinished()).toBe(false); // a request in flight
        first.retryCount += 1;
        await manager.reclaimRequest(first, { forefront: true });
        expect(await manager.isEmpty()).toBe(false); // a retry does not count against maxPages again
        const retried = (await manager.fetchNextRequest())!;
        expect(retried.url).toBe(first.url);
        expect(retried.retryCount).toBe(1);
        await manager.markRequestHandled(retried);
        const second = (await manager.fetchNextRequest())!;
        expect(second.url).toBe('https://www.e.edu/visa');
        expect(await manager.isEmpty()).toBe(true);
        expect(await manager.isFinished()).toBe(false); // a request in flight
        await manager.markRequestHandled(second);
        expect(await manager.handledCount()).toBe(2);
        expect(await manager.isFinished()).toBe(true);
        expect(manager.pagesScheduled).toBe(2);
    });

    it('keeps at most maxRequestsPerHost requests in flight per host, and serves other hosts meanwhile', async () => {
        const manager = new FocusedRequestManager({ maxRequestsPerHost: 1, allowedHosts: ['a.test', 'b.test'] });
        await manager.addRequestsBatched(['http://a.test/1', 'http://a.test/2', 'http://b.test/1']);
        const taken = [(await manager.fetchNextRequest())!, (await manager.fetchNextRequest())!];
        expect(new Set(taken.map((r) => new URL(r.url).host))).toEqual(new Set(['a.test', 'b.test']));
        expect(await manager.fetchNextRequest()).toBeNull(); // a.test is busy
        expect(await manager.isEmpty()).toBe(true);
        expect(await manager.isFinished()).toBe(false);
        await manager.markRequestHandled(taken.find((r) => r.url.includes('a.test'))!);
        expect((await manager.fetchNextRequest())!.url).toMatch(/^http:\/\/a\.test\//);
    });

    it('lifts the one-at-a-time limit of a new host once it has answered, before its page is handled', async () => {
        const manager = new FocusedRequestManager({ maxRequestsPerHost: 2, allowedHosts: ['a.test'] });
        await manager.addRequestsBatched(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
        const first = (await manager.fetchNextRequest())!;
        expect(await manager.fetchNextRequest()).toBeNull(); // a new host: one request until it answers
        manager.noteAnswered(first); // its page is read; the crawler still scores and stores it
        expect((await manager.fetchNextRequest())!.url).toBe('http://a.test/2');
        expect(await manager.fetchNextRequest()).toBeNull(); // the first still counts against the limit until handled
        await manager.markRequestHandled(first);
        expect((await manager.fetchNextRequest())!.url).toBe('http://a.test/3');
    });

    it('backs off one host after Retry-After, not the others', async () => {
        const manager = new FocusedRequestManager({ allowedHosts: ['a.test', 'b.test'] });
        await manager.addRequestsBatched(['http://a.test/1', 'http://b.test/1']);
        manager.backOffHost('http://a.test/1', Date.now() + 60_000);
        expect((await manager.fetchNextRequest())!.url).toBe('http://b.test/1');
        expect(await manager.fetchNextRequest()).toBeNull();
        expect(await manager.isFinished()).toBe(false);
    });

    it('counts the delay between two requests to a host from when the first went out, not from its hand-out', async () => {
        const manager = new FocusedRequestManager({ allowedHosts: ['a.test'], minDelayPerHostMillis: 1_000 });
        await manager.addRequestsBatched(['http://a.test/1', 'http://a.test/2']);
        const first = (await manager.fetchNextRequest())!;
        await new Promise((resolve) => setTimeout(resolve, 700)); // a browser opening its page
        const sentAt = Date.now();
        manager.noteSent(first);
        await manager.markRequestHandled(first);
        await new Promise((resolve) => setTimeout(resolve, 400)); // 1.1 s after the hand-out, 0.4 s after the send
        expect(await manager.fetchNextRequest()).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + 1_020 - Date.now())));
        expect((await manager.fetchNextRequest())!.url).toBe('http://a.test/2');
    });

    it('stops handing out pages after stop(), and reports why the frontier ended', async () => {
        const manager = focusedManager();
        await manager.addRequestsBatched([SEED, 'https://www.e.edu/visa']);
        manager.stop();
        expect(await manager.fetchNextRequest()).toBeNull();
        expect(await manager.isFinished()).toBe(true);
        expect(manager.finishReason).toBe('cancelled');
        const empty = focusedManager();
        expect(empty.finishReason).toBe('exhausted');
    });

    it('restores from a JSON snapshot: handled pages stay handled, in-flight ones come back as pending', async () => {
        const manager = focusedManager({ maxPages: 10 });
        await handleSeed(manager);
        manager.offerLinks(['visa', 'scholarship', 'library'].map((w) => ({ url: `https://www.e.edu/${w}`, anchor: w })), parent);
        const inFlight = (await manager.fetchNextRequest())!;
        const snapshot = JSON.parse(JSON.stringify(manager.toJSON()));
        const restored = FocusedRequestManager.fromJSON(snapshot, { focus: manager.focus });
        expect(restored.pagesScheduled).toBe(2);
        const rest = await drain(restored);
        expect(rest[0]).toBe(inFlight.url); // what was in flight is fetched again first
        expect(new Set(rest)).toEqual(new Set(['visa', 'scholarship', 'library'].map((w) => `https://www.e.edu/${w}`)));
        expect(rest).not.toContain(SEED);
        restored.offerLinks([{ url: SEED, anchor: 'Home' }], parent);
        expect(restored.skippedCounts()['duplicate-url']).toBe(1);
    });

    it('is passed as requestManager exactly when Crawlee accepts that option', () => {
        let accepted = true;
        try {
            new BasicCrawler({ requestManager: new FocusedRequestManager(), requestHandler: async () => undefined } as never);
        } catch {
            accepted = false;
        }
        expect(crawlerAcceptsRequestManager()).toBe(accepted);
    });
});
