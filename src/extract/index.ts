// Page extraction: HTML (fetched or rendered) → PageData. Pure: no Crawlee, no browser, no I/O.
export { extractPage, MAX_HTML_CHARS, type ExtractOptions, type PageData } from './page.js';
export type { ExtractedLink } from './links.js';
export { collapseWhitespace } from './dom.js';
export { CONTEXT_BYTES, linkContexts, type LinkContext } from './context.js';
