import { describe, expect, it } from 'vitest';

import { SettleMemory } from '../../src/crawlee/settle-memory.js';

const always = () => 0; // a draw that checks whenever the succession rule gives any chance
const never = () => 0.999_999;

describe('SettleMemory', () => {
    it('waits on a kind of page not seen yet, and reads the next page of a still kind at once unless a check is drawn', () => {
        const memory = new SettleMemory(never);
        expect(memory.shouldWait('https://conf.org/paper_main.1.html')).toBe(true);
        memory.record('https://conf.org/paper_main.1.html', false);
        expect(memory.shouldWait('https://conf.org/paper_main.2.html')).toBe(false); // the same URL template
        expect(memory.shouldWait('https://conf.org/papers.html')).toBe(true); // another template at the root
        expect(memory.counts).toEqual({ skipped: 1, waited: 2 });
        // The page read at load changed after it all the same: it counts as waited for, and its kind now always waits.
        memory.recordLateChange('https://conf.org/paper_main.2.html');
        expect(memory.counts).toEqual({ skipped: 0, waited: 3 });
        expect(memory.shouldWait('https://conf.org/paper_main.3.html')).toBe(true);
        const checking = new SettleMemory(always);
        checking.record('https://conf.org/paper_main.1.html', false);
        expect(checking.shouldWait('https://conf.org/paper_main.2.html')).toBe(true);
    });

    it('checks a still kind as the succession rule says: about 1 / (n + 2) of its pages after n still ones', () => {
        let draws = 0;
        const memory = new SettleMemory(() => (draws++ % 10) / 10); // 0, 0.1, …, 0.9: a tenth below each bar step
        for (let i = 0; i < 8; i++) memory.record(`https://conf.org/paper_main.${i}.html`, false);
        const waits = Array.from({ length: 100 }, (_, i) => memory.shouldWait(`https://conf.org/paper_main.${100 + i}.html`)).filter(Boolean).length;
        expect(waits).toBe(10); // 1 / (8 + 2) = 0.1: only the draws of 0 wait
    });

    it('always waits on a kind whose DOM changed after load, however many of its pages were still', () => {
        const memory = new SettleMemory(never);
        for (let i = 0; i < 20; i++) memory.record(`https://conf.org/papers.html?filter=${i}`, false);
        memory.record('https://conf.org/papers.html?filter=x', true);
        expect(memory.shouldWait('https://conf.org/papers.html?filter=y')).toBe(true);
    });

    it('lets a directory below the root speak for a new template in it, never the root for the whole site', () => {
        const memory = new SettleMemory(never);
        memory.record('https://cs.edu/people/ada', false);
        expect(memory.shouldWait('https://cs.edu/people/grace')).toBe(false);
        memory.record('https://cs.edu/about', false);
        expect(memory.shouldWait('https://cs.edu/contact')).toBe(true);
        memory.record('https://cs.edu/news/list', true);
        expect(memory.shouldWait('https://cs.edu/news/item-2')).toBe(true);
    });
});
