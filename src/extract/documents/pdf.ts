/** PDF to HTML through unpdf (PDF.js): the text of each page as paragraphs, the title from the document's metadata, link annotations kept. */
import { extractLinks, getDocumentProxy, getMeta } from 'unpdf';
import { escapeHtml } from '../escape-html.js';
import { paragraphsHtml } from './html.js';
import type { Deadline } from './deadline.js';
import type { ConvertedHtml } from './office.js';

/** Pages read at most: beyond it a PDF is a book or a data dump, and each page costs event-loop time. */
export const MAX_PDF_PAGES = 500;

/** Raised for a PDF that needs a password: PDF.js's PasswordException. */
export class EncryptedDocumentError extends Error {}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The text of one page, a line per text line (PDF.js marks line ends with `hasEOL`). */
async function pageText(pdf: PdfDocument, number: number): Promise<string> {
    const page = await pdf.getPage(number);
    const { items } = await page.getTextContent();
    return items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : '')).join('');
}

export async function pdfToHtml(bytes: Uint8Array, deadline: Deadline): Promise<ConvertedHtml> {
    let pdf;
    try {
        // PDF.js takes ownership of the buffer it is given: pass a copy.
        pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    } catch (error) {
        if ((error as Error)?.name === 'PasswordException') throw new EncryptedDocumentError((error as Error).message);
        throw error;
    }
    try {
        const meta = await getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> }));
        const title = typeof meta.info['Title'] === 'string' ? meta.info['Title'].trim() : '';
        const pageTexts: string[] = [];
        for (let number = 1; number <= Math.min(pdf.numPages, MAX_PDF_PAGES); number++) {
            deadline.check();
            pageTexts.push(await pageText(pdf, number));
        }
        const { links } = await extractLinks(pdf).catch(() => ({ links: [] as string[] }));
        const linkList = [...new Set(links)].map((href) => `<li><a href="${escapeHtml(href)}">${escapeHtml(href)}</a></li>`).join('');
        const body = pageTexts.map((page) => `<section>${paragraphsHtml(page.replace(/\n(?=\S)/g, '\n\n'))}</section>`).join('\n');
        return { title, body: body + (linkList ? `<ul>${linkList}</ul>` : '') };
    } finally {
        await (pdf as unknown as { destroy?: () => Promise<void> }).destroy?.();
    }
}
