/**
 * HTML → Markdown with Turndown: ATX headings, fenced code, and GFM tables (Turndown 7 has no
 * table support built in, so the rules below add it).
 */
import TurndownService from 'turndown';

/**
 * Ends every table cell in the converted text until the table rule lays out the rows. NUL cannot
 * appear in the text itself: {@link toMarkdown}'s callers strip it, and HTML parsers drop it.
 */
const CELL_END = '\u0000';

/** HTML §4.9.11: user agents clamp `colspan` to this value. */
const MAX_COLSPAN = 1000;

const TABLE_SECTIONS = new Set(['THEAD', 'TBODY', 'TFOOT']);

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  hr: '---',
  emDelimiter: '*',
  blankReplacement: (_content, node) => blankTablePart(node) ?? (isBlock(node) ? '\n\n' : ''),
});

// Turndown converts the text of <script> and <style> too (crawlee-notes pitfall 11).
turndown.remove(['script', 'style']);

turndown.addRule('tableCell', {
  filter: ['th', 'td'],
  replacement: (content, node) =>
    content.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|') + CELL_END.repeat(colspan(node)),
});
turndown.addRule('tableRow', { filter: 'tr', replacement: (content) => `\n${content}\n` });
turndown.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
turndown.addRule('table', { filter: 'table', replacement: (content) => `\n\n${layOutTable(content)}\n\n` });
turndown.addRule('inlineImage', {
  filter: 'img',
  // A data: URI can be megabytes of base64 that says nothing; keep its alt text only.
  replacement: (_content, node) => {
    const alt = (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
    const src = node.getAttribute('src')?.trim() ?? '';
    if (src === '' || /^data:/i.test(src)) return alt;
    return `![${alt}](${markdownUrl(src)})`;
  },
});

/**
 * `url` percent-encoded where a Markdown link target cannot hold it: parentheses and whitespace
 * (algorithms.md §5.4 reads link targets as runs without either).
 */
export function markdownUrl(url: string): string {
  return url.replace(/[()\s]/g, (char) => (char === '(' ? '%28' : char === ')' ? '%29' : encodeURIComponent(char)));
}

/** Converts an HTML fragment to Markdown. `html` must not contain NUL characters. */
export function toMarkdown(html: string): string {
  return turndown.turndown(html);
}

/** What an empty table part becomes, so that an empty cell still takes its column. */
function blankTablePart(node: HTMLElement): string | undefined {
  if (node.nodeName === 'TD' || node.nodeName === 'TH') return CELL_END.repeat(colspan(node));
  if (node.nodeName === 'TR') return '\n';
  if (node.nodeName === 'TABLE' || TABLE_SECTIONS.has(node.nodeName)) return '';
  return undefined;
}

/** Turndown marks each node it visits with `isBlock`; the DOM type does not declare it. */
function isBlock(node: HTMLElement): boolean {
  return (node as HTMLElement & { isBlock?: boolean }).isBlock === true;
}

function colspan(node: HTMLElement): number {
  const span = Number.parseInt(node.getAttribute('colspan') ?? '1', 10);
  return Number.isFinite(span) ? Math.min(Math.max(span, 1), MAX_COLSPAN) : 1;
}

/**
 * Turns the converted rows (one line each, cells ended by {@link CELL_END}) into a GFM table whose
 * first row is the header. Text outside rows (a caption) goes above the table; a table with one
 * column is page layout, not data, and becomes plain paragraphs.
 */
function layOutTable(content: string): string {
  const rows: string[][] = [];
  const loose: string[] = [];
  for (const line of content.split('\n')) {
    if (line.includes(CELL_END)) rows.push(line.split(CELL_END).slice(0, -1).map((cell) => cell.trim()));
    else if (line.trim() !== '') loose.push(line.trim());
  }
  const columns = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  if (columns <= 1) return [...loose, ...rows.map((row) => row[0] ?? '')].filter((text) => text !== '').join('\n\n');
  const formatRow = (cells: string[]): string =>
    `| ${Array.from({ length: columns }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [header = [], ...body] = rows;
  const table = [formatRow(header), formatRow(Array<string>(columns).fill('---')), ...body.map(formatRow)].join('\n');
  return [...loose, table].join('\n\n');
}
