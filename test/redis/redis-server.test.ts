import { createServer } from 'node:net';

import { describe, expect, it } from 'vitest';

import { freePort, redisUnavailable, startRedis } from '../helpers/redis-server.js';

if (redisUnavailable) console.warn(redisUnavailable);

describe.skipIf(redisUnavailable !== null)('the test Redis harness', () => {
    it('picks another port when the one it probed was taken before Redis could bind it, and stops by PID', async () => {
        const squatter = createServer();
        await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
        const taken = (squatter.address() as { port: number }).port;
        const ports = [taken];
        const redis = await startRedis({ pickPort: async () => ports.shift() ?? freePort() });
        try {
            expect(redis.port).not.toBe(taken);
            expect(await redis.client().ping()).toBe('PONG');
            expect(() => process.kill(redis.pid, 0)).not.toThrow();
        } finally {
            await redis.stop();
            squatter.close();
        }
        expect(() => process.kill(redis.pid, 0)).toThrow(); // gone
    });
});
