// The Apify Actor: `node dist/actor/run.js` (or `npm run actor`) in an Actor's container or locally.
export { parseActorInput, CRAWLER_TYPES, type ActorInput, type ParsedInput } from './input.js';
export { finalMessage, progressMessage, runActor } from './main.js';
