import { createHash } from 'node:crypto';

/** Crawlee's own request-id scheme: 15 characters of the base64 SHA-256 of the unique key. */
export function requestIdOf(uniqueKey: string): string {
    return createHash('sha256').update(uniqueKey).digest('base64').replace(/[+/=]/g, '').slice(0, 15);
}
