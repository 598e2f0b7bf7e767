import { describe, expect, it } from 'vitest';

import { MIN_DETECTION, TemplateRenderingPredictor, successionDetection } from '../../src/crawlee/rendering-predictor.js';

const SITE = 'https://conf.example';
const at = (path: string) => ({ url: `${SITE}${path}` });

describe('TemplateRenderingPredictor', () => {
    it('renders and checks the first page of a site, and checks less as a neighbourhood keeps rendering alike', () => {
        const predictor = new TemplateRenderingPredictor();
        expect(predictor.predict(at('/'))).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 });
        predictor.storeResult(at('/'), 'static');
        // a new directory of a host seen static once: fetched over HTTP, checked by Laplace's rule (1/3)
        expect(predictor.predict(at('/people/ann'))).toEqual({ renderingType: 'static', detectionProbabilityRecommendation: 1 / 3 });
        for (let i = 0; i < 40; i++) predictor.storeResult(at(`/people/p${i}`), 'static');
        expect(predictor.predict(at('/people/zed')).detectionProbabilityRecommendation).toBe(MIN_DETECTION);
        expect(successionDetection(0)).toBe(0.5);
    });

    it('on a host that has only ever been static, checks a template it saw once as rarely as the host\'s count says', () => {
        const predictor = new TemplateRenderingPredictor();
        for (let i = 0; i < 30; i++) predictor.storeResult(at(`/guide/topic-${i}.html`), 'static');
        predictor.storeResult(at('/news/2016/01/item.html'), 'static');
        // 31 static pages on the host: 1/33, not the 1/3 of the news template's single page
        expect(predictor.predict(at('/news/2016/02/item.html'))).toEqual({ renderingType: 'static', detectionProbabilityRecommendation: successionDetection(31) });
        // one client-only page anywhere on the host, and neighbourhoods speak for themselves again
        predictor.storeResult(at('/app/index.html'), 'clientOnly');
        expect(predictor.predict(at('/news/2016/02/item.html')).detectionProbabilityRecommendation).toBe(1 / 3);
    });

    it('never fetches over HTTP where a page of the neighbourhood needed the browser, and checks new parts of such a site', () => {
        const predictor = new TemplateRenderingPredictor();
        predictor.storeResult(at('/papers.html'), 'clientOnly');
        predictor.storeResult(at('/paper_1.html'), 'static');
        predictor.storeResult(at('/paper_2.html'), 'static');
        // the list page's own template: known client-only
        expect(predictor.predict(at('/papers.html')).renderingType).toBe('clientOnly');
        // paper pages share a template that only ever was static
        expect(predictor.predict(at('/paper_3.html')).renderingType).toBe('static');
        // a new template in the mixed root directory: rendered, and checked (a plain-HTTP fetch more)
        expect(predictor.predict(at('/about.html'))).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 });
        // a new directory of a host that has client-only pages: rendered and checked
        expect(predictor.predict(at('/speakers/x.html'))).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 1 });
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
        expect(predictor.predict(at('/events/a.html')).renderingType).toBe('static');
        // a thin page that was built by a script: every thin page of its neighbourhood is rendered, whatever the draw
        draw = 0.99;
        predictor.storeThinResult(at('/papers.html'), 'clientOnly');
        expect(predictor.shouldRenderThin(at('/schedule.html'))).toBe(true);
        expect(predictor.predict(at('/about.html')).renderingType).toBe('clientOnly');
        // a directory of its own still speaks for itself
        expect(predictor.shouldRenderThin(at('/events/c.html'))).toBe(false);
    });

    it('renders what it cannot parse, without a check', () => {
        expect(new TemplateRenderingPredictor().predict({ url: 'not a url' })).toEqual({ renderingType: 'clientOnly', detectionProbabilityRecommendation: 0 });
    });
});
