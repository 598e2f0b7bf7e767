import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractPage, type PageData } from '../../src/extract/index.js';
import { isHub } from '../../src/focus/focus.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/extract/${name}`, import.meta.url), 'utf8');
const linkTo = (page: PageData, url: string) => page.links.find((link) => link.url === url);
const prose = (topic: string, words = 90): string =>
  Array.from({ length: words }, (_, i) => `${topic}${i}`).join(' ');

describe('a mega-menu, a sidebar and a pager inside the main container', () => {
  const html = fixture('mega-menu.html');
  const page = extractPage(html, 'https://cs.example.edu/computing-guide/printing.html');

  it('leaves the menu, the sidebar and the pager out of the Markdown and the text', () => {
    expect(page.markdown).toMatch(/^# Printing\n/);
    for (const menuText of ['Department Overview', 'Research Staff', 'Computer Facilities', 'Computing Guide', 'Overview', 'Web Pages', 'AFS ›']) {
      expect(page.markdown).not.toContain(menuText);
      expect(page.text).not.toContain(menuText);
    }
    expect(page.headings).toEqual(['Printing', 'Setup guides']);
  });

  it('keeps every paragraph, the list of descriptive links and the data table with its linked cells', () => {
    expect(page.markdown).toContain('The department runs networked printers on every floor of the building.');
    expect(page.markdown).toContain('or every job comes out single-sided. See [the list of tested Linux drivers](https://cs.example.edu/computing-guide/printing/linux-drivers.html)');
    expect(page.markdown).toContain('-   [Instructions for printing to the Xerox copier from a Mac](https://cs.example.edu/files/xerox-mac.pdf)');
    expect(page.markdown).toContain('| 1 | [tweety](https://cs.example.edu/printers/tweety.html), [sylvester](https://cs.example.edu/printers/sylvester.html), [porky](https://cs.example.edu/printers/porky.html) |');
    expect(page.proseWords).toBeGreaterThan(130);
    expect(isHub(page.links.length, page.proseWords)).toBe(false);
  });

  it('still returns every link, the menu links as navigation without context', () => {
    const hrefs = [...html.matchAll(/<a\s[^>]*?href="([^"]+)"/g)].map((match) => new URL(match[1]!, 'https://cs.example.edu/').href);
    expect(hrefs).toHaveLength(40);
    expect(new Set(page.links.map((link) => link.url))).toEqual(new Set(hrefs));
    expect(linkTo(page, 'https://cs.example.edu/about/department-overview.html')).toEqual({
      url: 'https://cs.example.edu/about/department-overview.html', anchor: 'Department Overview', context: '', inMainContent: false,
    });
    expect(linkTo(page, 'https://cs.example.edu/computing-guide/afs.html')).toMatchObject({ context: '', inMainContent: false });
    expect(linkTo(page, 'https://cs.example.edu/files/xerox-win.pdf')).toMatchObject({
      context: 'Instructions for printing to the Xerox copier from Windows', inMainContent: true,
    });
  });
});

describe('an index page whose content is a short list of links', () => {
  const page = extractPage(fixture('index-page.html'), 'https://inf.example.ac.uk/prospective/');

  it('drops a <nav> mega-menu even when it holds most of the page text, so <main> is found', () => {
    for (const menuText of ['Undergraduate degrees', 'Research institutes', 'Professional services', 'Visit us', 'Crichton Street']) {
      expect(page.text).not.toContain(menuText);
    }
    expect(linkTo(page, 'https://inf.example.ac.uk/study/phd/')).toMatchObject({ anchor: 'PhD study', inMainContent: false });
  });

  it('keeps the links under the title in the Markdown, with their lines as context', () => {
    expect(page.markdown).toBe(
      [
        '# Prospective students',
        '',
        'Everything you need before you apply.',
        '',
        ...['admissions/)', 'deadlines/)', 'fees/)', 'visas/)', 'open-days/)', 'faq/)'].map((end, i) => {
          const anchors = ['Admissions', 'Deadlines', 'Fees and funding', 'Visas', 'Open days', 'FAQ'];
          return `-   [${anchors[i]}](https://inf.example.ac.uk/prospective/${end}`;
        }),
      ].join('\n'),
    );
    expect(linkTo(page, 'https://inf.example.ac.uk/prospective/fees/')).toMatchObject({ context: 'Fees and funding', inMainContent: true });
  });
});

describe('a rendered paper list without landmarks', () => {
  const html = fixture('paper-list.html');
  const page = extractPage(html, 'https://virtual.example.org/papers.html');

  it('keeps every paper title, since long anchors name what they lead to, and drops the menu', () => {
    const titles = [...html.matchAll(/<h5 class="card-title">([^<]+)<\/h5>/g)].map((match) => match[1]!);
    expect(titles).toHaveLength(12);
    for (const title of titles) expect(page.text).toContain(title);
    expect(page.headings).toEqual(['Summarization', ...titles]);
    for (const menuText of ['Schedule', 'Plenary', 'Tutorials', 'Sponsors']) expect(page.text).not.toContain(menuText);
    expect(linkTo(page, 'https://virtual.example.org/schedule.html')).toMatchObject({ inMainContent: false, context: '' });
    expect(page.links.filter((link) => link.inMainContent)).toHaveLength(12);
  });
});

describe('which blocks count as navigation', () => {
  const url = 'https://a.example/';
  const menu = (prefix: string, count: number) =>
    `<ul>${Array.from({ length: count }, (_, i) => `<li><a href="/${prefix}/${i}">${prefix} ${i}</a></li>`).join('')}</ul>`;

  it('drops a block of three short links once the page says enough, and keeps one of two', () => {
    const page = extractPage(`<main><h1>Guide</h1><p>${prose('word')}</p><div>${menu('three', 3)}</div><div>${menu('two', 2)}</div></main>`, url);
    expect(page.text).not.toContain('three');
    expect(page.text).toContain('two 1');
  });

  it('keeps a list whose items say more than their links', () => {
    const items = ['Alpha', 'Beta', 'Gamma'].map((name) => `<li><a href="/${name}">${name}</a> runs on weekdays from nine to five in room 12</li>`).join('');
    const page = extractPage(`<main><h1>Guide</h1><p>${prose('word')}</p><ul>${items}</ul></main>`, url);
    expect(page.text).toContain('Gamma runs on weekdays');
  });

  it('keeps a list whose links are described beside them, even when the links are most of its text', () => {
    const methods = ['copyText', 'cutText', 'deleteText', 'insertText'].map(
      (method) => `<li><a href="/api/${method}">nsIAccessibleEditableText::${method}</a> ${method.replace('Text', '')} a segment of text</li>`,
    );
    const page = extractPage(`<main><h1>nsIAccessibleEditableText</h1><p>${prose('word')}</p><ul>${methods.join('')}</ul></main>`, url);
    expect(page.text).toContain('nsIAccessibleEditableText::insertText insert a segment of text');
  });

  it('keeps the content of a link-dense container that also holds a menu, and drops the menu', () => {
    const schedule = '<table><tr><th></th><th>Spring</th><th>Summer</th></tr><tr><td>Tom</td><td>9-5</td><td>10-6</td></tr></table>';
    const page = extractPage(
      `<body><div id="main"><div id="localnav">${menu('local', 20)}</div><div id="main-content">The following table summarizes the work schedule of two employees.${schedule}</div></div><div>${prose('word')}</div></body>`,
      url,
    );
    expect(page.text).toMatch(/^The following table summarizes the work schedule of two employees\.\nSpring Summer\nTom 9-5 10-6\nword0 /);
  });

  it('judges a block headed by its own words by its parts, and a block headed by a link whole', () => {
    const page = extractPage(
      `<main><h1>Home</h1><p>${prose('word')}</p><div><h2>Pathways for</h2>${menu('path', 4)}</div><div><h2><a href="/guide">Guide</a></h2>${menu('side', 4)}</div></main>`,
      url,
    );
    expect(page.headings).toEqual(['Home', 'Pathways for']);
    expect(page.text).not.toMatch(/path 1|side 1|Guide/);
  });

  it('keeps a <nav> that wraps the whole page, unless it is mostly links', () => {
    const wrapped = extractPage(`<body><nav><h1>Admissions</h1><p>${prose('word')}</p></nav>${menu('side', 4)}</body>`, url);
    expect(wrapped.text).toContain('word89');
    const menuPage = extractPage(`<body><nav>${menu('menu', 40)}</nav><h1>Admissions</h1><p>Apply by June.</p></body>`, url);
    expect(menuPage.text).toBe('Admissions\nApply by June.');
  });

  it('looks inside layout tables but keeps the cells of data tables', () => {
    const layout = `<table><tr><td>${menu('layout', 4)}</td><td><p>${prose('word')}</p></td></tr></table>`;
    const data = `<table><tr><th>Day</th><th>Events</th></tr><tr><td>Monday</td><td><div>${menu('event', 4)}</div></td></tr></table>`;
    const page = extractPage(`<body><h1>Calendar</h1>${layout}${data}</body>`, url);
    expect(page.text).not.toContain('layout 1');
    expect(page.text).toContain('event 1');
  });

  it('keeps all link lists of a short page without a heading, and only those after the title of one with a heading', () => {
    expect(extractPage(`<body>${menu('menu', 6)}<p>Pick one.</p>${menu('child', 4)}</body>`, url).text).toMatch(/menu 1[\s\S]*child 1/);
    const titled = extractPage(`<body>${menu('menu', 6)}<h2>Services</h2><p>Pick one.</p>${menu('child', 4)}</body>`, url);
    expect(titled.text).not.toContain('menu 1');
    expect(titled.text).toContain('child 1');
  });
});

describe('navigation removal on generated pages', () => {
  type Item = { kind: 'menu'; size: number; nested: boolean } | { kind: 'prose'; words: number } | { kind: 'papers'; size: number };
  const item: fc.Arbitrary<Item> = fc.oneof(
    fc.record({ kind: fc.constant('menu' as const), size: fc.integer({ min: 3, max: 12 }), nested: fc.boolean() }),
    fc.record({ kind: fc.constant('prose' as const), words: fc.integer({ min: 5, max: 80 }) }),
    fc.record({ kind: fc.constant('papers' as const), size: fc.integer({ min: 1, max: 6 }) }),
  );
  const render = (entry: Item, i: number): string => {
    if (entry.kind === 'prose') return `<p>${prose(`prose${i}w`, entry.words)} <a href="/prose/${i}">see prose ${i}</a>.</p>`;
    const links = Array.from({ length: entry.size }, (_, j) =>
      entry.kind === 'menu'
        ? `<li><a href="/menu/${i}/${j}">menu${i}x${j}</a>${entry.nested && j === 0 ? `<ul><li><a href="/menu/${i}/sub">menu${i}sub</a></li></ul>` : ''}</li>`
        : `<li><a href="/paper/${i}/${j}">A study of paper${i}x${j} with a long descriptive title</a></li>`,
    );
    return entry.kind === 'menu' ? `<div class="menu"><ul>${links.join('')}</ul></div>` : `<ul>${links.join('')}</ul>`;
  };

  it('returns every link, keeps all prose and descriptive lists, drops menus above the title, and all menus of a page that says enough', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), fc.nat(), (items, at) => {
        const titleAt = at % (items.length + 1);
        const parts = items.map(render);
        parts.splice(titleAt, 0, '<h1>Title</h1>');
        const html = `<body><main>${parts.join('')}</main></body>`;
        const page = extractPage(html, 'https://g.example/');

        const hrefs = new Set([...html.matchAll(/href="([^"]+)"/g)].map((match) => `https://g.example${match[1]}`));
        expect(new Set(page.links.map((link) => link.url))).toEqual(hrefs);
        const proseWords = items.reduce((sum, entry) => sum + (entry.kind === 'prose' ? entry.words : 0), 0);
        items.forEach((entry, i) => {
          if (entry.kind === 'prose') expect(page.text).toContain(`prose${i}w${entry.words - 1} see prose ${i}.`);
          if (entry.kind === 'papers') expect(page.text).toContain(`paper${i}x${entry.size - 1} with`);
          if (entry.kind !== 'menu') return;
          const shown = page.text.includes(`menu${i}x0`);
          if (i < titleAt || proseWords >= 120) expect(shown).toBe(false);
          expect(linkTo(page, `https://g.example/menu/${i}/0`)).toMatchObject({ inMainContent: shown });
          if (!shown) expect(linkTo(page, `https://g.example/menu/${i}/0`)?.context).toBe('');
        });
      }),
      { numRuns: 300 },
    );
  });
});
