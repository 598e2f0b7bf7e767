/**
 * A conversion's time limit. A reader library's call cannot be interrupted in this thread, so the converters check
 * the deadline between units of work (PDF pages, sheets, slides) and after each library call, and a timer ends the
 * wait when a reader yields to the event loop.
 */
export class DocumentTimeoutError extends Error {}

export class Deadline {
    readonly #endsAt: number;

    constructor(readonly millis: number) {
        this.#endsAt = performance.now() + millis;
    }

    /** Throws {@link DocumentTimeoutError} once the time is up. */
    check(): void {
        if (performance.now() > this.#endsAt) throw new DocumentTimeoutError(`conversion took longer than ${this.millis} ms (option documentTimeoutMillis)`);
    }
}
