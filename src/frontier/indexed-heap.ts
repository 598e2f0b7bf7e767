/**
 * A binary heap that tells every element its position (through `placed`), so an element can be
 * removed or re-prioritised in O(log n) without searching for it. `ahead(a, b)` is true when `a`
 * must come out before `b`; it must be a strict total order.
 */
export class IndexedHeap<E> {
    /** Heap-ordered: the children of `items[i]` are `items[2i + 1]` and `items[2i + 2]`. */
    readonly items: E[] = [];

    constructor(
        private readonly ahead: (a: E, b: E) => boolean,
        private readonly placed: (item: E, position: number) => void,
    ) {}

    get size(): number {
        return this.items.length;
    }

    peek(): E | undefined {
        return this.items[0];
    }

    push(item: E): void {
        this.items.push(item);
        this.siftUp(this.items.length - 1, item);
    }

    /** Removes the element at `position` (as last reported through `placed`). */
    removeAt(position: number): void {
        const last = this.items.pop() as E;
        if (position === this.items.length) return;
        this.items[position] = last;
        this.update(position);
    }

    /** Restores the order after the priority of the element at `position` changed. */
    update(position: number): void {
        const item = this.items[position] as E;
        if (position > 0 && this.ahead(item, this.items[(position - 1) >> 1] as E)) this.siftUp(position, item);
        else this.siftDown(position, item);
    }

    /** Re-establishes the heap order after arbitrary changes, in O(n). */
    rebuild(): void {
        const { items } = this;
        for (let i = 0; i < items.length; i += 1) this.placed(items[i] as E, i);
        for (let i = (items.length >> 1) - 1; i >= 0; i -= 1) this.siftDown(i, items[i] as E);
    }

    private siftUp(start: number, item: E): void {
        const { items } = this;
        let position = start;
        while (position > 0) {
            const parentPosition = (position - 1) >> 1;
            const parent = items[parentPosition] as E;
            if (!this.ahead(item, parent)) break;
            items[position] = parent;
            this.placed(parent, position);
            position = parentPosition;
        }
        items[position] = item;
        this.placed(item, position);
    }

    private siftDown(start: number, item: E): void {
        const { items } = this;
        const { length } = items;
        let position = start;
        for (;;) {
            let child = 2 * position + 1;
            if (child >= length) break;
            const right = child + 1;
            if (right < length && this.ahead(items[right] as E, items[child] as E)) child = right;
            const childItem = items[child] as E;
            if (!this.ahead(childItem, item)) break;
            items[position] = childItem;
            this.placed(childItem, position);
            position = child;
        }
        items[position] = item;
        this.placed(item, position);
    }
}
