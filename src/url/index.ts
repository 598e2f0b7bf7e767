// URL rules (algorithms.md §2.1–2.3, §7.2): cleaning, the pre-fetch filter, URL templates, dedup
// keys, site hosts and language segments. Pure functions over the WHATWG URL parser, no I/O.
export { InvalidUrlError } from './errors.js';
export * from './clean.js';
export * from './skip.js';
export * from './shape.js';
export * from './dedup.js';
export * from './language.js';
export * from './robots.js';
export * from './sitemap.js';
export * from './globs.js';
export * from './scope.js';
