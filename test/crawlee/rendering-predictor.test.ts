import { describe, expect, it } from 'vitest';

import { CHECK_PENDING_MILLIS, MIN_DETECTION, TemplateRenderingPredictor, successionDetection } from '../../src/crawlee/rendering-predictor.js';

const SITE = 'https://conf.example';
const at = (path: string) => ({ url: `${SITE}${path}` });

describe('TemplateRenderingPredictor', () => {
    it('renders and checks the first page of a site, and checks less as a neighbourhood keeps rendering alike', () => {
        const predictor = new TemplateRenderingPredictor();
        expect(predictor.recommend(at('/'))).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 });
        predictor.storeResult(at('/'), 'static');
        // a new directory of a host seen static once: fetched over HTTP, checked by Laplace's rule (1/3)
        expect(predictor.recommend(at('/people/ann'))).toEqual({ renderingType: 'static', detectionProbabilityRecommendation: 1 / 3 });
        for (let i = 0; i < 40; i++) predictor.storeResult(at(`/people/p${i}`), 'static');
        expect(predictor.recommend(at('/people/zed')).detectionProbabilityRecommendation).toBe(MIN_DETECTION);
        expect(successionDetection(0)).toBe(0.5);
    });

    it('on a host that has only ever been static, checks a template it saw once as rarely as the host\'s count says', () => {
        const predictor = new TemplateRenderingPredictor();
        for (let i = 0; i < 30; i++) predictor.storeResult(at(`/guide/topic-${i}.html`), 'static');
        predictor.storeResult(at('/news/2016/01/item.html'), 'static');
        // 31 static pages on the host: 1/33, not the 1/3 of the news template's single page
        expect(predictor.recommend(at('/news/2016/02/item.html'))).toEqual({ renderingType: 'static', detectionProbabilityRecommendation: successionDetection(31) });
        // one client-only page anywhere on the host, and neighbourhoods speak for themselves again
        predictor.storeResult(at('/app/index.html'), 'clientOnly');
        expect(predictor.recommend(at('/news/2016/02/item.html')).detectionProbabilityRecommendation).toBe(1 / 3);
    });

    it('counts pages plain HTTP served in full with the checked ones, so checks fall off with the pages read, not with the checks made', () => {
        const predictor = new TemplateRenderingPredictor();
        predictor.storeResult(at('/'), 'static');
        expect(predictor.recommend(at('/guide/a.html')).detectionProbabilityRecommendation).toBe(1 / 3);
        for (let i = 0; i < 8; i++) predictor.noteServedInFull(at(`/guide/p${i}.html`));
        // one check and eight pages served in full: nine pages alike on the host, 1/11
        expect(predictor.recommend(at('/guide/b.html'))).toEqual({ renderingType: 'static', detectionProbabilityRecommendation: successionDetection(9) });
        for (let i = 0; i < 40; i++) predictor.noteServedInFull(at(`/guide/q${i}.html`));
        expect(predictor.recommend(at('/guide/c.html')).detectionProbabilityRecommendation).toBe(MIN_DETECTION);
        // served pages never outweigh a page that needed the browser: its neighbourhood is rendered
        predictor.storeResult(at('/app/list.html'), 'clientOnly');
        expect(predictor.recommend(at('/app/other.html')).renderingType).toBe('clientOnly');
        // and on a mixed host, a directory whose pages were only served, never checked, is rendered and checked
        expect(predictor.recommend(at('/guide/d.html'))).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 });
    });

    it('never fetches over HTTP where a page of the neighbourhood needed the browser, and checks new parts of such a site', () => {
        const predictor = new TemplateRenderingPredictor();
        predictor.storeResult(at('/papers.html'), 'clientOnly');
        predictor.storeResult(at('/paper_1.html'), 'static');
        predictor.storeResult(at('/paper_2.html'), 'static');
        // the list page's own template: known client-only
        expect(predictor.recommend(at('/papers.html')).renderingType).toBe('clientOnly');
        // paper pages share a template that only ever was static
        expect(predictor.recommend(at('/paper_3.html')).renderingType).toBe('static');
        // a new template in the mixed root directory: rendered, and checked (a plain-HTTP fetch more)
        expect(predictor.recommend(at('/about.html'))).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 });
        // a new directory of a host that has client-only pages: rendered and checked
        expect(predictor.recommend(at('/speakers/x.html'))).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 });
    });

    it('renders the first thin page of a neighbourhood, then checks thin pages by the succession rule while they stay static', () => {
        let draw = 0.4;
        const predictor = new TemplateRenderingPredictor(() => draw);
        expect(predictor.shouldRenderThin(at('/events/a.html'))).toBe(true); // no thin page compared yet
        predictor.storeThinResult(at('/events/a.html'), 'static');
        expect(predictor.shouldRenderThin(at('/events/b.html'))).toBe(false); // checked with 1/3: 0.4 is no check
        draw = 0.3;
        expect(predictor.shouldRenderThin(at('/events/b.html'))).toBe(true);
        // the comparison counts for all pages too
        expect(predictor.recommend(at('/events/a.html')).renderingType).toBe('static');
        // a thin page that was built by a script: every thin page of its neighbourhood is rendered, whatever the draw
        draw = 0.99;
        predictor.storeThinResult(at('/papers.html'), 'clientOnly');
        expect(predictor.shouldRenderThin(at('/schedule.html'))).toBe(true);
        expect(predictor.recommend(at('/about.html')).renderingType).toBe('clientOnly');
        // a directory of its own still speaks for itself
        expect(predictor.shouldRenderThin(at('/events/c.html'))).toBe(false);
    });

    it('lets a thin page of the site\'s root speak only for its own URL template (on a flat site the root holds every kind of page)', () => {
        const predictor = new TemplateRenderingPredictor(() => 0.99);
        predictor.storeThinResult(at('/papers.html?filter=titles&track=Demo'), 'static'); // its data file was missing: empty both ways
        expect(predictor.shouldRenderThin(at('/papers.html'))).toBe(true); // the list beside it is still rendered first
        expect(predictor.shouldRenderThin(at('/papers.html?filter=titles&track=Theme'))).toBe(false); // its own template: 0.99 is no check
        // below the root, a directory speaks for its pages
        predictor.storeThinResult(at('/events/seminar-a.html'), 'static');
        expect(predictor.shouldRenderThin(at('/events/seminar-b.html'))).toBe(false);
        expect(predictor.shouldRenderThin(at('/people/ann.html'))).toBe(true); // not for another directory
    });

    it('draws the check of a page predicted static itself, and draws none while a check of its host is in flight', () => {
        let draw = 0.1;
        let clock = 0;
        const predictor = new TemplateRenderingPredictor(() => draw, () => clock);
        predictor.storeResult(at('/'), 'static'); // the host: one static page, so a check has p = 1/3
        expect(predictor.predict(at('/a'))).toEqual({ renderingType: 'static', detectionProbabilityRecommendation: 1 });
        // the check of /a is in flight: /b goes over HTTP unchecked whatever the draw
        expect(predictor.predict(at('/b'))).toEqual({ renderingType: 'static', detectionProbabilityRecommendation: 0 });
        expect(predictor.predict({ url: 'https://other.example/x' }).renderingType).toBe('clientOnly'); // another host: its own
        predictor.storeResult(at('/a'), 'static');
        draw = 0.2; // the check's result is in: 2 static pages, p = 1/4
        expect(predictor.predict(at('/c')).detectionProbabilityRecommendation).toBe(1);
        draw = 0.9;
        clock = CHECK_PENDING_MILLIS; // a check whose result never came no longer holds the host back
        expect(predictor.predict(at('/d')).detectionProbabilityRecommendation).toBe(0); // 0.9 is no check
        draw = 0.1;
        expect(predictor.predict(at('/d')).detectionProbabilityRecommendation).toBe(1);
        // a page its neighbourhood recommends rendering keeps Crawlee's own draw
        predictor.storeResult(at('/app/index.html'), 'clientOnly');
        expect(predictor.predict(at('/app/x.html'))).toEqual(predictor.recommend(at('/app/x.html')));
    });

    it('renders what it cannot parse, without a check', () => {
        expect(new TemplateRenderingPredictor().recommend({ url: 'not a url' })).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 0 });
    });
});
