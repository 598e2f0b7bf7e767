import { describe, expect, it } from 'vitest';
import { DiscoveryYield, directoryOf } from '../../src/frontier/index.js';

describe('DiscoveryYield', () => {
    it('names a directory by host and path up to the last slash', () => {
        expect(directoryOf('https://Site.org/news/releases.html?x=1')).toBe('site.org/news/');
        expect(directoryOf('https://site.org/news/')).toBe('site.org/news/');
        expect(directoryOf('not a url')).toBeNull();
    });

    it('expects of a directory the new links its pages revealed, shrunk towards the crawl mean', () => {
        const discovery = new DiscoveryYield();
        discovery.observe('https://site.org/news/index.html', 20);
        discovery.observe('https://site.org/about/contact.html', 0);
        discovery.observe('https://site.org/about/logos.html', 0);
        // crawl mean 20/3; news: (20 + 20/3) / 2; about: (0 + 20/3) / 3; an unseen directory: the mean
        expect(discovery.expected('https://site.org/news/releases.html')).toBeCloseTo(40 / 3, 9);
        expect(discovery.expected('https://site.org/about/history.html')).toBeCloseTo(20 / 9, 9);
        expect(discovery.expected('https://site.org/programs/x.html')).toBeCloseTo(20 / 3, 9);
        const ranks = ['news/releases.html', 'programs/x.html', 'about/history.html'].map((path) => discovery.rank(`https://site.org/${path}`));
        expect(ranks[0]).toBeGreaterThan(ranks[1]!);
        expect(ranks[1]).toBeGreaterThan(ranks[2]!);
        for (const rank of ranks) expect(rank).toBeGreaterThanOrEqual(0), expect(rank).toBeLessThan(1);
    });

    it('tells a listing from the posts in its directory by their URL templates', () => {
        const discovery = new DiscoveryYield();
        for (let page = 2; page <= 4; page++) discovery.observe(`https://site.org/events/index.html?page=${page}`, 20);
        for (let post = 1; post <= 6; post++) discovery.observe(`https://site.org/events/${post}.html`, 0);
        expect(discovery.expected('https://site.org/events/index.html?page=5')).toBeGreaterThan(discovery.expected('https://site.org/events/7.html'));
        // A page of neither template has only the directory to go by.
        const directory = discovery.expected('https://site.org/events/calendar.html');
        expect(directory).toBeLessThan(discovery.expected('https://site.org/events/index.html?page=5'));
        expect(directory).toBeGreaterThan(discovery.expected('https://site.org/events/7.html'));
    });

    it('ranks nothing before any page was counted, and survives a snapshot', () => {
        const discovery = new DiscoveryYield();
        expect(discovery.rank('https://site.org/a.html')).toBe(0);
        discovery.observe('https://site.org/news/', 12);
        discovery.observe('https://site.org/about/', 1);
        const restored = DiscoveryYield.fromJSON(JSON.parse(JSON.stringify(discovery.toJSON())));
        for (const url of ['https://site.org/news/x', 'https://site.org/about/y', 'https://site.org/z/']) expect(restored.expected(url)).toBe(discovery.expected(url));
        expect(DiscoveryYield.fromJSON(undefined).rank('https://site.org/news/x')).toBe(0);
    });
});
