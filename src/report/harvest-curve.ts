/** One point of the crawl's course: relevant pages delivered once `fetched` pages had been taken from the frontier. */
export interface CurvePoint {
    fetched: number;
    relevant: number;
}

/** Points kept at most; past it every other point is dropped and the spacing doubles, so a long crawl stays small. */
export const MAX_CURVE_POINTS = 400;

export interface HarvestCurveJSON {
    points: CurvePoint[];
    stride: number;
}

/**
 * Relevant pages found against pages fetched, as the crawl went: the data behind REPORT.html's chart. The first and the
 * latest point are always exact; in between the points are at least `stride` pages apart.
 */
export class HarvestCurve {
    private points: CurvePoint[] = [];
    private stride = 1;

    /** Notes the counts after a page; both only grow. */
    record(fetched: number, relevant: number): void {
        const last = this.points.at(-1);
        const beforeLast = this.points.at(-2);
        if (last && (fetched <= last.fetched || (beforeLast && fetched - beforeLast.fetched < this.stride))) {
            // Too close to the point before: the latest point moves on instead of a new one being kept.
            last.fetched = Math.max(last.fetched, fetched);
            last.relevant = Math.max(last.relevant, relevant);
            return;
        }
        this.points.push({ fetched, relevant });
        if (this.points.length > MAX_CURVE_POINTS) {
            const lastIndex = this.points.length - 1;
            this.points = this.points.filter((_, i) => i % 2 === 0 || i === lastIndex);
            this.stride *= 2;
        }
    }

    /** The points, with the final counts as the last one (a page may have failed after the last handled page). */
    toArray(final?: CurvePoint): CurvePoint[] {
        const points = this.points.map((p) => ({ ...p }));
        const last = points.at(-1);
        if (final && (!last || final.fetched > last.fetched || final.relevant !== last.relevant)) {
            if (last && final.fetched === last.fetched) last.relevant = final.relevant;
            else points.push({ ...final });
        }
        return points;
    }

    toJSON(): HarvestCurveJSON {
        return { points: this.toArray(), stride: this.stride };
    }

    static fromJSON(json: HarvestCurveJSON | undefined): HarvestCurve {
        const curve = new HarvestCurve();
        if (json) {
            curve.points = json.points.map((p) => ({ ...p }));
            curve.stride = Math.max(1, json.stride);
        }
        return curve;
    }
}
