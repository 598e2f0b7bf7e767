import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/extract/index.js';
import { cpuMillis } from '../helpers/cpu-time.js';

const URL_ = 'https://u.example/page';

/** `extractPage` with the CPU time it took (see cpuMillis). */
function timed(html: string, options?: Parameters<typeof extractPage>[2]) {
  const { result: page, millis } = cpuMillis(() => extractPage(html, URL_, options));
  return { page, millis };
}

describe('hostile input: no hang, no throw', () => {
  it('cuts a 20 MB page at maxHtmlChars and says so', () => {
    const block = '<div class="item"><h3><a href="/p/ID">Item ID</a></h3><p>Some text about item ID for the listing page.</p></div>\n';
    let html = '<html><body><main>';
    for (let i = 0; html.length < 20_000_000; i++) html += block.replaceAll('ID', String(i));
    const { page, millis } = timed(`${html}</main></body></html>`);
    expect(page.truncated).toBe(true);
    expect(page.links).toHaveLength(5_000);
    expect(page.text.length).toBeGreaterThan(1_000_000);
    expect(millis).toBeLessThan(20_000);
  }, 120_000);

  it('reads only maxHtmlChars characters and never splits a surrogate pair', () => {
    const { page } = timed('<p>ab😀cd</p>', { maxHtmlChars: 6 });
    expect(page).toMatchObject({ truncated: true, text: 'ab' });
  });

  it('survives binary garbage served as text/html', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const bytes = Buffer.from(Array.from({ length: 100_000 }, () => Math.floor(random() * 256)));
    for (const html of [bytes.toString('utf8'), bytes.toString('latin1')]) {
      const { page, millis } = timed(html);
      expect(typeof page.markdown).toBe('string');
      expect(page.text.includes('\u0000')).toBe(false);
      expect(millis).toBeLessThan(10_000);
    }
  });

  it('survives deeply nested tags of every kind', () => {
    const depth = 20_000;
    const shapes = [
      `${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}`,
      `${'<span><a href="/x">'.repeat(depth)}deep text`,
      `${'<p><li>'.repeat(depth)}deep text`,
      `${'<table><tr><td>'.repeat(depth / 10)}deep text`,
      `${'<ul><li>'.repeat(depth)}deep text`,
      `${'<b><i>'.repeat(depth)}deep text`,
    ];
    for (const html of shapes) {
      const { page, millis } = timed(`<html><body>${html}</body></html>`);
      expect(page.text).toContain('deep text');
      expect(page.markdown).toContain('deep text');
      // A list nested 256 deep over 20,000 items is Turndown's worst case.
      expect(millis).toBeLessThan(20_000);
    }
  }, 120_000);

  it('survives a page decoded with the wrong charset', () => {
    const html = '<html lang="fr"><head><meta charset="iso-8859-1"><title>Étudiants étrangers</title></head><body><main><p>Être admis à l’université: <a href="/visa">démarches de visa</a>.</p></main></body></html>';
    const mojibake = Buffer.from(html, 'latin1').toString('utf8');
    const { page } = timed(mojibake);
    expect(page.title).toContain('tudiants');
    expect(page.links).toEqual([{ url: 'https://u.example/visa', anchor: expect.stringContaining('marches de visa'), context: expect.stringContaining('admis'), inMainContent: true }]);
  });

  it('survives lone surrogates, NUL characters and broken markup', () => {
    const html = '<p>a\uD800b\u0000c <a href="/x">li\uDC00nk</a></p><div <a <b></b title="x>y"><table><td>cell</table></div';
    const { page } = timed(html);
    expect(page.text).toContain('a\uD800bc');
    expect(page.links[0]?.url).toBe('https://u.example/x');
  });

  it('survives a huge table', () => {
    const { page, millis } = timed(`<table>${'<tr><td>a</td><td>b</td></tr>'.repeat(30_000)}</table>`);
    expect(page.truncated).toBe(false);
    expect(page.markdown.split('\n')).toHaveLength(30_001);
    expect(millis).toBeLessThan(20_000);
  }, 120_000);
});
