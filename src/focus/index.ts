// Focused-crawl scoring: query, page relevance, link scores, harvest and stop rules.
export * from './query.js';
export * from './facets.js';
export * from './weights.js';
export * from './model.js';
export * from './url-shape.js';
export * from './furniture.js';
export * from './link-score.js';
export * from './harvest.js';
export * from './adaptive.js';
export * from './recall.js';
export * from './calibration.js';
export * from './focus.js';
export * from './locality.js';
export * from './listing.js';
export * from './frontier-ranking.js';
