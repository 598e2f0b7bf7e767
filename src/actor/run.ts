// Entry point of the Actor's container: runs the Actor (see main.ts).
import { runActor } from './main.js';

await runActor();
