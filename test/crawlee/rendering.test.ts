import { describe, expect, it } from 'vitest';

import { compareRenderings, looksClientRendered, looksThin, STATIC_RENDERING_SHARE } from '../../src/crawlee/rendering.js';
import { extractPage } from '../../src/extract/index.js';

const summary = (links: string[], textLength: number, shell = false) => ({ links: new Set(links), textLength, shell });
const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://e.edu/p${i}`);

describe('compareRenderings', () => {
    it('calls a page static when plain HTTP has the browser links and text', () => {
        expect(compareRenderings(summary(urls(20), 1000), summary(urls(20), 1000))).toBe('equal');
        expect(compareRenderings(summary([...urls(20), 'https://e.edu/extra'], 1100), summary(urls(20), 1000))).toBe('equal');
        expect(compareRenderings(summary([], 500), summary([], 500))).toBe('equal');
    });

    it(`tolerates losing up to ${(1 - STATIC_RENDERING_SHARE) * 100} % of links or text, not more`, () => {
        expect(compareRenderings(summary(urls(18), 1000), summary(urls(20), 1000))).toBe('equal');
        expect(compareRenderings(summary(urls(17), 1000), summary(urls(20), 1000))).toBe('different');
        expect(compareRenderings(summary(urls(20), 900), summary(urls(20), 1000))).toBe('equal');
        expect(compareRenderings(summary(urls(20), 899), summary(urls(20), 1000))).toBe('different');
    });

    it('never calls an app shell static', () => {
        expect(compareRenderings(summary([], 10, true), summary([], 10))).toBe('different');
    });
});

describe('looksClientRendered', () => {
    const check = (html: string) => looksClientRendered(html, extractPage(html, 'https://e.edu/'));

    it('spots an empty mount point with scripts', () => {
        expect(check('<html><body><div id="root"></div><script src="/app.js"></script></body></html>')).toBe(true);
        expect(check('<html><body><main><h1>Catalogue</h1><ul id="list"></ul></main><script>render()</script></body></html>')).toBe(true);
    });

    it('leaves pages alone that say something without JavaScript, or have no scripts', () => {
        const prose = `<p>${'Telescopes gather light with lenses or mirrors. '.repeat(10)}</p>`;
        expect(check(`<html><body><main>${prose}</main><script src="/analytics.js"></script></body></html>`)).toBe(false);
        const menu = Array.from({ length: 6 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join(' ');
        expect(check(`<html><body><nav>${menu}</nav><div id="root"></div><script src="/app.js"></script></body></html>`)).toBe(false);
        expect(check('<html><body><p>Short page.</p></body></html>')).toBe(false);
    });
});

describe('looksThin', () => {
    const check = (html: string) => looksThin(html, extractPage(html, 'https://e.edu/'));
    const menu = Array.from({ length: 8 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join(' ');

    it('spots a page that is the site\'s navigation, a heading and a script: a list built in the browser', () => {
        expect(check(`<html><body><nav>${menu}</nav><main><h1>Papers</h1><p>Browse the papers.</p><div id="papers"></div></main><script src="/papers.js"></script></body></html>`)).toBe(true);
    });

    it('leaves pages alone with words or links of their own, or without scripts', () => {
        const prose = `<p>${'Telescopes gather light with lenses or mirrors. '.repeat(10)}</p>`;
        expect(check(`<html><body><nav>${menu}</nav><main>${prose}</main><script src="/a.js"></script></body></html>`)).toBe(false);
        const list = Array.from({ length: 6 }, (_, i) => `<li><a href="/p${i}">Paper ${i}</a></li>`).join('');
        expect(check(`<html><body><nav>${menu}</nav><main><h1>Papers</h1><ul>${list}</ul></main><script src="/a.js"></script></body></html>`)).toBe(false);
        expect(check(`<html><body><nav>${menu}</nav><main><h1>Papers</h1></main></body></html>`)).toBe(false);
    });
});
