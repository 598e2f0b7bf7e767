/** Small HTML builders the converters share: every format becomes HTML first, then goes through `extractPage`. */

import { escapeHtml } from '../escape-html.js';

/** A cell's content: a link when the cell has one, else its text. */
export interface TableCell {
    text: string;
    href?: string;
}

/** An HTML table whose first row is the header (Markdown tables need one). */
export function tableHtml(rows: readonly (readonly TableCell[])[]): string {
    const width = Math.max(0, ...rows.map((row) => row.length));
    if (width === 0) return '';
    const cell = (tag: 'th' | 'td', c: TableCell | undefined) => {
        const text = escapeHtml(c?.text ?? '');
        return `<${tag}>${c?.href ? `<a href="${escapeHtml(c.href)}">${text}</a>` : text}</${tag}>`;
    };
    const line = (row: readonly TableCell[], tag: 'th' | 'td') => `<tr>${Array.from({ length: width }, (_, i) => cell(tag, row[i])).join('')}</tr>`;
    const [head, ...body] = rows;
    return `<table><thead>${line(head!, 'th')}</thead><tbody>${body.map((row) => line(row, 'td')).join('')}</tbody></table>`;
}

/** Blank-line separated blocks of plain text as paragraphs (single line breaks kept). */
export function paragraphsHtml(text: string): string {
    return text
        .split(/\r?\n[ \t]*\r?\n/)
        .map((block) => block.trim())
        .filter((block) => block !== '')
        .map((block) => `<p>${escapeHtml(block).replace(/\r?\n/g, '<br>')}</p>`)
        .join('\n');
}

/** A whole document around converted content. */
export function documentHtml(title: string, body: string): string {
    return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}
