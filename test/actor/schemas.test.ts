import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { getActorSchemaValidator, getDatasetSchemaValidator, getKeyValueStoreSchemaValidator, getOutputSchemaValidator } from '@apify/json_schemas';
import { validateInputSchema, validateInputUsingValidator } from '@apify/input_schema';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';

import { parseActorInput } from '../../src/actor/input.js';
import { REPORT_HTML_KEY } from '../../src/index.js';

const ACTOR_DIR = join(import.meta.dirname, '..', '..', '.actor');
const read = (name: string) => JSON.parse(readFileSync(join(ACTOR_DIR, name), 'utf8'));

describe('the Actor definition (.actor/)', () => {
    it('passes the platform\'s own validators: actor.json, the dataset, output and key-value-store schemas', () => {
        const actor = read('actor.json');
        const checks: [string, ReturnType<typeof getActorSchemaValidator>, unknown][] = [
            ['actor.json', getActorSchemaValidator(), actor],
            ['dataset_schema.json', getDatasetSchemaValidator(), read('dataset_schema.json')],
            ['output_schema.json', getOutputSchemaValidator(), read('output_schema.json')],
            ['key_value_store_schema.json', getKeyValueStoreSchemaValidator(), read('key_value_store_schema.json')],
        ];
        for (const [name, validate, value] of checks) expect(validate(value), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        // `input`/`output`, not their aliases: apify-cli 1.10 reads only these (apify-notes §1).
        expect(actor).toMatchObject({ input: './input_schema.json', output: './output_schema.json' });
        expect(actor.inputSchema).toBeUndefined();
    });

    it('names every record the crawl writes in the key-value store schema, and links the report page from the output', () => {
        const keys = Object.values(read('key_value_store_schema.json').collections as Record<string, { key?: string; keyPrefix?: string }>).map((c) => c.key ?? `${c.keyPrefix}*`);
        expect(keys).toEqual(expect.arrayContaining(['FOCUS_REPORT', 'LEARNED_RULES', REPORT_HTML_KEY, 'FOCUS_STATE_*']));
        const templates = Object.values(read('output_schema.json').properties as Record<string, { template: string }>).map((p) => p.template);
        expect(templates).toContain(`{{links.apiDefaultKeyValueStoreUrl}}/records/${REPORT_HTML_KEY}`);
    });

    it('has an input schema the platform accepts, every field with a title, a description and a default or prefill', () => {
        const schema = read('input_schema.json');
        const ajv = new Ajv2019({ strict: false, unicodeRegExp: false });
        expect(() => validateInputSchema(ajv, schema)).not.toThrow();
        for (const [name, field] of Object.entries<Record<string, unknown>>(schema.properties)) {
            expect(field.title, name).toBeTruthy();
            expect(field.description, name).toBeTruthy();
            expect('default' in field || 'prefill' in field, name).toBe(true);
        }
        // The defaults the platform fills in, with the prefilled start URL, are an input the Actor accepts.
        const defaults = Object.fromEntries(Object.entries<Record<string, unknown>>(schema.properties).filter(([, f]) => 'default' in f).map(([k, f]) => [k, f.default]));
        const input = { ...defaults, startUrls: schema.properties.startUrls.prefill, query: schema.properties.query.prefill };
        expect(validateInputUsingValidator(ajv.compile(schema), schema, input)).toEqual([]);
        expect(parseActorInput(input)).toMatchObject({ ok: true, options: { maxPages: 100, mode: 'adaptive', stop: 'adaptive' } });
        // The schema's default and the code's agree: an input without a crawler type is the same crawl.
        expect(parseActorInput({ startUrls: input.startUrls })).toMatchObject({ ok: true, options: { mode: 'adaptive' } });
    });

    it('builds on the Apify Playwright image whose Playwright is exactly the one in package.json', () => {
        const dockerfile = readFileSync(join(ACTOR_DIR, 'Dockerfile'), 'utf8');
        const { dependencies } = JSON.parse(readFileSync(join(ACTOR_DIR, '..', 'package.json'), 'utf8'));
        const images = [...dockerfile.matchAll(/^FROM apify\/actor-node-playwright-chrome:(\d+)-(\S+)/gm)];
        expect(images.length).toBeGreaterThan(0);
        for (const [, node, playwright] of images) {
            expect(playwright).toBe(dependencies.playwright);
            expect(node).toBe('20');
        }
        expect(dependencies.playwright).toMatch(/^\d+\.\d+\.\d+$/); // pinned, no range
        expect(dockerfile).toMatch(/CMD \["node", "dist\/actor\/run\.js"\]/);
    });
});
