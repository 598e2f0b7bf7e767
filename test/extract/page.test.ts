import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractPage, type PageData } from '../../src/extract/index.js';
import { isHub } from '../../src/focus/focus.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/extract/${name}`, import.meta.url), 'utf8');
const linkTo = (page: PageData, url: string) => page.links.find((link) => link.url === url);

describe('extractPage on a university department page', () => {
  const page = extractPage(fixture('department.html'), 'https://www.northfield.ac.uk/science/computer-science/index.php');

  it('reads title, language, canonical and the main headings', () => {
    expect(page.title).toBe('School of Computer Science | Northfield University');
    expect(page.lang).toBe('en-GB');
    expect(page.canonical).toBe('https://www.northfield.ac.uk/science/computer-science/');
    expect(page.headings).toEqual(['School of Computer Science', 'Undergraduate programmes', 'Postgraduate study', 'Contact the school']);
    expect(page.truncated).toBe(false);
  });

  it('keeps the main content and drops navigation, sidebar, footer, hidden banner, script and style', () => {
    expect(page.markdown).toMatch(/^# School of Computer Science\n/);
    expect(page.markdown).toContain('## Undergraduate programmes');
    expect(page.markdown).toContain('Scholarships are available for students from partner countries');
    for (const boilerplate of ['Fees and funding', 'Latest news', 'Woodhouse Lane', 'Cookie policy', 'gtag', 'skip-link', 'schema.org', 'Breadcrumb', 'Faculty of Science']) {
      expect(page.markdown).not.toContain(boilerplate);
      expect(page.text).not.toContain(boilerplate);
    }
  });

  it('writes plain text with one line per block and collapsed whitespace', () => {
    const lines = page.text.split('\n');
    expect(lines[0]).toBe('School of Computer Science');
    expect(lines).toContain('BSc AI – new for 2026 entry.');
    expect(page.text).not.toMatch(/ {2}|\n\n|\[|\]\(/);
  });

  it('collects links from the whole document, resolved against <base href>, without fragments', () => {
    expect(linkTo(page, 'https://www.northfield.ac.uk/science/computer-science/bsc/')).toMatchObject({ anchor: 'BSc Computer Science', inMainContent: true });
    expect(linkTo(page, 'https://www.northfield.ac.uk/research/')).toEqual({ url: 'https://www.northfield.ac.uk/research/', anchor: 'Research', context: '', inMainContent: false });
    expect(linkTo(page, 'https://www.northfield.ac.uk/news/2026/03/quantum-grant/')).toMatchObject({ context: '', inMainContent: false });
    expect(linkTo(page, 'https://www.northfield.ac.uk/legal/cookies/')).toMatchObject({ context: '', inMainContent: false });
    // `#content` and `#scholarships` resolve against the base and lose their fragment.
    expect(linkTo(page, 'https://www.northfield.ac.uk/science/')).toMatchObject({ anchor: 'Skip to main content' });
    expect(page.links.some((link) => link.url.includes('#'))).toBe(false);
    expect(new Set(page.links.map((link) => link.url)).size).toBe(page.links.length);
  });

  it('gives main-content links the line around them as context', () => {
    const guide = linkTo(page, 'https://www.northfield.ac.uk/study/international/');
    // Linked first from the menu, then from the text: the text's anchor and context win.
    expect(guide).toMatchObject({ anchor: 'our guide for international applicants', inMainContent: true });
    expect(guide?.context).toContain('We welcome applications from international students; see our guide for international applicants for visa advice');
    expect(linkTo(page, 'https://www.northfield.ac.uk/study/fees-and-funding/')?.context).toMatch(/^Our taught master's degrees .* the scholarship finder lists every award/);
    expect(linkTo(page, 'https://www.northfield.ac.uk/science/computer-science/bsc-ai/')?.context).toBe('BSc AI – new for 2026 entry.');
  });

  it('reads the same links and text without the Markdown when asked to skip it', () => {
    const outline = extractPage(fixture('department.html'), page.url, { markdown: false });
    expect(page.markdown).not.toBe('');
    expect(outline.markdown).toBe('');
    expect(outline.links.map((link) => [link.url, link.anchor, link.inMainContent])).toEqual(page.links.map((link) => [link.url, link.anchor, link.inMainContent]));
    expect(outline.links.every((link) => link.context === '')).toBe(true);
    expect({ text: outline.text, proseWords: outline.proseWords, title: outline.title }).toEqual({ text: page.text, proseWords: page.proseWords, title: page.title });
  });

  it('orders links by their first appearance in the document', () => {
    const urls = page.links.map((link) => link.url);
    expect(urls.indexOf('https://www.northfield.ac.uk/study/international/')).toBeLessThan(urls.indexOf('https://www.northfield.ac.uk/research/'));
    expect(urls.at(-1)).toBe('https://twitter.com/northfielduni');
  });

  it('passes other schemes through as written', () => {
    expect(linkTo(page, 'mailto:cs-admissions@northfield.ac.uk')).toMatchObject({ inMainContent: true });
    expect(linkTo(page, 'javascript:window.print()')).toMatchObject({ anchor: 'Print this page' });
  });

  it('falls back to aria-label and image alt text for anchors', () => {
    expect(linkTo(page, 'https://www.northfield.ac.uk/science/computer-science/staff/')?.anchor).toBe('Staff directory');
    expect(linkTo(page, 'https://www.northfield.ac.uk/')?.anchor).toBe('Northfield University home');
    expect(linkTo(page, 'https://twitter.com/northfielduni')?.anchor).toBe('Northfield on X');
  });

  it('is a content page, not a hub', () => {
    expect(page.proseWords).toBeGreaterThan(80);
    expect(isHub(page.links.length, page.proseWords)).toBe(false);
  });
});

describe('extractPage on a page with a data table', () => {
  const page = extractPage(fixture('fees-table.html'), 'https://www.northfield.ac.uk/study/fees/');

  it('keeps the table as a GFM table with caption, escaped pipes, colspan and empty cells', () => {
    expect(page.markdown).toContain(
      [
        'Annual tuition fees by programme',
        '',
        '| Programme | Home | International |',
        '| --- | --- | --- |',
        '| [BSc Computer Science](https://www.northfield.ac.uk/study/cs-bsc/) | £9,535 | £27,400 |',
        '| MSc Data Science | £12,900 | £31,250 |',
        '| PhD (per year) \\| full-time | £5,006 for all students |  |',
        '| Foundation year |  | £18,000 |',
      ].join('\n'),
    );
  });

  it('turns a one-column layout table into a paragraph', () => {
    expect(page.markdown).toMatch(/\n\nQuestions\? Contact the fees office\.$/);
  });

  it('takes <article> as the main content and gives a table link its row as context', () => {
    expect(page.headings).toEqual(['Tuition fees 2026/27', 'Paying your fees']);
    expect(page.markdown).not.toContain('Home](');
    expect(linkTo(page, 'https://www.northfield.ac.uk/study/cs-bsc/')?.context).toBe('| BSc Computer Science | £9,535 | £27,400 |');
    expect(linkTo(page, 'https://www.northfield.ac.uk/study/')).toMatchObject({ inMainContent: false, context: '' });
  });
});

describe('extractPage on a JavaScript app shell', () => {
  const page = extractPage(fixture('app-shell.html'), 'https://app.example.de/studium');

  it('finds no content and no links, not even in <noscript> or script strings', () => {
    expect(page).toMatchObject({ title: 'Studienangebot', lang: 'de', headings: [], markdown: '', text: '', links: [], proseWords: 0 });
  });
});

describe('extractPage on a frameset document', () => {
  // An XHTML frameset with no <body> once made turndown throw (`element.firstChild` of null).
  const html = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Frameset//EN" "DTD/xhtml1-frameset.dtd">
<html lang="en"><head><title> API Documentation </title></head>
<frameset cols="20%,80%"><frameset rows="30%,70%"><frame src="toc.html" name="list" /><frame src="toc-all.html" title="Everything" /></frameset>
<frame src="module.html#top" name="main" /></frameset></html>`;

  it('reads it without error and follows its frames as links', () => {
    const page = extractPage(html, 'https://docs.example.org/api/frames.html');
    expect(page).toMatchObject({ title: 'API Documentation', lang: 'en', markdown: '', proseWords: 0 });
    expect(page.links.map((link) => link.url)).toEqual([
      'https://docs.example.org/api/toc.html',
      'https://docs.example.org/api/toc-all.html',
      'https://docs.example.org/api/module.html',
    ]);
    expect(linkTo(page, 'https://docs.example.org/api/toc-all.html')).toMatchObject({ anchor: 'Everything', inMainContent: true });
  });

  it('keeps the <noframes> text as its content', () => {
    const page = extractPage(
      '<html><head><title>Docs</title></head><frameset><frame src="a.html"><noframes><body><p>Read the <a href="a.html">contents</a>.</p></body></noframes></frameset></html>',
      'https://docs.example.org/',
    );
    expect(page.markdown).toContain('Read the [contents](https://docs.example.org/a.html).');
    expect(page.links).toHaveLength(1);
  });
});

describe('main content choice', () => {
  it('falls back to <body> when <main> holds little of the text', () => {
    const prose = 'This paragraph is the real content of the page and it is long enough to matter. '.repeat(5);
    const page = extractPage(`<body><main><p>Teaser</p></main><div><p>${prose}</p></div></body>`, 'https://a.example/');
    expect(page.text).toContain('Teaser');
    expect(page.text).toContain('the real content');
  });

  it('keeps a page wrapped in a <form> (ASP.NET WebForms) or hidden from screen readers by a modal', () => {
    const prose = '<h1>Admissions</h1><p>Apply by the first of June to start in September, with a personal statement.</p>';
    for (const wrapper of ['form id="aspnetForm"', 'div aria-hidden="true"']) {
      const page = extractPage(`<body><${wrapper}>${prose}</${wrapper.split(' ')[0]}><div role="dialog">Accept cookies?</div></body>`, 'https://a.example/');
      expect(page.headings).toEqual(['Admissions']);
      expect(page.text).toContain('personal statement');
    }
  });

  it('keeps an article header but drops the page header', () => {
    const page = extractPage(
      '<body><header><p>Site banner text</p></header><article><header><h1>Visa guide</h1></header><p>How to apply for a student visa.</p></article></body>',
      'https://a.example/',
    );
    expect(page.headings).toEqual(['Visa guide']);
    expect(page.text).not.toContain('Site banner');
  });

  it('falls back to the first heading when there is no <title>', () => {
    expect(extractPage('<h2>Opening hours</h2><p>Monday to Friday.</p>', 'https://a.example/').title).toBe('Opening hours');
  });
});

describe('hub detection', () => {
  it('calls a page with more links than prose words a hub', () => {
    const items = Array.from({ length: 40 }, (_, i) => `<li><a href="/programme/${i}">Programme ${i}</a></li>`).join('');
    const hub = extractPage(`<main><h1>All programmes</h1><p>Choose one below.</p><ul>${items}</ul></main>`, 'https://a.example/');
    expect(hub.links).toHaveLength(40);
    expect(hub.proseWords).toBe(3);
    expect(isHub(hub.links.length, hub.proseWords)).toBe(true);
  });

  it('counts Chinese characters as words, since Chinese text has no spaces', () => {
    const page = extractPage('<p>国际学生需要申请签证。<a href="/a">链接</a></p>', 'https://a.example/');
    expect(page.proseWords).toBe(10);
    expect(isHub(page.links.length, page.proseWords)).toBe(false);
  });
});

describe('options', () => {
  it('caps the number of distinct links', () => {
    const html = Array.from({ length: 50 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join(' ');
    const page = extractPage(html, 'https://a.example/', { maxLinks: 10 });
    expect(page.links.map((link) => link.url)).toEqual(Array.from({ length: 10 }, (_, i) => `https://a.example/p${i}`));
  });

  it('rejects limits that are not positive integers, saying what to pass', () => {
    expect(() => extractPage('<p>x</p>', 'https://a.example/', { maxLinks: 0 })).toThrow(/maxLinks must be a positive integer, got 0/);
    expect(() => extractPage('<p>x</p>', 'https://a.example/', { maxHtmlChars: 1.5 })).toThrow(/maxHtmlChars/);
  });
});
