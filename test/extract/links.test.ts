import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/extract/index.js';

const PAGE = 'https://www.uni.example/faculty/dept/page.html';
const linksOf = (body: string, url = PAGE) => extractPage(`<html><head></head><body>${body}</body></html>`, url).links;

describe('link resolution', () => {
  it('resolves relative hrefs against the page URL, or against <base href> resolved itself', () => {
    expect(linksOf('<a href="../x/">x</a><a href="//cdn.example/y">y</a><a href="?q=1">q</a>').map((link) => link.url)).toEqual([
      'https://www.uni.example/faculty/x/',
      'https://cdn.example/y',
      'https://www.uni.example/faculty/dept/page.html?q=1',
    ]);
    const html = '<html><head><base href="/en/"><base href="/ignored/"></head><body><a href="study/">Study</a></body></html>';
    expect(extractPage(html, PAGE).links[0]?.url).toBe('https://www.uni.example/en/study/');
  });

  it('drops fragments, so an in-page anchor is the page itself', () => {
    expect(linksOf('<a href="#top">Top</a><a href="other.html#part-2">Part 2</a>').map((link) => link.url)).toEqual([
      PAGE,
      'https://www.uni.example/faculty/dept/other.html',
    ]);
  });

  it('returns javascript:, mailto:, tel: and data: hrefs as written', () => {
    const hrefs = ['javascript:void(0)', 'mailto:admissions@uni.example?subject=Visa #2', 'tel:+44 113 496 0000', 'data:text/html,<b>x</b>#y'];
    const links = linksOf(hrefs.map((href, i) => `<a href="${href.replace(/</g, '&lt;').replace(/>/g, '&gt;')}">l${i}</a>`).join(''));
    expect(links.map((link) => link.url)).toEqual(hrefs);
  });

  it('converts IDN hosts to punycode and leaves unbalanced percent signs alone', () => {
    const links = linksOf('<a href="https://bücher.example/straße">b</a><a href="/100%/a%zz%">p</a>');
    expect(links.map((link) => link.url)).toEqual(['https://xn--bcher-kva.example/stra%C3%9Fe', 'https://www.uni.example/100%/a%zz%']);
  });

  it('keeps a 10 kB href and returns hrefs that cannot be resolved as written', () => {
    const long = `/search?q=${'a'.repeat(10_000)}`;
    expect(linksOf(`<a href="${long}">long</a>`)[0]?.url).toBe(`https://www.uni.example${long}`);
    expect(linksOf('<a href=" http://[bad ">bad</a>')[0]?.url).toBe('http://[bad');
    expect(linksOf('<a href="relative/x">x</a>', 'not a url')[0]?.url).toBe('relative/x');
  });

  it('collects area[href] and ignores anchors without href', () => {
    const links = linksOf('<a name="x">no href</a><map><area href="/campus-map/north" alt="North campus"></map>');
    expect(links).toEqual([{ url: 'https://www.uni.example/campus-map/north', anchor: 'North campus', context: expect.any(String), inMainContent: true }]);
  });
});

describe('anchor text', () => {
  it('is trimmed and whitespace-collapsed', () => {
    expect(linksOf('<a href="/a">\n  International\n\t<b>students</b>  </a>')[0]?.anchor).toBe('International students');
  });

  it('falls back to title, then aria-label, then image alt', () => {
    const links = linksOf(
      '<a href="/t" title="Title text" aria-label="Aria text"> </a>' +
        '<a href="/l" aria-label="Aria text"><i class="icon"></i></a>' +
        '<a href="/i"><img src="a.png" alt=""><img src="b.png" alt=" Image  alt "></a>' +
        '<a href="/n"><img src="c.png"></a>',
    );
    expect(links.map((link) => link.anchor)).toEqual(['Title text', 'Aria text', 'Image alt', '']);
  });
});

describe('first occurrence per URL', () => {
  it('keeps one link per URL at the position of its first occurrence', () => {
    const links = linksOf('<main><p><a href="/a">First</a> <a href="/b">B</a> <a href="/a#again">Second</a></p></main>');
    expect(links.map((link) => [link.url, link.anchor])).toEqual([
      ['https://www.uni.example/a', 'First'],
      ['https://www.uni.example/b', 'B'],
    ]);
  });

  it('takes anchor and context from the first occurrence in the main content', () => {
    const links = linksOf(
      '<nav><a href="/visa">Visa</a></nav><main><p>Students from abroad should read <a href="/visa">the visa guide</a> early.</p>' +
        '<p>Again: <a href="/visa">visa page</a>.</p></main><footer><a href="/visa">Visa info</a></footer>',
    );
    expect(links).toEqual([
      {
        url: 'https://www.uni.example/visa',
        anchor: 'the visa guide',
        context: 'Students from abroad should read the visa guide early.',
        inMainContent: true,
      },
    ]);
  });

  it('gives links in navigation, header, footer and aside an empty context', () => {
    const links = linksOf(
      '<header><a href="/h">Header link in a sentence</a></header><nav><p>Go to <a href="/n">nav</a> now</p></nav>' +
        '<main><p>Main text with <a href="/m">a link</a>.</p></main><aside><p>See <a href="/s">aside</a>.</p></aside><footer><a href="/f">f</a></footer>',
    );
    expect(links.map((link) => [link.anchor, link.context, link.inMainContent])).toEqual([
      ['Header link in a sentence', '', false],
      ['nav', '', false],
      ['a link', 'Main text with a link.', true],
      ['aside', '', false],
      ['f', '', false],
    ]);
  });
});
