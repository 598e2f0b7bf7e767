/**
 * Language segments of URL paths (`/en/`, `/de-at/`, `/english/`, `/deutsch/`), used to skip a
 * leading language segment (section entries, subtrees), to find the English home of a
 * non-English site, and to keep an English query out of other languages (algorithms.md §5.6,
 * §6.2, §7.2).
 *
 * Choice of codes. A site's language switcher uses the ISO 639-1 code, sometimes with a region
 * or script (`pt-br`, `zh-hans`, `en_US`). But a bare two-letter segment is often something
 * else, and the two errors do not cost the same for an English query:
 * - calling a department a language (`/cs/` = computer science, `/it/` = IT services, `/hr/` =
 *   human resources) multiplies its links by the foreign-language factor and can hide exactly
 *   the pages asked for (a "computer science" query on a site whose CS pages live under `/cs/`);
 * - missing a real language section (`/cs/` = Czech) costs little: its pages carry no English
 *   query words and score low anyway.
 * So: a bare code counts only if it is one of the languages sites are actually localised into
 * (the codes of Abkhaz, Sango, Zhuang … only ever appear as abbreviations) and is not one of the
 * ambiguous codes below; an ambiguous code counts with a region (`cs-cz`, `it-it`, `uk-ua`).
 * In the crawl corpora, `/cs/` and `/id/` are Czech and Indonesian on developer.mozilla.org but
 * `/id/2103152` and `/vuls/id/713878` are identifiers, and `/it/` is an IT category on sina.com.cn.
 * Endonyms (`deutsch`, `francais`) count as language names; English exonyms (`german`,
 * `french`) do not, because on English sites they name language departments.
 */

/** ISO 639-1 codes of languages websites are localised into, recognised on their own. */
const LANGUAGE_CODES: ReadonlySet<string> = new Set([
    'af', 'am', 'ar', 'az', 'be', 'bg', 'bn', 'ca', 'cy', 'da', 'de', 'el', 'en', 'eo', 'es', 'et',
    'eu', 'fa', 'fi', 'fr', 'fy', 'ga', 'gd', 'gl', 'gu', 'ha', 'he', 'hi', 'hu', 'hy', 'ig', 'is',
    'ja', 'jv', 'ka', 'kk', 'km', 'kn', 'ko', 'ku', 'ky', 'lb', 'lo', 'lt', 'lv', 'mg', 'mk', 'mn',
    'mr', 'mt', 'nb', 'ne', 'nl', 'nn', 'no', 'pa', 'pl', 'ps', 'pt', 'ro', 'ru', 'si', 'sk', 'sl',
    'so', 'sq', 'sr', 'su', 'sv', 'sw', 'ta', 'te', 'tg', 'th', 'tk', 'tl', 'tr', 'tt', 'ur', 'uz',
    'vi', 'xh', 'yo', 'zh', 'zu',
]);

/**
 * ISO 639-1 codes that, as a bare path segment, are more often an English abbreviation or an
 * identifier than a language: cs (computer science), it (information technology), id
 * (identifier), hr (human resources), ms (master of science), ml (machine learning), my (my
 * account), bs (bachelor of science), uk (United Kingdom site). Languages only with a region:
 * `cs-cz`, `it-it`, `id-id`, `hr-hr`, `ms-my`, `uk-ua`.
 */
export const AMBIGUOUS_LANGUAGE_CODES: ReadonlySet<string> = new Set([
    'cs', 'it', 'id', 'hr', 'ms', 'ml', 'my', 'bs', 'uk',
]);

/**
 * Country codes and three-letter codes that sites use in place of a language code for a
 * non-English section (`/jp/`, `/kr/`, `/cn/`, `/chn/`); recognised bare only.
 */
const LANGUAGE_LIKE_CODES: ReadonlySet<string> = new Set([
    'jp', 'kr', 'cn', 'tw', 'gr', 'cz', 'dk', 'se', 'ua', 'br', 'chn', 'cht', 'chs', 'jpn', 'kor',
]);

/**
 * Language names as language switchers write them: "english" and endonyms, ASCII-folded and
 * native (matched after percent-decoding and lowercasing).
 */
