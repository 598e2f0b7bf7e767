import { describe, expect, it } from 'vitest';

import { CrawlScope, scopeHost } from '../../src/url/index.js';

describe('CrawlScope', () => {
    it('learns its hosts from the start URLs, www. and a trailing dot aside, with their subdomains', () => {
        const scope = new CrawlScope();
        expect(scope.learnsFromSeeds).toBe(true);
        expect(scope.includes('https://anything.example/')).toBe(true); // no host yet
        scope.addStartUrl('https://WWW.Example.org./docs/');
        scope.addStartUrl('not a url');
        expect(scope.hosts()).toEqual(['example.org']);
        expect(scope.includes('https://example.org/a')).toBe(true);
        expect(scope.includes('https://docs.example.org/a')).toBe(true);
        expect(scope.includes('https://notexample.org/a')).toBe(false);
        expect(scope.includes('::')).toBe(false);
        expect(scope.isStartSite('www.example.org')).toBe(true);
        expect(scope.isStartSite('docs.example.org')).toBe(false);
    });

    it('keeps the hosts it was given, and subdomains out when asked', () => {
        const scope = new CrawlScope(['example.org'], false);
        scope.addStartUrl('https://other.net/');
        expect(scope.learnsFromSeeds).toBe(false);
        expect(scope.includes('https://other.net/')).toBe(false);
        expect(scope.includes('https://docs.example.org/')).toBe(false);
        expect(scope.includes('https://www.example.org/')).toBe(true);
        const restored = new CrawlScope([], true);
        restored.restore(scope.hosts());
        expect(restored.includes('https://docs.example.org/')).toBe(true);
    });

    it('scopeHost is lowercase, without www. or a trailing dot', () => {
        expect(scopeHost('WWW.E.Edu.')).toBe('e.edu');
        expect(scopeHost('wwwx.e.edu')).toBe('wwwx.e.edu');
    });
});
