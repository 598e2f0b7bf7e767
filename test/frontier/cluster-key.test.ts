import { describe, expect, it } from 'vitest';
import { HOME_CLUSTER, clusterKey } from '../../src/frontier/cluster-key.js';

describe('clusterKey', () => {
    it('puts the home pages of every host into one cluster (pagesift examples)', () => {
        expect(HOME_CLUSTER).toBe('*/');
        expect(clusterKey('https://e.com/')).toBe('*/');
        expect(clusterKey('https://cs.e.com/en/')).toBe('*/');
        expect(clusterKey('https://e.com/en.html')).toBe('*/');
        expect(clusterKey('https://e.com/en-gb/')).toBe('*/');
        expect(clusterKey('https://e.com/index.php')).toBe('*/');
        expect(clusterKey('https://e.com/Index.HTML')).toBe('*/');
    });

    it('keys other pages by host and first segment', () => {
        expect(clusterKey('https://e.com/news/')).toBe('e.com/news');
        expect(clusterKey('https://e.com/study')).toBe('e.com/study');
        expect(clusterKey('https://www.e.com:8080/study/intl/visa?x=1')).toBe('www.e.com/study');
        // language prefixes are not skipped here, unlike subtrees
        expect(clusterKey('https://e.com/en/about')).toBe('e.com/en');
        expect(clusterKey('https://e.com/eng/')).toBe('e.com/eng');
        expect(clusterKey('https://e.com/en-abcde/')).toBe('e.com/en-abcde');
        // an ambiguous bare code is a department, not a language home
        expect(clusterKey('https://e.com/cs/')).toBe('e.com/cs');
        expect(clusterKey('https://e.com/cs-cz/')).toBe('*/');
    });

    it('explains an unparsable URL', () => {
        expect(() => clusterKey('not a url')).toThrow(/Invalid URL/);
    });
});
