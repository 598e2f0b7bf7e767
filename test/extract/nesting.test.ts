import { describe, expect, it } from 'vitest';
import { limitNesting, MAX_NESTING_DEPTH } from '../../src/extract/nesting.js';
import { cpuMillis } from '../helpers/cpu-time.js';

describe('limitNesting', () => {
  it('returns ordinary HTML unchanged (the same string)', () => {
    const html = '<!doctype html><html><body><ul><li>a<li>b</ul><p>one<p>two<br><img src=x></body></html>';
    expect(limitNesting(html, 4)).toBe(html);
  });

  it('removes the tags below the limit but keeps their text', () => {
    expect(limitNesting('<div><div><div><b>deep</b></div></div></div><p>after</p>', 2)).toBe('<div><div>deep</div></div><p>after</p>');
  });

  it('does not count tags inside comments, scripts or other raw text', () => {
    const html = '<div><!-- <div><div><div> --><script>"<div><div><div>"</script><textarea><div><div></textarea><span>x</span></div>';
    expect(limitNesting(html, 2)).toBe(html);
  });

  it('does not count siblings that close each other or self-closed foreign tags', () => {
    const html = `<table>${'<tr><td>cell'.repeat(1_000)}</table><svg>${'<path d="M0"/>'.repeat(1_000)}</svg>`;
    expect(limitNesting(html, 5)).toBe(html);
  });

  it('is linear: 200,000 nested tags take well under a few seconds', () => {
    const html = `${'<div>'.repeat(200_000)}x${'</div>'.repeat(200_000)}`;
    const { result: limited, millis } = cpuMillis(() => limitNesting(html));
    expect(millis).toBeLessThan(5_000);
    expect(limited).toBe(`${'<div>'.repeat(MAX_NESTING_DEPTH)}x${'</div>'.repeat(MAX_NESTING_DEPTH)}`);
  });
});
