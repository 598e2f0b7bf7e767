import { describe, expect, it } from 'vitest';
import {
    isEnglishSegment,
    isForeignLanguageSegment,
    isLanguageCode,
    isLanguageName,
    stripLeadingLanguage,
} from '../../src/url/index.js';

describe('isLanguageCode', () => {
    it('accepts two-letter codes with an optional region or script, any case, - or _', () => {
        for (const s of ['en', 'de', 'ja', 'zh', 'EN', 'en-gb', 'en-US', 'en_US', 'pt-br', 'pt_BR', 'zh-hans', 'zh-Hant', 'es-419', 'sr-latn']) {
            expect(isLanguageCode(s), s).toBe(true);
        }
    });

    it('accepts country and three-letter codes that sites use for a language section', () => {
        for (const s of ['jp', 'kr', 'cn', 'chn', 'jpn', 'kor', 'ua']) expect(isLanguageCode(s), s).toBe(true);
    });

    it('rejects letters that are not a language code of a localised site', () => {
        for (const s of ['kb', 'ui', 'js', 'qa', 'vc', 'wp', 'at', 'by-sa', 'at-spi', 'pd-html', 'ab', 'za', 'sg', 'la', 'tv']) {
            expect(isLanguageCode(s), s).toBe(false);
        }
    });

    it('rejects malformed segments', () => {
        for (const s of ['', 'e', 'eng', 'english', 'en-', 'en-g', 'en-abcde', 'en--gb', 'e1', '12', 'en-g!']) {
            expect(isLanguageCode(s), s).toBe(false);
        }
    });

    it('/cs/ is computer science, /cs-cz/ is Czech (and likewise it, id, hr, ms, ml, my, bs, uk)', () => {
        // A department mistaken for a language is multiplied by the foreign-language factor and
        // can hide the pages a query asks for; a Czech section mistaken for a department costs
        // little, because its pages carry no English query words. See src/url/language.ts.
        for (const s of ['cs', 'it', 'id', 'hr', 'ms', 'ml', 'my', 'bs', 'uk']) {
            expect(isLanguageCode(s), s).toBe(false);
            expect(isForeignLanguageSegment(s), s).toBe(false);
        }
        for (const s of ['cs-cz', 'it-it', 'id-id', 'hr-hr', 'ms-my', 'uk-ua', 'cs_CZ']) {
            expect(isLanguageCode(s), s).toBe(true);
            expect(isForeignLanguageSegment(s), s).toBe(true);
        }
    });
});

describe('isLanguageName', () => {
    it('accepts english and endonyms, ASCII-folded, native and percent-encoded', () => {
        for (const s of ['english', 'English', 'deutsch', 'francais', 'français', 'fran%C3%A7ais', 'espanol', 'español', 'italiano', 'nihongo', '日本語', '%E4%B8%AD%E6%96%87', 'русский', 'svenska']) {
            expect(isLanguageName(s), s).toBe(true);
        }
    });

    it('rejects English exonyms, which name language departments on English sites', () => {
        for (const s of ['german', 'french', 'spanish', 'chinese', 'languages', 'en', '%E4%B8%AD%E6', 'x'.repeat(100)]) {
            expect(isLanguageName(s), s).toBe(false);
        }
    });
});

describe('isEnglishSegment', () => {
    it('is en, en-xx and english', () => {
        for (const s of ['en', 'EN', 'en-gb', 'en-US', 'en_us', 'en-intl', 'english', 'English']) expect(isEnglishSegment(s), s).toBe(true);
        for (const s of ['eng', 'engineering', 'de', 'deutsch', 'en-', 'en-abcde', '']) expect(isEnglishSegment(s), s).toBe(false);
    });
});

describe('isForeignLanguageSegment', () => {
    it('is a language segment that is not English (the visible list of §5.6)', () => {
        for (const s of ['de', 'fr', 'es', 'nl', 'pt', 'ru', 'ja', 'jp', 'zh', 'zh-cn', 'zh-tw', 'zh-hans', 'zh-hant', 'ko', 'kr', 'ar', 'sv', 'fi', 'da', 'no', 'nb', 'pl', 'tr', 'el', 'he', 'hi', 'th', 'vi', 'hu', 'ro', 'deutsch', 'francais']) {
            expect(isForeignLanguageSegment(s), s).toBe(true);
        }
    });

    it('is false for English and for ordinary segments', () => {
        for (const s of ['en', 'en-gb', 'english', 'admissions', 'news', 'cs', 'kb', 'german', '']) {
            expect(isForeignLanguageSegment(s), s).toBe(false);
        }
    });
});

describe('stripLeadingLanguage', () => {
    it('drops one leading language code or name, of any language', () => {
        expect(stripLeadingLanguage(['en', 'studies'])).toEqual(['studies']);
        expect(stripLeadingLanguage(['en-gb', 'research-highlight', 'story-1'])).toEqual(['research-highlight', 'story-1']);
        expect(stripLeadingLanguage(['english', 'research'])).toEqual(['research']);
        expect(stripLeadingLanguage(['deutsch', 'forschung'])).toEqual(['forschung']);
        expect(stripLeadingLanguage(['de', 'en', 'x'])).toEqual(['en', 'x']);
    });

    it('keeps other first segments and returns a new array', () => {
        const segments = ['cs', 'people'];
        const result = stripLeadingLanguage(segments);
        expect(result).toEqual(['cs', 'people']);
        expect(result).not.toBe(segments);
        expect(stripLeadingLanguage(['admissions', 'en'])).toEqual(['admissions', 'en']);
        expect(stripLeadingLanguage([])).toEqual([]);
    });
});
