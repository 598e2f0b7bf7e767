/**
 * A double-ended queue over an array with a moving head: `shift` is O(1) amortised, unlike
 * `Array.prototype.shift`, which copies the whole array on every call.
 */
export class Deque<T> implements Iterable<T> {
    private items: (T | undefined)[] = [];
    private head = 0;

    constructor(items: Iterable<T> = []) {
        for (const item of items) this.items.push(item);
    }

    get size(): number {
        return this.items.length - this.head;
    }

    push(item: T): void {
        this.items.push(item);
    }

    peekFront(): T | undefined {
        return this.size > 0 ? this.items[this.head] : undefined;
    }

    shift(): T | undefined {
        if (this.size === 0) return undefined;
        const item = this.items[this.head];
        this.items[this.head] = undefined;
        this.head += 1;
        // Compact once the dead prefix outweighs the live part, keeping memory proportional to size.
        if (this.head >= 1024 && this.head * 2 >= this.items.length) {
            this.items = this.items.slice(this.head);
            this.head = 0;
        }
        return item;
    }

    pop(): T | undefined {
        if (this.size === 0) return undefined;
        return this.items.pop();
    }

    /** Keeps the items for which `keep` is true, in order; returns the removed ones in order. */
    partition(keep: (item: T) => boolean): T[] {
        const kept: T[] = [];
        const removed: T[] = [];
        for (const item of this) (keep(item) ? kept : removed).push(item);
        this.items = kept;
        this.head = 0;
        return removed;
    }

    *[Symbol.iterator](): Iterator<T> {
        for (let i = this.head; i < this.items.length; i += 1) yield this.items[i] as T;
    }
}
