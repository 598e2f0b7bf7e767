/**
 * Scenario tests on the Northfield fixture site (test/fixtures/focus/northfield): a university whose
 * navigation and footer repeat "department", "faculty", "research", "international student" and
 * "visa" on every page, with a dated news cluster.
 */
import { describe, expect, it } from 'vitest';
import { EVIDENCE_RELEVANCE } from '../../src/focus/adaptive.js';
import { Focus, type PageVerdict } from '../../src/focus/focus.js';
import type { LinkSignal } from '../../src/focus/link-score.js';
import { page, site, type FixturePage } from './fixtures.js';

const SEED = 'https://www.northfield.edu/';
const northfield = site('northfield');
const at = (name: string) => page(`northfield/${name}`);

/** Scores every link of `from` as found on that page, after the page was observed with `verdict`. */
function linksOf(focus: Focus, from: FixturePage, verdict: Pick<PageVerdict, 'relevance' | 'isHub'>, depth = 1) {
    return from.links.map((link) => ({
        ...link,
        ...focus.scoreLink({ ...link, depth }, { url: from.url, relevance: verdict.relevance, isHub: verdict.isHub }),
    }));
}

/** A best-first crawl of the fixture site (links to pages not in the fixture are left out), as the crawl loop would run it. */
function crawl(focus: Focus, limit = northfield.size) {
    const frontier = new Map<string, { score: number; signal: LinkSignal; depth: number; seq: number }>();
    const done = new Set<string>();
    const fetched: { name: string; verdict: PageVerdict }[] = [];
    let seq = 0;
    frontier.set(SEED, { score: focus.score(focus.seedSignal(SEED)), signal: focus.seedSignal(SEED), depth: 0, seq: seq++ });
    while (frontier.size > 0 && fetched.length < limit) {
        const [url, entry] = [...frontier].reduce((a, b) => (b[1].score > a[1].score || (b[1].score === a[1].score && b[1].seq < a[1].seq) ? b : a));
        frontier.delete(url);
        done.add(url);
        const fixture = northfield.get(url)!;
        const verdict = focus.observePage(fixture, entry.signal.fixed === undefined ? entry.signal : null);
        fetched.push({ name: fixture.name.replace('northfield/', ''), verdict });
        if (verdict.stop) break;
        if (verdict.rescore) for (const queued of frontier.values()) queued.score = focus.score(queued.signal);
        for (const link of fixture.links) {
            if (!northfield.has(link.url) || done.has(link.url)) continue;
            const scored = focus.scoreLink({ ...link, depth: entry.depth + 1 }, { url, relevance: verdict.relevance, isHub: verdict.isHub });
            const queued = frontier.get(link.url);
            if (!queued) frontier.set(link.url, { ...scored, depth: entry.depth + 1, seq: seq++ });
            else if (scored.score > queued.score) Object.assign(queued, scored);
        }
    }
    return fetched;
}

describe('a university site where every page collects "department faculty research"', () => {
    const query = 'computer science department faculty research';
    const pages = ['home', 'departments', 'biology', 'chemistry', 'computer-science', 'history', 'physics', 'economics', 'research', 'faculty'];

    it('ranks the computer science page far above pages that only collect the common words', () => {
        const focus = new Focus(query, { seedUrls: [SEED] });
        for (const name of pages) focus.observePage(at(name), null);
        const cs = focus.relevance(at('computer-science'));
        const collectors = pages.filter((name) => name !== 'computer-science').map((name) => focus.relevance(at(name)));
        expect(cs).toBeGreaterThan(0.5);
        for (const other of collectors) expect(cs).toBeGreaterThan(3 * other);
    });

    it('scores the "Computer Science" link of the departments page above every other link there', () => {
        const focus = new Focus(query, { seedUrls: [SEED] });
        for (const name of pages) focus.observePage(at(name), null);
        const departments = at('departments');
        const links = linksOf(focus, departments, { relevance: focus.relevance(departments), isHub: false }, 2);
        const [best, ...rest] = links.sort((a, b) => b.score - a.score);
        expect(best!.anchor).toBe('Computer Science');
        expect(best!.score).toBeGreaterThan(2 * rest[0]!.score);
    });

    it('fetches the computer science page right after the home page in a best-first crawl', () => {
        const fetched = crawl(new Focus(query, { seedUrls: [SEED] }));
        expect(fetched.slice(0, 2).map((f) => f.name)).toEqual(['home', 'computer-science']);
    });
});

describe('links on the international students page, query "international student visa"', () => {
    const query = 'international student visa';

    it('ranks a link whose anchor names the topic above a footer link with the words only in its context', () => {
        for (const observed of [[], ['home', 'international', 'news', 'about', 'research']]) {
            const focus = new Focus(query, { seedUrls: [SEED] });
            for (const name of observed) focus.observePage(at(name), null);
            const international = at('international');
            const links = linksOf(focus, international, { relevance: focus.relevance(international), isHub: false });
            const visa = links.find((link) => link.anchor === 'Student visa guidance')!;
            const footer = links.find((link) => link.anchor === 'Contact us')!;
            expect(footer.signal.contextTerms).toBe(0b111); // the footer line names all three terms
            expect(footer.signal.anchorTerms).toBe(0);
            expect(visa.score).toBeGreaterThan(2 * footer.score);
        }
    });
});

