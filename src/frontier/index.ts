export { DIVERSITY_RATIO, BestFirstQueue, pickDiverse } from './best-first-queue.js';
export type { BestFirstQueueJSON, DiversityRule, Offer, QueueItem } from './best-first-queue.js';
export { HOME_CLUSTER, clusterKey } from './cluster-key.js';
export { ExplorationLedger, SECTION_SAMPLE, SectionExploration, opensSection, pickExploration, sectionOf } from './exploration.js';
export type { ExplorationCandidate, ExplorationLedgerJSON, SectionExplorationJSON } from './exploration.js';
export { Admission } from './admission.js';
export type { Admitted, AdmissionRules, FrontierSkipReason, Refused } from './admission.js';
export { InFlightRequests } from './in-flight.js';
export type { Flight } from './in-flight.js';
export { PoliteQueue, politenessHost } from './polite-queue.js';
export type { PoliteGate, PoliteOffer, PoliteQueueEntry, PoliteQueueJSON, RankedEntry } from './polite-queue.js';
export {
    RewriteRuleLearner,
    WHOLE_PARAM_VALUES,
    requiredConfirmations,
    ruleSupport,
} from './rewrite-rules.js';
export type { RewriteRuleInfo, RewriteRuleLearnerJSON, RewriteRuleLearnerOptions } from './rewrite-rules.js';
export { TieredQueue } from './tiered-queue.js';
export type { TieredItem, TieredPopOptions, TieredQueueJSON } from './tiered-queue.js';
export { TrapLearner } from './trap-learner.js';
export type { DemotionSource, FailingPartInfo, Seen, TrapInfo, TrapLearnerJSON, TrapLearnerOptions } from './trap-learner.js';
export { textFingerprint, textPrints } from './fingerprint.js';
export type { TextPrints } from './fingerprint.js';
export { NEAR_DUPLICATE_DISTANCE, NEAR_DUPLICATE_MIN_WORDS, NearDuplicateIndex, SHINGLE_WORDS, hammingDistance, simHash } from './near-duplicate.js';
export type { NearDuplicateIndexOptions, SimHash } from './near-duplicate.js';
export { DISCOVERY_PRIOR_PAGES, DiscoveryYield, directoryOf } from './discovery.js';
export type { DiscoveryYieldJSON } from './discovery.js';
export { DEFAULT_RESERVE_CAPACITY, LinkReserve } from './link-reserve.js';
export type { HoldOutcome, LinkReserveJSON, ReserveCause, ReservedLink } from './link-reserve.js';
export { DEFAULT_FRONTIER_STORE_OPTIONS, LOG_START, ZERO_COUNTERS, clampScore, deriveStatus, resolveFrontierStoreOptions } from './frontier-store.js';
export type {
    CommitOutcome,
    CommitResult,
    EnqueueOutcome,
    EnqueueResult,
    FinishReason,
    FrontierCounters,
    FrontierLease,
    FrontierOffer,
    FrontierStatus,
    FrontierStore,
    FrontierStoreOptions,
    LeaseBatch,
    LeaseRef,
    LeaseStatus,
    LoggedEvent,
    OwedDelivery,
    ResolvedFrontierStoreOptions,
    RetryResult,
} from './frontier-store.js';
export { InProcessFrontier, MemoryFrontierStore } from './memory-frontier-store.js';
export { LeaseHeartbeat } from './lease-heartbeat.js';
export type { LeaseHeartbeatOptions } from './lease-heartbeat.js';
export type { InProcessFrontierJSON, MemoryFrontierStoreOptions } from './memory-frontier-store.js';
export { CrawlIdentityMismatchError, assertSameCrawl, identityDifferences, normalizeIdentity, optionsHash } from './crawl-identity.js';
export type { CrawlIdentity } from './crawl-identity.js';
export { HostSchedule } from './host-schedule.js';
export { SkipTally } from './skip-tally.js';
