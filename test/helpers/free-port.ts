import { createServer } from 'node:net';

/**
 * A TCP port free right now on 127.0.0.1: listen on port 0, read it, close. Another process may take it before the
 * caller binds it (the Redis harness retries for that). Used by the test helpers and the bench alike.
 */
export async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
        });
    });
}
