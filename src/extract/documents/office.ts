/**
 * Office documents to HTML: DOCX through mammoth (headings, tables and links as Word styles them), XLSX through
 * exceljs (one table per sheet), PPTX and the OpenDocument formats by reading their XML parts directly (a ZIP of XML:
 * slide titles become headings, tables stay tables, hyperlinks stay links).
 */
import * as cheerio from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import type { Deadline } from './deadline.js';
import { escapeHtml } from '../escape-html.js';
import { tableHtml, type TableCell } from './html.js';

/** Cells read per sheet at most: a spreadsheet of a million rows is data, not a page. */
export const MAX_SHEET_CELLS = 100_000;
/** Columns a repeated OpenDocument cell may stand for (`number-columns-repeated` fills rows to 16,384 columns). */
const MAX_REPEATED = 64;

/** Converted content: the HTML of the body, and the document's title when it has one. */
export interface ConvertedHtml {
    title: string;
    body: string;
}

export async function docxToHtml(bytes: Uint8Array): Promise<ConvertedHtml> {
    const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
    const title = /<h1>(.*?)<\/h1>/.exec(value)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
    return { title: cheerio.load(title).text(), body: value };
}

/** A cell's value as text, and its hyperlink. Rich text, formulas (their cached result) and dates are read. */
function cellOf(value: ExcelJS.CellValue): TableCell {
    if (value === null || value === undefined) return { text: '' };
    if (value instanceof Date) return { text: value.toISOString().slice(0, 10) };
    if (typeof value !== 'object') return { text: String(value) };
    if ('hyperlink' in value) return { text: String(value.text ?? value.hyperlink), href: value.hyperlink };
    if ('richText' in value) return { text: value.richText.map((run) => run.text).join('') };
    if ('result' in value) return cellOf(value.result as ExcelJS.CellValue);
    if ('error' in value) return { text: String(value.error) };
    return { text: '' };
}

export async function xlsxToHtml(bytes: Uint8Array, deadline: Deadline): Promise<ConvertedHtml> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
    const parts: string[] = [];
    let cells = 0;
    workbook.eachSheet((sheet) => {
        deadline.check();
        const rows: TableCell[][] = [];
        sheet.eachRow({ includeEmpty: false }, (row) => {
            if (cells >= MAX_SHEET_CELLS) return;
            const values = (row.values as ExcelJS.CellValue[]).slice(1); // exceljs rows are 1-based
            cells += values.length;
            rows.push(values.map(cellOf));
        });
        if (rows.length > 0) parts.push(`<h2>${escapeHtml(sheet.name)}</h2>${tableHtml(rows)}`);
    });
    return { title: String(workbook.title ?? ''), body: parts.join('\n') };
}

/** Child elements of a node. */
function childElements(node: AnyNode): Element[] {
    return 'children' in node ? (node.children.filter((child) => child.type === 'tag') as Element[]) : [];
}

/** Text of an XML subtree: `text:s` spaces and `text:tab` tabs written out, line breaks as spaces. */
function xmlText(node: AnyNode): string {
    if (node.type === 'text') return (node as unknown as { data: string }).data;
    if (node.type !== 'tag') return '';
    const element = node as Element;
    if (element.name === 'text:s') return ' '.repeat(Math.min(Number(element.attribs['text:c'] ?? 1), MAX_REPEATED));
    if (element.name === 'text:tab' || element.name === 'text:line-break' || element.name === 'a:br') return ' ';
    return element.children.map(xmlText).join('');
}

/** The target of the first `text:a` in a subtree (a spreadsheet cell's hyperlink). */
function firstLink(node: AnyNode): string | undefined {
    for (const child of childElements(node)) {
        if (child.name === 'text:a' && child.attribs['xlink:href']) return child.attribs['xlink:href'];
        const inner = firstLink(child);
        if (inner !== undefined) return inner;
    }
    return undefined;
}

