/** Tick spacing giving 4 to 10 ticks up to `max`: 1, 2 or 5 times a power of ten. */
export function tickStep(max: number): number {
    if (!(max > 0)) return 1;
    const raw = max / 8;
    const power = 10 ** Math.floor(Math.log10(raw));
    return [1, 2, 5, 10].map((m) => m * power).find((step) => max / step <= 10)!;
}
