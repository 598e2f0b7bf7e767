import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOCALITY_PRIOR_PAGES, Locality, localityKeys } from '../../src/focus/locality.js';

const at = (path: string) => localityKeys(`https://virtual.conf.org${path}`);

describe('localityKeys', () => {
    it('puts pages of one directory together and keeps their templates apart', () => {
        const faq = localityKeys('http://www.cs.edu/academics/prospective-masters/faq.html');
        const coop = localityKeys('http://www.cs.edu/academics/prospective-masters/honors-co-op.html');
        expect(faq.directory).toBe(coop.directory);
        expect(faq.shape).not.toBe(coop.shape);
        expect(localityKeys('http://www.cs.edu/academics/prospective-masters.html').directory).not.toBe(faq.directory);
        expect(localityKeys('http://WWW.CS.EDU/academics/prospective-masters/').directory).toBe(faq.directory);
    });

    it('gives numbered pages one template, and a filter listing another in the same directory', () => {
        expect(at('/paper_main.12.html').shape).toBe(at('/paper_main.907.html').shape);
        expect(at('/papers.html?filter=authors&search=A').shape).toBe(at('/papers.html?search=B&filter=authors').shape);
        expect(at('/papers.html?filter=authors&search=A').shape).not.toBe(at('/paper_main.12.html').shape);
        expect(at('/papers.html?filter=authors&search=A').directory).toBe(at('/paper_main.12.html').directory);
    });
});

describe('Locality', () => {
    it('is 0 where nothing was fetched, rises where pages paid off and falls where they did not', () => {
        const locality = new Locality();
        const sibling = localityKeys('http://www.cs.edu/admissions/faq.html');
        expect(locality.estimate(sibling)).toBe(0);
        locality.observe(localityKeys('http://www.cs.edu/admissions/deadlines.html'), true, 0.1);
        locality.observe(localityKeys('http://www.cs.edu/admissions/checklist.html'), true, 0.1);
        locality.observe(localityKeys('http://www.cs.edu/jobs/faculty.html'), false, 0.1);
        locality.observe(localityKeys('http://www.cs.edu/jobs/lecturer.html'), false, 0.1);
        expect(locality.estimate(sibling)).toBeGreaterThan(0.15);
        expect(locality.estimate(localityKeys('http://www.cs.edu/jobs/postdoc.html'))).toBeLessThan(-0.15);
        expect(locality.estimate(localityKeys('http://www.cs.edu/research/ai.html'))).toBe(0);
    });

    it('follows the template before the directory: listings that repeat what was read sink, papers next to them rise', () => {
        const locality = new Locality();
        for (let i = 0; i < 6; i++) {
            locality.observe(at(`/paper_main.${i}.html`), true, 0.1);
            locality.observe(at(`/papers.html?filter=authors&search=${i}`), false, 0.1);
        }
        const paper = locality.estimate(at('/paper_main.99.html'));
        const listing = locality.estimate(at('/papers.html?filter=authors&search=Z'));
        expect(paper).toBeGreaterThan(0.3);
        expect(listing).toBeLessThan(-0.3);
        // A template never fetched takes the directory's mixed record.
        expect(Math.abs(locality.estimate(at('/schedule.html')))).toBeLessThan(0.05);
    });

    it('uses a Beta prior of LOCALITY_PRIOR_PAGES pages at ½ for a directory, and the directory as the prior of a template', () => {
        const locality = new Locality();
        const keys = localityKeys('http://e.edu/a/x.html');
        locality.observe(keys, true, 0.1);
        const directory = (1 + LOCALITY_PRIOR_PAGES * 0.5) / (1 + LOCALITY_PRIOR_PAGES);
        expect(locality.estimate(localityKeys('http://e.edu/a/y.html'))).toBeCloseTo(directory - 0.5, 12);
        expect(locality.estimate(keys)).toBeCloseTo((1 + LOCALITY_PRIOR_PAGES * directory) / (1 + LOCALITY_PRIOR_PAGES) - 0.5, 12);
    });

    it('asks for a re-score when a neighbourhood moved by more than the delta since the last one', () => {
        const locality = new Locality();
        const keys = localityKeys('http://e.edu/a/x.html');
        expect(locality.observe(keys, true, 0.1)).toBe(true); // 0 → 1/6 for the directory
        locality.markRescored();
        expect(locality.observe(localityKeys('http://e.edu/a/y.html'), true, 0.1)).toBe(false); // 1/6 → 1/4
        expect(locality.observe(localityKeys('http://e.edu/a/z.html'), true, 0.1)).toBe(true); // 1/6 → 3/10, since the re-score
        expect(new Locality().observe(keys, true, 0.5)).toBe(false);
    });

    it('stays inside (−½, ½)', () => {
        const page = fc.tuple(fc.constantFrom('/a/', '/a/b/', '/c/'), fc.integer({ min: 0, max: 3 }), fc.boolean());
        fc.assert(
            fc.property(fc.array(page, { maxLength: 60 }), fc.constantFrom('/a/1.html', '/a/b/x.html', '/d/q.html'), (pages, probe) => {
                const locality = new Locality();
                for (const [dir, n, productive] of pages) locality.observe(localityKeys(`http://e.edu${dir}${n}.html`), productive, 0.1);
                const estimate = locality.estimate(localityKeys(`http://e.edu${probe}`));
                expect(estimate).toBeGreaterThan(-0.5);
                expect(estimate).toBeLessThan(0.5);
            }),
        );
    });

    it('round-trips through JSON and goes on identically', () => {
        const locality = new Locality();
        locality.observe(at('/paper_main.1.html'), true, 0.1);
        locality.markRescored();
        locality.observe(at('/papers.html?filter=authors&search=A'), false, 0.1);
        const copy = Locality.fromJSON(JSON.parse(JSON.stringify(locality)));
        expect(copy.toJSON()).toEqual(locality.toJSON());
        expect(copy.observe(at('/paper_main.2.html'), true, 0.1)).toBe(locality.observe(at('/paper_main.2.html'), true, 0.1));
        expect(copy.estimate(at('/paper_main.3.html'))).toBe(locality.estimate(at('/paper_main.3.html')));
        expect(() => Locality.fromJSON({} as never)).toThrow(/Locality#toJSON/);
    });
});
