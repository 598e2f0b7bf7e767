import { vi } from 'vitest';

/** Captures what the command line prints: `console.log` lines in `out`, `console.error` lines in `err`. */
export function captureConsole(): { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args) => void out.push(args.join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...args) => void err.push(args.join(' ')));
    return { out, err };
}
