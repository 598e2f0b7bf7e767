// Public API of crawlee-focus. Pure cores first, then the reports, then the Crawlee adapter.
export * from './stat/index.js';
export * from './url/index.js';
export * from './frontier/index.js';
export * from './focus/index.js';
export * from './extract/index.js';
export * from './report/index.js';
export * from './crawlee/index.js';
