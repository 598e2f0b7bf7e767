import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

/** Folders of pure algorithms: they may import each other, never a package or a Node module (no I/O, no Crawlee, no Redis). */
const PURE = ['src/frontier', 'src/url', 'src/focus', 'src/stat'];

describe('the pure core', () => {
    it.each(PURE)('%s imports only relative modules', (folder) => {
        const outside: string[] = [];
        for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
            const source = readFileSync(join(folder, file), 'utf8');
            // Static imports and re-exports (possibly over several lines), side-effect imports, dynamic imports.
            const specifiers = [
                ...source.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm),
                ...source.matchAll(/^import\s+'([^']+)'/gm),
                ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
            ].map((match) => match[1]!);
            for (const specifier of specifiers) if (!specifier.startsWith('.')) outside.push(`${file}: ${specifier}`);
        }
        expect(outside).toEqual([]);
    });
});
