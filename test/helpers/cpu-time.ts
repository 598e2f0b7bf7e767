/**
 * Runs `work` and returns its result with the CPU time this process spent on it, in milliseconds. CPU time, not wall
 * time: a bound on it guards against quadratic or hanging code and still holds on a loaded two-core machine, where
 * wall time grows with whatever else runs.
 */
export function cpuMillis<T>(work: () => T): { result: T; millis: number } {
    const before = process.cpuUsage();
    const result = work();
    const { user, system } = process.cpuUsage(before);
    return { result, millis: (user + system) / 1_000 };
}