/** OpenDocument (ODT, ODS, ODP) `content.xml` to HTML: headings, paragraphs, lists, tables and links. */
function odfBodyHtml(node: AnyNode): string {
    if (node.type === 'text') return escapeHtml((node as unknown as { data: string }).data);
    if (node.type !== 'tag') return '';
    const element = node as Element;
    const inner = () => element.children.map(odfBodyHtml).join('');
    switch (element.name) {
        case 'text:h': {
            const level = Math.min(6, Math.max(1, Number(element.attribs['text:outline-level'] ?? 1)));
            return `<h${level}>${inner()}</h${level}>`;
        }
        case 'text:p':
            return `<p>${inner()}</p>`;
        case 'text:list':
            return `<ul>${inner()}</ul>`;
        case 'text:list-item':
            return `<li>${inner()}</li>`;
        case 'text:a':
            return `<a href="${escapeHtml(element.attribs['xlink:href'] ?? '')}">${inner()}</a>`;
        case 'text:s':
        case 'text:tab':
        case 'text:line-break':
            return xmlText(element);
        case 'table:table': {
            const rows: TableCell[][] = [];
            for (const row of element.children.flatMap((child) => (child.type === 'tag' && (child as Element).name === 'table:table-header-rows' ? childElements(child) : [child]))) {
                if (row.type !== 'tag' || (row as Element).name !== 'table:table-row') continue;
                const cells: TableCell[] = [];
                for (const cell of childElements(row)) {
                    if (cell.name !== 'table:table-cell' && cell.name !== 'table:covered-table-cell') continue;
                    const repeat = Math.min(Number(cell.attribs['table:number-columns-repeated'] ?? 1), MAX_REPEATED);
                    const text = xmlText(cell).trim();
                    const href = firstLink(cell);
                    for (let i = 0; i < repeat; i++) cells.push(href ? { text, href } : { text });
                }
                while (cells.length > 0 && cells[cells.length - 1]!.text === '') cells.pop(); // trailing filler
                if (cells.length > 0) rows.push(cells);
            }
            const name = element.attribs['table:name'];
            return `${name && element.parent && (element.parent as Element).name === 'office:spreadsheet' ? `<h2>${escapeHtml(name)}</h2>` : ''}${tableHtml(rows)}`;
        }
        case 'draw:page':
            return `<section>${element.attribs['draw:name'] ? `<h2>${escapeHtml(element.attribs['draw:name'])}</h2>` : ''}${inner()}</section>`;
        default:
            return inner();
    }
}

async function zipOf(bytes: Uint8Array): Promise<JSZip> {
    return JSZip.loadAsync(bytes);
}

export async function odfToHtml(bytes: Uint8Array): Promise<ConvertedHtml> {
    const zip = await zipOf(bytes);
    const content = await zip.file('content.xml')?.async('string');
    if (content === undefined) throw new TypeError('not an OpenDocument file: content.xml is missing');
    const meta = await zip.file('meta.xml')?.async('string');
    const title = meta ? cheerio.load(meta, { xml: true })('dc\\:title').first().text().trim() : '';
    const $ = cheerio.load(content, { xml: true });
    const body = $('office\\:body').get(0);
    return { title, body: body ? odfBodyHtml(body) : '' };
}

/** The hyperlink targets of one slide, by relationship id. */
async function slideLinks(zip: JSZip, slidePath: string): Promise<Map<string, string>> {
    const relsPath = slidePath.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels');
    const rels = await zip.file(relsPath)?.async('string');
    const links = new Map<string, string>();
    if (!rels) return links;
    cheerio.load(rels, { xml: true })('Relationship').each((_, element) => {
        const { Id, Target, Type } = (element as Element).attribs;
        if (Id && Target && Type?.endsWith('/hyperlink')) links.set(Id, Target);
    });
    return links;
}

export async function pptxToHtml(bytes: Uint8Array, deadline: Deadline): Promise<ConvertedHtml> {
    const zip = await zipOf(bytes);
    const slides = Object.keys(zip.files)
        .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
        .sort((a, b) => Number(/\d+/.exec(a.slice(11))![0]) - Number(/\d+/.exec(b.slice(11))![0]));
    const parts: string[] = [];
    let title = '';
    for (const slidePath of slides) {
        deadline.check();
        const links = await slideLinks(zip, slidePath);
        const $ = cheerio.load((await zip.file(slidePath)!.async('string')), { xml: true });
        const blocks: string[] = [];
        $('p\\:sp').each((_, shape) => {
            const placeholder = $(shape).find('p\\:nvPr p\\:ph').attr('type') ?? '';
            const isTitle = placeholder === 'title' || placeholder === 'ctrTitle';
            $(shape).find('a\\:p').each((__, paragraph) => {
                let html = '';
                $(paragraph).find('a\\:r, a\\:br').each((___, run) => {
                    const text = escapeHtml($(run).find('a\\:t').text());
                    const id = $(run).find('a\\:hlinkClick').attr('r:id');
                    const href = id ? links.get(id) : undefined;
                    html += href ? `<a href="${escapeHtml(href)}">${text}</a>` : text || ' ';
                });
                if (html.trim() === '') return;
                if (isTitle && title === '') title = cheerio.load(html).text();
                blocks.push(isTitle ? `<h2>${html}</h2>` : `<p>${html}</p>`);
            });
        });
        if (blocks.length > 0) parts.push(`<section>${blocks.join('')}</section>`);
    }
    return { title, body: parts.join('\n') };
}
