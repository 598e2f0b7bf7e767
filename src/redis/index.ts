// The Redis side of a crawl shared by several workers: I/O only, over the pure frontier store contract in src/frontier.
export { RedisFrontierStore } from './redis-frontier-store.js';
export type { RedisFrontierStoreOptions } from './redis-frontier-store.js';
export { FRONTIER_KEY_NAMES, crawlKeys } from './keys.js';
export type { CrawlKeys, FrontierKeyName } from './keys.js';
