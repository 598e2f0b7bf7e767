import { describe, expect, it } from 'vitest';
import { toMarkdown } from '../../src/extract/markdown.js';

describe('toMarkdown', () => {
  it('writes ATX headings, dash bullets and fenced code', () => {
    const markdown = toMarkdown('<h2>Entry requirements</h2><ul><li>IELTS 6.5</li></ul><pre><code>npm test</code></pre>');
    expect(markdown).toBe('## Entry requirements\n\n-   IELTS 6.5\n\n```\nnpm test\n```');
  });

  it('drops the text of <script> and <style> (crawlee-notes pitfall 11)', () => {
    const markdown = toMarkdown('<p>Visible</p><script>var secret = 1;</script><style>p { color: red }</style>');
    expect(markdown).toBe('Visible');
  });

  it('writes a table with a header row, padding short rows', () => {
    const markdown = toMarkdown('<table><tr><td>Term</td><td>Dates</td></tr><tr><td>Autumn</td></tr></table>');
    expect(markdown).toBe('| Term | Dates |\n| --- | --- |\n| Autumn |  |');
  });

  it('keeps a table cell on one line and escapes its pipes', () => {
    const markdown = toMarkdown('<table><tr><th>a|b</th><th>c</th></tr><tr><td><p>one</p><p>two</p></td><td><br></td></tr></table>');
    expect(markdown).toBe('| a\\|b | c |\n| --- | --- |\n| one two |  |');
  });

  it('clamps colspan as browsers do', () => {
    const markdown = toMarkdown('<table><tr><td colspan="999999">wide</td></tr><tr><td>x</td><td>y</td></tr></table>');
    expect(markdown.split('\n')[0]?.split(' | ')).toHaveLength(1_000);
  });

  it('keeps images as links but shows data: images by their alt text only', () => {
    expect(toMarkdown('<p><img src="/logo (1).png" alt="Logo"> <img src="data:image/png;base64,AAAA" alt="Chart"></p>')).toBe(
      '![Logo](/logo%20%281%29.png) Chart',
    );
  });
});