const LANGUAGE_NAMES: ReadonlySet<string> = new Set([
    'english',
    'deutsch', 'francais', 'français', 'espanol', 'español', 'castellano', 'italiano', 'portugues',
    'português', 'nederlands', 'svenska', 'suomi', 'dansk', 'norsk', 'polski', 'cesky', 'česky',
    'cestina', 'čeština', 'slovensky', 'slovensko', 'slovencina', 'slovenčina', 'slovenscina',
    'slovenščina', 'magyar', 'romana', 'română', 'turkce', 'türkçe', 'ellinika', 'ελληνικά',
    'russkiy', 'русский', 'ukrainska', 'українська', 'bulgarski', 'български', 'hrvatski', 'srpski',
    'српски', 'catala', 'català', 'euskara', 'galego', 'eesti', 'latviesu', 'latviešu', 'lietuviu',
    'lietuvių', 'islenska', 'íslenska', 'cymraeg', 'gaeilge', 'nihongo', '日本語', 'zhongwen',
    '中文', '简体中文', '繁體中文', '繁体中文', 'hangugeo', '한국어', 'tiengviet', 'tieng-viet',
    'tiếng-việt', 'tiếng việt', 'bahasa', 'bahasa-indonesia', 'bahasa-melayu', 'melayu', 'ภาษาไทย',
    'العربية', 'عربي', 'فارسی', 'עברית', 'हिन्दी',
]);

/** Longest segment worth looking at (a percent-encoded native name such as `ελληνικά` is 48). */
const MAX_SEGMENT = 64;

/** Lowercase, percent-decoded; `''` for segments too long to be a language. */
function normalise(segment: string): string {
    if (typeof segment !== 'string' || segment.length > MAX_SEGMENT) return '';
    let s = segment;
    if (s.includes('%')) {
        try {
            s = decodeURIComponent(s);
        } catch {
            return '';
        }
    }
    return s.toLowerCase();
}

function isLetter(c: number): boolean {
    return c >= 97 && c <= 122;
}

/** `xx`, `xx-yyyy` or `xx_yy`: the primary code (lowercase) or `''`; `region` reports a subtag. */
function splitCode(s: string): { primary: string; region: boolean } | undefined {
    const n = s.length;
    if (n < 2 || !isLetter(s.charCodeAt(0)) || !isLetter(s.charCodeAt(1))) return undefined;
    if (n === 2) return { primary: s, region: false };
    const sep = s.charCodeAt(2);
    if ((sep !== 45 && sep !== 95) || n < 5 || n > 7) return undefined; // - or _, then 2–4 chars
    for (let i = 3; i < n; i++) {
        const c = s.charCodeAt(i);
        if (!isLetter(c) && !(c >= 48 && c <= 57)) return undefined;
    }
    return { primary: s.slice(0, 2), region: true };
}

function codeOf(s: string): boolean {
    if (LANGUAGE_LIKE_CODES.has(s)) return true;
    const code = splitCode(s);
    if (!code) return false;
    return LANGUAGE_CODES.has(code.primary) || (code.region && AMBIGUOUS_LANGUAGE_CODES.has(code.primary));
}

/**
 * A language code segment: a two-letter code of a language sites are localised into, optionally
 * followed by `-` or `_` and a 2–4 character region/script (`en`, `en-gb`, `pt_BR`, `zh-hans`,
 * `es-419`), an ambiguous code only with a region (`cs-cz`, not `cs`), or a code sites use for a
 * language section (`jp`, `kr`, `cn`, `chn`). Case-insensitive. See the module comment.
 */
export function isLanguageCode(segment: string): boolean {
    return codeOf(normalise(segment));
}

/**
 * A language name as a language switcher writes it: `english` or an endonym (`deutsch`,
 * `francais`/`français`, `espanol`, `italiano`, `nihongo`, `中文` …), case-insensitive, also
 * percent-encoded. English exonyms of other languages (`german`, `chinese`) are not names here.
 */
export function isLanguageName(segment: string): boolean {
    return LANGUAGE_NAMES.has(normalise(segment));
}

function englishOf(s: string): boolean {
    if (s === 'english') return true;
    const code = splitCode(s);
    return code !== undefined && code.primary === 'en';
}

/** An English language segment: `en`, `en-xx`/`en_xx` (`en-gb`, `en_US`), `english`. */
export function isEnglishSegment(segment: string): boolean {
    return englishOf(normalise(segment));
}

/**
 * A segment of a language other than English (`de`, `fr-ca`, `zh-hans`, `jp`, `deutsch`):
 * an English query should not go there (algorithms.md §5.6).
 */
export function isForeignLanguageSegment(segment: string): boolean {
    const s = normalise(segment);
    return (codeOf(s) || LANGUAGE_NAMES.has(s)) && !englishOf(s);
}

/** Whether a segment is a language code or name (any language, English included). */
export function isLanguageSegment(segment: string): boolean {
    const s = normalise(segment);
    return codeOf(s) || LANGUAGE_NAMES.has(s);
}

/**
 * The path segments without a leading language segment: `['en', 'studies']` → `['studies']`,
 * `['deutsch', 'forschung']` → `['forschung']`. Only the first segment is looked at. Always a
 * new array.
 */
export function stripLeadingLanguage(segments: readonly string[]): string[] {
    const first = segments[0];
    return first !== undefined && isLanguageSegment(first) ? segments.slice(1) : segments.slice();
}
