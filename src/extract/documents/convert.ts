/**
 * Documents as pages: a PDF, Office or OpenDocument file, a CSV or a plain-text answer is converted to HTML by its
 * format's reader and then read by `extractPage`, like any page, so it gets the same Markdown, text, title and links.
 * Never throws on file content: a file it cannot read comes back with a reason.
 */
import JSZip from 'jszip';
import { extractPage, type PageData } from '../page.js';
import { parseCsv } from './delimited.js';
import { documentHtml, paragraphsHtml, tableHtml } from './html.js';
import { containerOf, documentKindOfContentType, documentKindOfUrl, type DocumentKind } from './kinds.js';
import { docxToHtml, odfToHtml, pptxToHtml, xlsxToHtml, type ConvertedHtml } from './office.js';
import { EncryptedDocumentError, pdfToHtml } from './pdf.js';
import { Deadline, DocumentTimeoutError } from './deadline.js';

/** Limits of {@link convertDocument}. */
export interface DocumentLimits {
    /**
     * Largest file read, in bytes; a larger one is skipped as `document-too-large`.
     * @default MAX_DOCUMENT_BYTES (20 MiB)
     */
    maxBytes?: number;
    /**
     * Time one conversion may take; a slower one is skipped as `document-timeout`.
     * @default DOCUMENT_TIMEOUT_MILLIS (30 s)
     */
    timeoutMillis?: number;
}

/** 20 MiB: larger than nearly every form, prospectus or report, small enough to hold in memory several at a time. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
/** 30 s: a 20 MiB text PDF converts in a few seconds here; a file that takes longer is pathological. */
export const DOCUMENT_TIMEOUT_MILLIS = 30_000;

/** Why a document was not read. */
export type DocumentSkipReason =
    | 'document-too-large'
    | 'document-encrypted'
    | 'document-corrupt'
    | 'document-no-text'
    | 'document-timeout'
    | 'document-unsupported';

export type DocumentConversion =
    | { ok: true; kind: DocumentKind; page: PageData }
    | { ok: false; kind: DocumentKind | null; reason: DocumentSkipReason; message: string };

/** A known failure, thrown inside a conversion and turned into its result. */
class Skip extends Error {
    constructor(readonly reason: DocumentSkipReason, message: string) {
        super(message);
    }
}

const OOXML: ReadonlySet<DocumentKind> = new Set(['docx', 'xlsx', 'pptx']);
const ZIPPED: ReadonlySet<DocumentKind> = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);
const ODF_TYPES: Readonly<Record<string, DocumentKind>> = {
    'application/vnd.oasis.opendocument.text': 'odt',
    'application/vnd.oasis.opendocument.spreadsheet': 'ods',
    'application/vnd.oasis.opendocument.presentation': 'odp',
};

/** The format inside a ZIP container, from its parts. */
async function zippedKind(bytes: Uint8Array): Promise<DocumentKind | null> {
    const zip = await JSZip.loadAsync(bytes);
    if (zip.file('word/document.xml')) return 'docx';
    if (zip.file('xl/workbook.xml')) return 'xlsx';
    if (zip.file('ppt/presentation.xml')) return 'pptx';
    const mimetype = (await zip.file('mimetype')?.async('string'))?.trim();
    return mimetype ? (ODF_TYPES[mimetype] ?? null) : null;
}

/** The document's kind from what the response declares and what its bytes are; throws a Skip when they cannot be read. */
async function kindOf(bytes: Uint8Array, declared: DocumentKind | null): Promise<DocumentKind> {
    const container = containerOf(bytes);
    if (container === 'pdf') return 'pdf';
    if (container === 'zip') {
        const found = await zippedKind(bytes).catch(() => {
            throw new Skip('document-corrupt', 'the ZIP container cannot be opened (damaged or cut short)');
        });
        if (found) return found;
        throw new Skip('document-unsupported', 'a ZIP file that is neither an Office nor an OpenDocument file');
    }
    if (container === 'ole') {
        // An encrypted DOCX/XLSX/PPTX is an OLE container holding the encrypted package (MS-OFFCRYPTO).
        if (declared && OOXML.has(declared)) throw new Skip('document-encrypted', `an encrypted ${declared.toUpperCase()} file (password-protected)`);
        throw new Skip('document-unsupported', 'a legacy binary Office file (.doc, .xls, .ppt); save it as DOCX, XLSX or PPTX');
    }
    if (declared === 'pdf') throw new Skip('document-corrupt', 'declared as PDF but does not start with %PDF-');
    if (declared && ZIPPED.has(declared)) throw new Skip('document-corrupt', `declared as ${declared.toUpperCase()} but is not a ZIP container`);
    if (declared === 'csv' || declared === 'text') return declared;
    throw new Skip('document-unsupported', 'not a document format crawlee-focus reads');
}

async function toHtml(kind: DocumentKind, bytes: Uint8Array, deadline: Deadline): Promise<ConvertedHtml> {
    switch (kind) {
        case 'pdf':
            return pdfToHtml(bytes, deadline);
        case 'docx':
            return docxToHtml(bytes);
        case 'xlsx':
            return xlsxToHtml(bytes, deadline);
        case 'pptx':
            return pptxToHtml(bytes, deadline);
        case 'odt':
        case 'ods':
        case 'odp':
            return odfToHtml(bytes);
        case 'csv':
            return { title: '', body: tableHtml(parseCsv(new TextDecoder().decode(bytes)).map((row) => row.map((text) => ({ text })))) };
        case 'text':
            return { title: '', body: paragraphsHtml(new TextDecoder().decode(bytes)) };
    }
}

function withTimeout<T>(work: Promise<T>, millis: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Skip('document-timeout', `conversion took longer than ${millis} ms (option documentTimeoutMillis)`)), millis);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Converts a fetched document to a page.
 *
 * @param source The final URL (relative links resolve against it, and its extension hints at the format) and the
 *   response's content type.
 */
export async function convertDocument(bytes: Uint8Array, source: { url: string; contentType?: string | null }, limits: DocumentLimits = {}): Promise<DocumentConversion> {
    const { maxBytes = MAX_DOCUMENT_BYTES, timeoutMillis = DOCUMENT_TIMEOUT_MILLIS } = limits;
    const declared = documentKindOfContentType(source.contentType) ?? documentKindOfUrl(source.url);
    let kind: DocumentKind | null = declared;
    try {
        if (bytes.length > maxBytes) throw new Skip('document-too-large', `${bytes.length} bytes, more than ${maxBytes} (option maxDocumentBytes)`);
        kind = await kindOf(bytes, declared);
        const deadline = new Deadline(timeoutMillis);
        const { title, body } = await withTimeout(toHtml(kind, bytes, deadline), timeoutMillis);
        deadline.check();
        const page = extractPage(documentHtml(title, body), source.url);
        if (page.text.trim() === '') throw new Skip('document-no-text', kind === 'pdf' ? 'no text layer (a scanned PDF? OCR is not done)' : 'the file holds no text');
        return { ok: true, kind, page };
    } catch (error) {
        if (error instanceof Skip) return { ok: false, kind, reason: error.reason, message: error.message };
        if (error instanceof DocumentTimeoutError) return { ok: false, kind, reason: 'document-timeout', message: error.message };
        if (error instanceof EncryptedDocumentError) return { ok: false, kind, reason: 'document-encrypted', message: 'the PDF needs a password' };
        return { ok: false, kind, reason: 'document-corrupt', message: `cannot be read: ${String((error as Error)?.message ?? error).slice(0, 200)}` };
    }
}
