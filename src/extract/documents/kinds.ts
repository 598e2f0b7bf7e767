/** Which document formats crawlee-focus reads, and how a response is recognised as one of them. */

/** A document format that converts to Markdown. */
export type DocumentKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'csv' | 'text';

/** Content types of each kind (what servers send; `application/octet-stream` is judged by the file's bytes and name). */
export const DOCUMENT_CONTENT_TYPES: Readonly<Record<DocumentKind, readonly string[]>> = Object.freeze({
    pdf: ['application/pdf', 'application/x-pdf'],
    docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    odt: ['application/vnd.oasis.opendocument.text'],
    ods: ['application/vnd.oasis.opendocument.spreadsheet'],
    odp: ['application/vnd.oasis.opendocument.presentation'],
    csv: ['text/csv', 'application/csv', 'text/comma-separated-values'],
    text: ['text/plain'],
});

/** Every content type above, plus the generic one, for crawlers that must be told which types to accept. */
export const DOCUMENT_MIME_TYPES: readonly string[] = Object.freeze([...Object.values(DOCUMENT_CONTENT_TYPES).flat(), 'application/octet-stream']);

/** File extensions of each kind, for links whose URL names the format. */
const EXTENSIONS: Readonly<Record<string, DocumentKind>> = Object.freeze({
    pdf: 'pdf',
    docx: 'docx',
    xlsx: 'xlsx',
    pptx: 'pptx',
    odt: 'odt',
    ods: 'ods',
    odp: 'odp',
    csv: 'csv',
    txt: 'text',
});

/** The document kind a URL's file extension names (`/forms/apply.pdf` → pdf), or null. */
export function documentKindOfUrl(url: string): DocumentKind | null {
    if (!URL.canParse(url)) return null;
    const { pathname } = new URL(url);
    const dot = pathname.lastIndexOf('.');
    if (dot < 0 || dot < pathname.lastIndexOf('/')) return null;
    return EXTENSIONS[pathname.slice(dot + 1).toLowerCase()] ?? null;
}

/** The kind a content type declares (parameters ignored), or null for HTML and everything else. */
export function documentKindOfContentType(contentType: string | null | undefined): DocumentKind | null {
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    for (const [kind, types] of Object.entries(DOCUMENT_CONTENT_TYPES) as [DocumentKind, readonly string[]][]) {
        if (types.includes(type)) return kind;
    }
    return null;
}

/** What a file's first bytes say it is: a PDF, a ZIP container (OOXML, ODF), an OLE container (encrypted Office, legacy Office). */
export function containerOf(bytes: Uint8Array): 'pdf' | 'zip' | 'ole' | null {
    const starts = (...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
    if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'pdf'; // %PDF-
    if (starts(0x50, 0x4b, 0x03, 0x04)) return 'zip';
    if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'ole';
    return null;
}
