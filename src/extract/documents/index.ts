// Documents (PDF, Office, OpenDocument, CSV, plain text) → PageData. Pure: no Crawlee, no browser, no I/O.
export { convertDocument, DOCUMENT_TIMEOUT_MILLIS, MAX_DOCUMENT_BYTES, type DocumentConversion, type DocumentLimits, type DocumentSkipReason } from './convert.js';
export { DOCUMENT_CONTENT_TYPES, DOCUMENT_MIME_TYPES, documentKindOfContentType, documentKindOfUrl, type DocumentKind } from './kinds.js';
export { parseCsv } from './delimited.js';
