import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTEXT_BYTES, extractPage, linkContexts } from '../../src/extract/index.js';
import { cpuMillis } from '../helpers/cpu-time.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('linkContexts', () => {
  it('maps each link URL to its anchor and the plain line, links replaced by their anchors', () => {
    const contexts = linkContexts('# Title\n\nApply for a [student visa](https://a.example/visa "Visa") before [arrival](/arrive#day-1).\n\nNo links here.');
    expect([...contexts]).toEqual([
      ['https://a.example/visa', { anchor: 'student visa', line: 'Apply for a student visa before arrival.' }],
      ['/arrive', { anchor: 'arrival', line: 'Apply for a student visa before arrival.' }],
    ]);
  });

  it('keeps the first occurrence, skips empty URLs and reads images as their alt text', () => {
    const contexts = linkContexts(
      '- [First](/a) item\n- [Second](/a) item\n[Only a fragment](#top)\n[![Campus map](/map.png)](/campus) and ![logo](/l.png)',
    );
    expect(contexts.get('/a')).toEqual({ anchor: 'First', line: 'First item' });
    expect(contexts.has('')).toBe(false);
    expect(contexts.has('/map.png')).toBe(false);
    expect(contexts.get('/campus')).toEqual({ anchor: 'Campus map', line: 'Campus map and logo' });
  });

  it('removes Markdown escapes from anchor and line', () => {
    const contexts = linkContexts('Fees \\[2026\\]: see [the \\*new\\* fees](/fees) \\- now');
    expect(contexts.get('/fees')).toEqual({ anchor: 'the *new* fees', line: 'Fees [2026]: see the *new* fees - now' });
  });

  it('centres a window of at most CONTEXT_BYTES bytes on the anchor, cut at whole words', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[100] = '[anchor](/x)';
    const { line } = linkContexts(words.join(' ')).get('/x')!;
    expect(CONTEXT_BYTES).toBe(400);
    expect(bytes(line)).toBeLessThanOrEqual(CONTEXT_BYTES);
    expect(bytes(line)).toBeGreaterThan(CONTEXT_BYTES - 10);
    const [before = '', after = ''] = line.split('anchor');
    expect(Math.abs(bytes(before) - bytes(after))).toBeLessThanOrEqual(5);
    expect(line).toMatch(/^w\d+ .* w\d+$/);
    expect(`${words.join(' ').replace('[anchor](/x)', 'anchor')}`).toContain(line);
  });

  it('gives the room a short side does not use to the other side', () => {
    const { line } = linkContexts(`[anchor](/x) ${'word '.repeat(200)}`).get('/x')!;
    expect(line.startsWith('anchor word word')).toBe(true);
    expect(bytes(line)).toBeGreaterThan(CONTEXT_BYTES - 6);
  });

  it('cuts multi-byte text at character boundaries', () => {
    const chinese = '国际学生需要办理签证并在入学前完成注册手续'.repeat(20);
    const { line } = linkContexts(`${chinese}[签证指南](/visa)${chinese}`).get('/visa')!;
    expect(bytes(line)).toBeLessThanOrEqual(CONTEXT_BYTES);
    expect(bytes(line)).toBeGreaterThan(CONTEXT_BYTES - 3);
    expect(line).toContain('签证指南');
    expect(`${chinese}签证指南${chinese}`).toContain(line);
  });

  it('holds its byte limit and never splits a character, for any line (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', 'é', '中', '😀', 'ß', '\u{10FFFF}'), maxLength: 400 });
    fc.assert(
      fc.property(text, text.filter((anchor) => !/[[\]\\]/.test(anchor)), text, (before, anchor, after) => {
        const plain = `${before}${anchor}${after}`;
        const context = linkContexts(`${before}[${anchor}](/target)${after}`).get('/target');
        expect(context).toBeDefined();
        const line = context!.line;
        expect(bytes(line)).toBeLessThanOrEqual(CONTEXT_BYTES);
        expect(LONE_SURROGATE.test(line)).toBe(false);
        expect(plain).toContain(line);
        if (bytes(anchor) <= CONTEXT_BYTES) expect(line).toContain(anchor.trim());
      }),
      { numRuns: 300 },
    );
  });

  it('handles a 1 MB line with many links quickly', () => {
    const line = Array.from({ length: 2_000 }, (_, i) => `${'filler text '.repeat(40)}[link ${i}](/l${i})`).join(' ');
    const { result: contexts, millis } = cpuMillis(() => linkContexts(line));
    expect(millis).toBeLessThan(2_000);
    expect(contexts.size).toBe(2_000);
    expect(bytes(contexts.get('/l1000')!.line)).toBeLessThanOrEqual(CONTEXT_BYTES);
  });
});

describe('contexts in extractPage', () => {
  it('are windows of the main-content line, for text in any script', () => {
    const para = 'Студенты из других стран должны подать заявление на визу заранее. '.repeat(10);
    const page = extractPage(`<main><p>${para}<a href="/visa">Визовая поддержка</a> ${para}</p></main>`, 'https://u.example/');
    const context = page.links[0]!.context;
    expect(bytes(context)).toBeLessThanOrEqual(CONTEXT_BYTES);
    expect(context).toContain('Визовая поддержка');
    expect(page.text).toContain(context);
  });

  it('find links whose URLs hold parentheses or spaces', () => {
    const page = extractPage('<p>Read the <a href="/wiki/Visa_(UK) guide.html">visa article</a> today.</p>', 'https://u.example/');
    expect(page.links[0]).toEqual({
      url: 'https://u.example/wiki/Visa_(UK)%20guide.html',
      anchor: 'visa article',
      context: 'Read the visa article today.',
      inMainContent: true,
    });
  });
});
