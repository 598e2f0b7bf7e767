import { describe, expect, it } from 'vitest';
import { Focus, isHub, type FocusPage } from '../../src/focus/focus.js';
import { EVIDENCE_RELEVANCE } from '../../src/focus/adaptive.js';
import { DEPTH_DECAY, HUB_FACTOR, LANGUAGE_PORTAL_SCORE, SECTION_SCORE, SEED_SCORE, type LinkSignal } from '../../src/focus/link-score.js';
import { PRIOR_WEIGHTS } from '../../src/focus/model.js';
import { Query } from '../../src/focus/query.js';
import { NO_LINKS } from '../../src/focus/recall.js';

const SEED = 'https://www.e.edu/';
const pageAt = (url: string, markdown: string, title = ''): FocusPage => ({ url, title, markdown, linkCount: 3, proseWords: 100 });
const parent = { url: SEED, relevance: 0, isHub: false };

describe('Focus', () => {
    it('needs a seed URL and says so', () => {
        expect(() => new Focus('visa', { seedUrls: [] })).toThrow(/seedUrls/);
        expect(() => new Focus('visa', { seedUrls: ['not a url'] })).toThrow(/absolute URL/);
    });

    it('accepts a prepared Query', () => {
        const query = new Query('student housing');
        expect(new Focus(query, { seedUrls: [SEED] }).query).toBe(query);
    });

    it('reads what a listing selects (URL words and filter values) as the context of its items, only on hubs', () => {
        const focus = new Focus('question answering', { seedUrls: [SEED] });
        const item = { url: `${SEED}paper/7`, anchor: 'Graph-to-Tree Learning for Math Word Problems', context: '', depth: 2 };
        const listing = { url: `${SEED}papers.html?track=Question%20Answering`, relevance: 0.6, isHub: true };
        const fromListing = focus.scoreLink(item, listing);
        expect(fromListing.signal.contextTerms).toBe(0b11);
        expect(focus.scoreLink(item, { ...listing, url: `${SEED}question/answering/` }).signal.contextTerms).toBe(0b11);
        // An article is not a listing: its URL names the article, not what its links lead to.
        const fromArticle = focus.scoreLink(item, { ...listing, isHub: false });
        expect(fromArticle.signal.contextTerms).toBe(0);
        expect(fromListing.score).toBeGreaterThan(fromArticle.score);
        expect(focus.scoreLink(item, { ...listing, url: `${SEED}papers.html?track=Summarization` }).signal.contextTerms).toBe(0);
    });

    it('gives seeds a fixed score above any link and never learns from them', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED] });
        const seed = focus.seedSignal(SEED);
        expect(focus.score(seed)).toBe(SEED_SCORE);
        for (let i = 0; i < 20; i++) focus.observePage(pageAt(`${SEED}p${i}`, 'Nothing about it.'), seed);
        expect(focus.linkWeights).toEqual(PRIOR_WEIGHTS);
    });

    it('counts links whose fetch failed or repeated a page as unproductive in the calibration, and seeds not at all', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED] });
        const { score, signal } = focus.scoreLink({ url: `${SEED}housing/halls`, anchor: 'Student housing', context: '', depth: 1 }, parent);
        for (let i = 0; i < 6; i++) focus.observePage(pageAt(`${SEED}housing/${i}`, `Student housing hall ${i}: rooms, rents and how to apply for student housing.`), signal);
        const afterPaidOff = focus.linkProbability(score).probability;
        expect(afterPaidOff).toBeGreaterThan(0.6);
        for (let i = 0; i < 12; i++) focus.observeUnproductiveLink(signal);
        expect(focus.linkProbability(score).probability).toBeLessThan(afterPaidOff - 0.2);
        const settled = focus.linkProbability(score).probability;
        focus.observeUnproductiveLink(focus.seedSignal(SEED));
        focus.observeUnproductiveLink(null);
        expect(focus.linkProbability(score).probability).toBe(settled);
    });

    it('learns the link model from pages fetched through scored links', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED] });
        const { signal } = focus.scoreLink({ url: `${SEED}housing/halls`, anchor: 'Student housing', context: '', depth: 1 }, parent);
        const verdicts = Array.from({ length: 10 }, (_, i) => focus.observePage(pageAt(`${SEED}parking/${i}`, 'Car parking permits and fines.'), signal));
        expect(verdicts.some((v) => v.rescore)).toBe(true);
        expect(focus.linkWeights[0]).toBeLessThan(PRIOR_WEIGHTS[0]!);
    });

    it('reports rescore when the term weights or the yield of a directory move', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED] });
        const verdicts = [0, 1, 2].map((i) => focus.observePage(pageAt(`${SEED}p${i}`, 'Every student reads this.'), null));
        // p0: the first productive page of the directory moves its yield by 1/6; p1 moves it by less than 0.1
        // since; p2: "student" is on every page, so its weight drops below "housing".
        expect(verdicts.map((v) => v.rescore)).toEqual([true, false, true]);
        expect(focus.termWeights[0]).toBeLessThan(focus.termWeights[1]!);
    });

    it('feeds blind probes to the stop rule: ten irrelevant pages behind blind links stop the crawl, behind query links they do not', () => {
        const blind = new Focus('student housing', { seedUrls: [SEED] });
        const hinted = new Focus('student housing', { seedUrls: [SEED] });
        const blindLink = blind.scoreLink({ url: `${SEED}parking`, anchor: 'Parking', context: '', depth: 1 }, parent).signal;
        const hintLink = hinted.scoreLink({ url: `${SEED}housing`, anchor: 'Housing', context: '', depth: 1 }, parent).signal;
        const stops = (focus: Focus, via: LinkSignal) =>
            Array.from({ length: 10 }, (_, i) => focus.observePage(pageAt(`${SEED}x${i}`, 'Parking permits and fines.'), via).stop);
        expect(stops(blind, blindLink).at(-1)).toBe('no_relevant_pages');
        expect(stops(hinted, hintLink).every((stop) => stop === null)).toBe(true);
    });

    it('tells the stop rule which pages are still out and whether one of them is behind a query link or a seed', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED] });
        const blindLink = focus.scoreLink({ url: `${SEED}parking`, anchor: 'Parking', context: '', depth: 1 }, parent).signal;
        const hintLink = focus.scoreLink({ url: `${SEED}housing`, anchor: 'Housing', context: '', depth: 1 }, parent).signal;
        const frontierWith = (pending: Array<[string, LinkSignal | null]>) => ({
            queuedScores: () => [], droppedScores: () => [], droppedEarlier: NO_LINKS,
            pendingLinks: () => pending.map(([url, signal]) => ({ url, signal })),
        });
        const observe = (page: string, pending: Array<[string, LinkSignal | null]>) =>
            focus.observePage(pageAt(`${SEED}${page}`, 'Parking permits and fines.'), blindLink, frontierWith(pending)).stop;
        const stops = (pending: Array<[string, LinkSignal | null]>) => Array.from({ length: 10 }, (_, i) => observe(`x${i}`, pending));
        expect(stops([[`${SEED}parking`, blindLink], [`${SEED}housing`, hintLink]]).every((stop) => stop === null)).toBe(true);
        expect(stops([[`${SEED}parking`, blindLink], [SEED, null]]).every((stop) => stop === null)).toBe(true);
        // Twenty blind probes by now. The blind page still out was out when the count reached its limit: it is awaited.
        expect(stops([[`${SEED}parking`, blindLink]]).every((stop) => stop === null)).toBe(true);
        // The page being observed is not waited for, and one taken after the limit was reached is not either.
        expect(observe('parking', [[`${SEED}parking`, blindLink], [`${SEED}fees`, blindLink]])).toBe('no_relevant_pages');
    });

    it('learns where links pay off: filter listings that repeat what was read sink below new papers beside them', () => {
        const site = 'https://conf.org/';
        const focus = new Focus('summarization', { seedUrls: [`${site}index.html`] });
        const cards = Array.from({ length: 12 }, (_, i) => `##### Paper ${i} on summarization\n\nAuthor ${i}, Author ${i + 1}`).join('\n\n');
        focus.observePage(pageAt(`${site}papers.html`, cards, 'Papers'), null);
        const from = { url: `${site}paper_main.0.html`, relevance: 0.9, isHub: false };
        const link = (url: string, anchor: string) => focus.scoreLink({ url, anchor, context: '', depth: 2 }, from);
        const before = link(`${site}paper_main.99.html`, 'Paper 99').score;
        expect(link(`${site}papers.html?filter=authors&search=Z`, 'Author Z').score).toBe(before); // no evidence yet
        for (let i = 1; i <= 5; i++) {
            const listing = `${site}papers.html?filter=authors&search=A${i}`;
            const repeat = focus.observePage(pageAt(listing, cards, 'Papers'), link(listing, `Author ${i}`).signal);
            expect(repeat.relevance).toBeGreaterThan(EVIDENCE_RELEVANCE); // relevant by its text, but nothing new
            const paper = `${site}paper_main.${i}.html`;
            focus.observePage(pageAt(paper, `# Paper ${i}\n\nAbstract ${i}: a new method for summarization of long documents.`, `Paper ${i}`), link(paper, `Paper ${i}`).signal);
        }
        const paper = link(`${site}paper_main.99.html`, 'Paper 99').score;
        const listing = link(`${site}papers.html?filter=authors&search=Z`, 'Author Z').score;
        expect(paper).toBeGreaterThan(before);
        expect(listing).toBeLessThan(before);
        expect(paper).toBeGreaterThan(listing + 0.3);
    });

    it('lets the section floor yield once relevant pages cover the query', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED] });
        const jobs = focus.scoreLink({ url: `${SEED}jobs/`, anchor: 'Jobs', context: '', depth: 1 }, parent).signal;
        expect(jobs.section).toBe('section');
        expect(focus.score(jobs)).toBeCloseTo(SECTION_SCORE * DEPTH_DECAY, 12);
        const verdicts = [0, 1, 2].map((i) => focus.observePage(pageAt(`${SEED}housing/${i}`, `# Student housing ${i}\n\nStudent housing option ${i}.\n\nHousing for every student, hall ${i}.`, `Student housing ${i}`), null));
        expect(focus.summary().coverage).toBe(1);
        expect(verdicts.some((v) => v.rescore)).toBe(true);
        expect(focus.score(jobs)).toBe(0);
    });

    it("passes a hub's relevance undamped to the items of its main content, and halved to its navigation", () => {
        const focus = new Focus('robotics club', { seedUrls: [SEED] });
        const hub = { url: `${SEED}clubs/`, relevance: 0.7, isHub: true };
        const item = focus.scoreLink({ url: `${SEED}clubs/lego-league`, anchor: 'Lego League', context: 'Lego League', depth: 2, inMainContent: true }, hub);
        const menu = focus.scoreLink({ url: `${SEED}about/history`, anchor: 'History', context: '', depth: 2 }, hub);
        expect(item.signal.parentRelevance).toBeCloseTo(0.7, 12);
        expect(menu.signal.parentRelevance).toBeCloseTo(0.7 * HUB_FACTOR, 12);
        expect(item.score).toBeGreaterThan(menu.score);
    });

    it('marks hubs and halves their relevance in the signals of their links', () => {
        expect(isHub(120, 80)).toBe(true);
        expect(isHub(10, 400)).toBe(false);
        const focus = new Focus('visa', { seedUrls: [SEED] });
        const verdict = focus.observePage({ url: SEED, title: 'Visa', markdown: 'Visa.', linkCount: 50, proseWords: 1 }, null);
        expect(verdict.isHub).toBe(true);
        const { signal } = focus.scoreLink({ url: `${SEED}a/b`, anchor: 'More', context: '', depth: 1 }, { url: SEED, relevance: 0.8, isHub: true });
        expect(signal.parentRelevance).toBeCloseTo(0.8 * HUB_FACTOR, 12);
    });

    it('treats the root of another host as a sub-site and the own root as no section', () => {
        const focus = new Focus('visa', { seedUrls: [SEED] });
        const link = (url: string) => focus.scoreLink({ url, anchor: 'Graduate School', context: '', depth: 1 }, { ...parent, url: `${SEED}a/` }).signal.section;
        expect(link('https://graduate.e.edu/')).toBe('subsite');
        expect(link('https://e.edu/')).toBeNull();
        // Sitemap URLs have no parent page.
        const orphan = focus.scoreLink({ url: 'https://graduate.e.edu/', anchor: 'Graduate School', context: '', depth: 1 }, { url: '', relevance: 0, isHub: false });
        expect(orphan.signal.section).toBe('subsite');
    });

    it('lifts the English home of a non-English site until it has been fetched', () => {
        const focus = new Focus('international admissions', { seedUrls: ['https://www.u.cn/'] });
        focus.noteSeedLanguage('zh-CN');
        const portal = focus.scoreLink({ url: 'https://www.u.cn/en/', anchor: 'English', context: '', depth: 1 }, { ...parent, url: 'https://www.u.cn/' });
        expect(portal.signal.languagePortal).toBe(true);
        expect(portal.score).toBeCloseTo(LANGUAGE_PORTAL_SCORE * DEPTH_DECAY, 12);
        focus.observePage({ ...pageAt('https://www.u.cn/en/', '欢迎'), lang: 'zh-CN' }, portal.signal);
        // The link landed on the Chinese home: keep looking.
        expect(focus.score(portal.signal)).toBeCloseTo(LANGUAGE_PORTAL_SCORE * DEPTH_DECAY, 12);
        const verdict = focus.observePage({ ...pageAt('https://www.u.cn/en/', 'Welcome to the university.'), lang: 'en' }, portal.signal);
        expect(verdict.rescore).toBe(true);
        expect(focus.score(portal.signal)).toBeLessThan(LANGUAGE_PORTAL_SCORE * DEPTH_DECAY);
    });

    it('needs no portal on an English site', () => {
        const focus = new Focus('international admissions', { seedUrls: [SEED] });
        focus.noteSeedLanguage('en-GB');
        const portal = focus.scoreLink({ url: `${SEED}en/`, anchor: 'English', context: '', depth: 1 }, parent);
        expect(portal.score).toBeLessThan(LANGUAGE_PORTAL_SCORE * DEPTH_DECAY);
    });

    it('demotes other languages for an English query only', () => {
        const english = new Focus('international admissions', { seedUrls: [SEED] });
        const german = english.scoreLink({ url: `${SEED}de/studium/zulassung`, anchor: 'Deutsch', context: '', depth: 1 }, parent).signal;
        expect(german.foreign).toBe(true);
        const chinese = new Focus('留学生 招生', { seedUrls: [SEED] });
        expect(chinese.scoreLink({ url: `${SEED}de/x/y`, anchor: 'Deutsch', context: '', depth: 1 }, parent).signal.foreign).toBe(false);
        const declared = new Focus('admissions', { seedUrls: [SEED], queryLanguage: null });
        expect(declared.scoreLink({ url: `${SEED}de/x/y`, anchor: 'Deutsch', context: '', depth: 1 }, parent).signal.foreign).toBe(false);
    });

    it('exempts query terms from furniture', () => {
        const focus = new Focus('university history', { seedUrls: [SEED] });
        expect(focus.scoreLink({ url: `${SEED}academics/history/`, anchor: 'History', context: '', depth: 1 }, parent).signal.furniture).toBe(false);
        expect(focus.scoreLink({ url: `${SEED}news/`, anchor: 'News', context: '', depth: 1 }, parent).signal.furniture).toBe(true);
    });

    it('judges relevance without recording the page', () => {
        const focus = new Focus('visa', { seedUrls: [SEED] });
        const page = pageAt(`${SEED}visa`, '# Visa\n\nVisa rules.', 'Visa');
        const before = focus.toJSON();
        expect(focus.relevance(page)).toBeGreaterThan(0.5);
        expect(focus.toJSON()).toEqual(before);
    });

    it('takes the relevance a page was already judged with (another worker read it), and still learns its statistics', () => {
        const page = pageAt(`${SEED}visa`, '# Visa\n\nVisa rules for every student visa.', 'Visa');
        const judgedElsewhere = new Focus('visa', { seedUrls: [SEED] });
        const verdict = judgedElsewhere.observePage(page, null, undefined, 0);
        expect(verdict.relevance).toBe(0);
        expect(verdict.hit).toBe(false);
        expect(judgedElsewhere.summary().relevantPages).toBe(0);
        // The facet statistics saw the page all the same: the next page is judged as after one read here.
        const readHere = new Focus('visa', { seedUrls: [SEED] });
        readHere.observePage(page, null);
        const next = pageAt(`${SEED}fees`, 'Visa fees and forms.', 'Fees');
        expect(judgedElsewhere.relevance(next)).toBe(readHere.relevance(next));
    });

    it('summarises per term, with the harvest rate', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED] });
        focus.observePage(pageAt(`${SEED}housing`, '# Student housing\n\nStudent housing halls and rents for every student.', 'Student housing'), null);
        focus.observePage(pageAt(`${SEED}parking`, 'Parking permits.'), null);
        const summary = focus.summary();
        expect(Object.keys(summary.termEvidence)).toEqual(['student', 'housing']);
        expect(summary.pagesObserved).toBe(2);
        expect(summary.relevantPages).toBe(1);
        expect(summary.hits).toBe(1);
        expect(summary.harvestRate).toBe(0.5);
    });

    it('marks a subtree dry once it keeps yielding nothing while the rest pays off', () => {
        const focus = new Focus('student housing', { seedUrls: [SEED], adaptive: { patience: 100 } });
        for (let i = 0; i < 10; i++) {
            const body = `# Student housing option ${i}\n\nHall ${i} offers student housing with rent band ${i} and its own kitchen number ${i * 7}.`;
            focus.observePage(pageAt(`${SEED}housing/hall-${i}`, body, `Student housing hall ${i}`), null);
        }
        const journal = `${SEED}journals/issue/`;
        expect(focus.isDry(`${journal}0`)).toBe(false);
        for (let i = 0; i < 20; i++) focus.observePage(pageAt(`${journal}${i}`, `Issue ${i} of the law journal, volume ${i}.`), null);
        expect(focus.isDry(`${journal}99`)).toBe(true);
        expect(focus.isDry(`${SEED}housing/hall-99`)).toBe(false);
        expect(focus.isClusterProven('www.e.edu/housing')).toBe(true);
    });
});
