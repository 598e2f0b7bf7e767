import { describe, expect, it } from 'vitest';
import { isDatedLeaf, isFurniture } from '../../src/focus/furniture.js';

const e = (path: string) => `https://www.e.edu${path}`;

describe('isFurniture', () => {
    it('flags furniture directories by any of their words', () => {
        for (const path of ['/news/2024/05/rowing-cup', '/about/leadership/', '/events/calendar', '/tag/visa', '/news-and-events/spring-fair', '/category/admissions/page/2']) {
            expect(isFurniture(e(path), ''), path).toBe(true);
        }
    });

    it('flags short furniture slugs but not long slugs, which are titles', () => {
        expect(isFurniture(e('/privacy-policy'), '')).toBe(true);
        expect(isFurniture(e('/about-us'), '')).toBe(true);
        expect(isFurniture(e('/sitemap.xml'), '')).toBe(true);
        expect(isFurniture(e('/study/about-the-computer-science-programme'), '')).toBe(false);
        expect(isFurniture(e('/international/visa/'), '')).toBe(false);
    });

    it('flags short furniture anchors, also multi-word entries, but not headlines', () => {
        expect(isFurniture(e('/x/'), 'Latest news')).toBe(true);
        expect(isFurniture(e('/x/'), "What's new")).toBe(true);
        expect(isFurniture(e('/x/'), 'Site map')).toBe(true);
        expect(isFurniture(e('/x/'), 'Learn about scholarships and funding for students')).toBe(false);
        expect(isFurniture(e('/x/'), 'Student visa guidance')).toBe(false);
    });

    it('matches whole words only', () => {
        expect(isFurniture(e('/newsletters-for-alumni/'), 'Abouts')).toBe(false);
        expect(isFurniture(e('/x/'), 'Presses')).toBe(false);
    });

    it('exempts words of the query: a history query may enter the history department', () => {
        const historyQuery = (word: string) => word === 'history';
        expect(isFurniture(e('/academics/history/'), 'History')).toBe(true);
        expect(isFurniture(e('/academics/history/'), 'History', historyQuery)).toBe(false);
        expect(isFurniture(e('/about/history/'), 'History', historyQuery)).toBe(true); // "about" still counts
    });

    it('does not count a name that also says a query term: it names the part of the site the query is about', () => {
        const eventsQuery = (word: string) => word === 'events' || word === 'industry';
        expect(isFurniture(e('/news_events/events/369.html'), 'Nordic meeting in Oslo')).toBe(true);
        expect(isFurniture(e('/news_events/events/369.html'), 'Nordic meeting in Oslo', eventsQuery)).toBe(false);
        expect(isFurniture(e('/x/'), 'Industry News', eventsQuery)).toBe(false);
        expect(isFurniture(e('/news/'), 'Latest news', eventsQuery)).toBe(true);
    });
});

describe('isDatedLeaf', () => {
    it('flags a year segment followed by more path', () => {
        expect(isDatedLeaf(e('/2024/05/title'))).toBe(true);
        expect(isDatedLeaf(e('/news/2023/visa-rules'))).toBe(true);
    });

    it('does not flag year listings, years inside words, or other numbers', () => {
        expect(isDatedLeaf(e('/archive/2024/'))).toBe(false);
        expect(isDatedLeaf(e('/courses/cs2024/syllabus'))).toBe(false);
        expect(isDatedLeaf(e('/reports/1850/x'))).toBe(false);
        expect(isDatedLeaf(e('/papers/12345/pdf'))).toBe(false);
    });
});
