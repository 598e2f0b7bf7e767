import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Actor } from 'apify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { chargingGate } from '../../src/actor/main.js';

// The SDK's local pay-per-event mode: every event costs $1, so a $3 limit is three pages.
describe('the pay-per-event delivery gate', () => {
    let storage: string;
    beforeAll(async () => {
        storage = await mkdtemp(join(tmpdir(), 'charging-gate-'));
        Object.assign(process.env, {
            ACTOR_TEST_PAY_PER_EVENT: 'true',
            ACTOR_USE_CHARGING_LOG_DATASET: 'true',
            ACTOR_MAX_TOTAL_CHARGE_USD: '3',
            CRAWLEE_STORAGE_DIR: storage,
            APIFY_LOCAL_STORAGE_DIR: storage,
        });
        await Actor.init({ gracefulShutdown: false });
    });
    afterAll(async () => {
        await Actor.exit({ exit: false });
        await rm(storage, { recursive: true, force: true });
    });

    it('admits exactly as many pages as the limit pays for while earlier charges are still being written', async () => {
        const gate = chargingGate()!;
        expect(gate).toBeDefined();
        const first = gate.admit({} as never);
        expect(first).toEqual({ deliver: true, stop: false });
        // The first page's charge is under way (its log entry not yet written) when the next page asks.
        const firstCharged = gate.delivered!({} as never);
        const second = gate.admit({} as never);
        expect(second).toEqual({ deliver: true, stop: false });
        const secondCharged = gate.delivered!({} as never);
        const third = gate.admit({} as never);
        expect(third).toEqual({ deliver: true, stop: true });
        const thirdCharged = gate.delivered!({} as never);
        expect(gate.admit({} as never)).toEqual({ deliver: false, stop: true });
        await Promise.all([firstCharged, secondCharged, thirdCharged]);
        expect(gate.admit({} as never)).toEqual({ deliver: false, stop: true });
        expect(Actor.getChargingManager().getChargedEventCount('relevant-page')).toBe(3);
    });
});