describe('a news cluster with the query words in every footer', () => {
    const query = 'international student visa';
    const news = ['news-rowing-cup', 'news-new-library', 'news-okafor-academy', 'news-spring-concert', 'news-lunar-new-year', 'news-cafe-award'];

    it('keeps news articles below the evidence threshold, and they are no hits', () => {
        const focus = new Focus(query, { seedUrls: [SEED] });
        for (const name of ['home', 'international', 'visa', 'news']) focus.observePage(at(name), null);
        const verdicts = news.map((name) => focus.observePage(at(name), null));
        for (const verdict of verdicts) {
            expect(verdict.relevance).toBeLessThan(EVIDENCE_RELEVANCE);
            expect(verdict.hit).toBe(false);
        }
        const visa = focus.relevance(at('visa'));
        expect(visa).toBeGreaterThan(4 * Math.max(...verdicts.map((v) => v.relevance)));
    });

    it('damps links into the news cluster, even a headline that names two query terms', () => {
        const focus = new Focus(query, { seedUrls: [SEED] });
        const home = at('home');
        const verdict = focus.observePage(home, null);
        const links = linksOf(focus, home, verdict);
        const headline = links.find((link) => link.anchor === 'International students celebrate Lunar New Year')!;
        expect(headline.signal.phrase).toBe(true);
        expect(headline.signal.dated).toBe(true);
        const intl = links.find((link) => link.url === `${SEED}international/`)!; // first found in the navigation
        expect(intl.score).toBeGreaterThan(5 * headline.score);
        // The same headline outside a dated news path would score ten times higher.
        const undated = focus.scoreLink({ ...headline, url: `${SEED}community/lunar-new-year`, depth: 1 }, { url: home.url, ...verdict });
        expect(undated.score).toBeCloseTo(10 * headline.score, 9);
    });

    it('fetches the visa page before any news article, and proves the international cluster, not the news one', () => {
        // Patience 2: the stop rules compare a window of 4 × patience recent pages with the harvest before it, and
        // this fixture site has only 20 pages.
        const focus = new Focus(query, { seedUrls: [SEED], adaptive: { patience: 2 } });
        focus.noteSeedLanguage('en');
        const fetched = crawl(focus).map((f) => f.name);
        const visa = fetched.indexOf('visa');
        expect(visa).toBeGreaterThan(0);
        expect(visa).toBeLessThanOrEqual(3);
        for (const name of fetched.filter((n) => n.startsWith('news-'))) expect(fetched.indexOf(name)).toBeGreaterThan(visa);
        expect(focus.isClusterProven('www.northfield.edu/international')).toBe(true);
        expect(focus.isClusterProven('www.northfield.edu/news')).toBe(false);
        expect(focus.summary().stopReason).not.toBeNull(); // the stop rules end the crawl before the site is exhausted
        expect(fetched.length).toBeLessThan(northfield.size);
    });
});

describe('state round-trip', () => {
    it('continues with identical verdicts and scores after toJSON → JSON → fromJSON', () => {
        const order = ['home', 'international', 'news', 'news-lunar-new-year', 'visa', 'departments', 'computer-science', 'about', 'news-cafe-award', 'biology', 'faculty', 'research', 'news-rowing-cup', 'history'];
        const original = new Focus('international student visa', { seedUrls: [SEED], adaptive: { patience: 50 } });
        original.noteSeedLanguage('en');
        // Each page is fetched through the best-scoring link to it seen so far, so the link model learns.
        const via = new Map<string, LinkSignal>();
        const step = (focus: Focus, name: string) => {
            const fixture = at(name);
            const verdict = focus.observePage(fixture, via.get(fixture.url) ?? null);
            const links = linksOf(focus, fixture, verdict, 2);
            return { verdict, links, stored: [...via.values()].map((signal) => focus.score(signal)) };
        };
        const remember = (links: ReturnType<typeof linksOf>) => {
            for (const link of links) if (!via.has(link.url)) via.set(link.url, link.signal);
        };
        for (const name of order.slice(0, 6)) remember(step(original, name).links);

        const restored = Focus.fromJSON(JSON.parse(JSON.stringify(original)));
        expect(restored.toJSON()).toEqual(original.toJSON());
        for (const name of order.slice(6)) {
            const a = step(original, name);
            const b = step(restored, name);
            expect(b).toEqual(a);
            remember(a.links);
        }
        expect(restored.summary()).toEqual(original.summary());
        expect(restored.toJSON()).toEqual(original.toJSON());
        expect(original.summary().pagesObserved).toBe(order.length);
    });
});
