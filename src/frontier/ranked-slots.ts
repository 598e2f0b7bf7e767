/**
 * `a` ranks above `b`: higher score, then earlier discovery (smaller seq). A strict total order
 * because seqs are unique.
 */
function ranksAbove(score: Float64Array, seq: Float64Array, a: number, b: number): boolean {
    const scoreA = score[a]!;
    const scoreB = score[b]!;
    return scoreA > scoreB || (scoreA === scoreB && seq[a]! < seq[b]!);
}

/**
 * Numbered slots with a rank (score, discovery seq), held in a best-first and a worst-first
 * binary heap, so the best and the worst slot come out, and any slot can be removed or re-ranked,
 * in O(log n). Ranks, heaps and heap positions live in typed arrays: comparisons read contiguous
 * memory, and moving a slot stores integers instead of pointers (no GC write barrier).
 */
export class RankedSlots {
    score = new Float64Array(0);
    seq = new Float64Array(0);
    readonly best = new SlotHeap(this, true);
    readonly worst = new SlotHeap(this, false);
    private readonly freed: number[] = [];
    /** Slots below this number have been handed out at least once. */
    private used = 0;

    get size(): number {
        return this.best.size;
    }

    ranksAbove(a: number, b: number): boolean {
        return ranksAbove(this.score, this.seq, a, b);
    }

    /** Takes a free slot with the given rank and returns its number. */
    add(score: number, seq: number): number {
        const slot = this.freed.pop() ?? this.freshSlot();
        this.score[slot] = score;
        this.seq[slot] = seq;
        this.best.push(slot);
        this.worst.push(slot);
        return slot;
    }

    /** Frees a slot; its number may be handed out again. */
    delete(slot: number): void {
        this.best.remove(slot);
        this.worst.remove(slot);
        this.freed.push(slot);
    }

    setScore(slot: number, score: number): void {
        this.score[slot] = score;
        this.best.update(slot);
        this.worst.update(slot);
    }

    /** Re-ranks every slot after scores were written directly into {@link score}. */
    rebuild(): void {
        this.best.rebuild();
        this.worst.rebuild();
    }

    private freshSlot(): number {
        if (this.used === this.score.length) {
            const capacity = Math.max(64, this.used * 2);
            this.score = grown(this.score, capacity);
            this.seq = grown(this.seq, capacity);
            this.best.grow(capacity);
            this.worst.grow(capacity);
        }
        this.used += 1;
        return this.used - 1;
    }
}

function grown<A extends Float64Array | Int32Array>(array: A, capacity: number): A {
    const bigger = new (array.constructor as new (length: number) => A)(capacity);
    bigger.set(array);
    return bigger;
}

/** One direction of {@link RankedSlots}: a binary heap of slot numbers that knows each slot's position. */
class SlotHeap {
    /** Heap-ordered slots: the children of `heap[i]` are `heap[2i + 1]` and `heap[2i + 2]`. */
    heap = new Int32Array(0);
    private position = new Int32Array(0);
    size = 0;

    constructor(
        private readonly slots: RankedSlots,
        private readonly bestFirst: boolean,
    ) {}

    /** The first slot (best or worst), or -1 if empty. */
    top(): number {
        return this.size > 0 ? this.heap[0]! : -1;
    }

    grow(capacity: number): void {
        this.heap = grown(this.heap, capacity);
        this.position = grown(this.position, capacity);
    }

    push(slot: number): void {
        this.size += 1;
        this.siftUp(this.size - 1, slot);
    }

    /**
     * Floyd's bottom-up removal: walk the hole down to a leaf promoting the first child (one
     * comparison per level instead of two), then sift the last slot up from there; being near the
     * bottom, it rarely climbs far.
     */
    remove(slot: number): void {
        const { heap } = this;
        this.size -= 1;
        const { size } = this;
        const last = heap[size]!;
        let hole = this.position[slot]!;
        if (hole === size) return;
        for (let child = 2 * hole + 1; child < size; child = 2 * hole + 1) {
            if (child + 1 < size && this.precedes(heap[child + 1]!, heap[child]!)) child += 1;
            this.place(heap[child]!, hole);
            hole = child;
        }
        this.siftUp(hole, last);
    }

    /** Restores the order after the slot's rank changed. */
    update(slot: number): void {
        const position = this.position[slot]!;
        if (position > 0 && this.precedes(slot, this.heap[(position - 1) >> 1]!)) this.siftUp(position, slot);
        else this.siftDown(position, slot);
    }

    rebuild(): void {
        for (let i = this.size - 1; i >= 0; i -= 1) this.siftDown(i, this.heap[i]!);
    }

    private precedes(a: number, b: number): boolean {
        const { score, seq } = this.slots;
        return this.bestFirst ? ranksAbove(score, seq, a, b) : ranksAbove(score, seq, b, a);
    }

    private place(slot: number, position: number): void {
        this.heap[position] = slot;
        this.position[slot] = position;
    }

    private siftUp(start: number, slot: number): void {
        let position = start;
        while (position > 0) {
            const parentPosition = (position - 1) >> 1;
            const parent = this.heap[parentPosition]!;
            if (!this.precedes(slot, parent)) break;
            this.place(parent, position);
            position = parentPosition;
        }
        this.place(slot, position);
    }

    private siftDown(start: number, slot: number): void {
        const { heap, size } = this;
        let position = start;
        for (let child = 2 * position + 1; child < size; child = 2 * position + 1) {
            if (child + 1 < size && this.precedes(heap[child + 1]!, heap[child]!)) child += 1;
            const childSlot = heap[child]!;
            if (!this.precedes(childSlot, slot)) break;
            this.place(childSlot, position);
            position = child;
        }
        this.place(slot, position);
    }
}
