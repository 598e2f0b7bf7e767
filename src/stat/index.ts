// Statistics helpers (pagesift_stat in the spec, algorithms.md §8): δ, special functions,
// Wilson intervals, Benjamini–Hochberg and the package's string hash. Pure functions, no I/O.
export * from './delta.js';
export * from './special.js';
export * from './interval.js';
export * from './multiple.js';
export * from './hash.js';
