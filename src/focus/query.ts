/**
 * The query as a list of terms, and a tokenizer that finds those terms in any text.
 *
 * Texts and the query go through the same normalisation, so matching is exact on normalised tokens:
 * NFKC, Unicode lowercase, a conservative English plural/possessive fold, and dictionary word
 * segmentation (`Intl.Segmenter`) for scripts written without spaces (Chinese, Japanese, Thai…).
 */

/** Most query terms used in focus scoring; longer queries keep their first terms (pagesift `TERMS`, 0.81). */
export const TERMS = 16;

/**
 * Shortest term looked for inside a longer URL word: at four letters a term is rarely an accident of spelling inside
 * another word (`club` in `ccaclubs`, `staff` in `collegestaff`), where two or three letters (`art` in `start`) often are.
 */
export const COMPOUND_TERM_LETTERS = 4;

/** Runs of letters, marks and digits; an apostrophe inside a word ("student's", "don't") keeps it whole. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

/** Scripts written without spaces between words: a run of them needs dictionary segmentation. */
const UNSPACED =
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Dictionary word segmentation; the locale only names a default, ICU picks the dictionary by script. */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Words the plural fold must leave alone: they end in `s` but are not plurals of a shorter word. */
const NOT_PLURALS = new Set(['news', 'series', 'species']);

/**
 * English function words dropped from the query (never from texts, where they still count as tokens).
 * As query terms they would match every page and every anchor; facet IDF would zero them, but link
 * coverage floors every term at `MIN_WEIGHT`, so "of" in "master of science" would still pay links.
 */
const STOP_WORDS = new Set([
    'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'do', 'for', 'from', 'how', 'i', 'in', 'is',
    'me', 'my', 'of', 'on', 'or', 'our', 'the', 'their', 'this', 'to', 'we', 'what', 'when', 'where',
    'which', 'why', 'with', 'you', 'your',
]);

/**
 * Conservative English inflection fold so "students" finds "student" and "student's" finds
 * "student", without conflating different words: no derivational stemming (international ≠
 * internationalization, university ≠ universe). Rules: Harman's S-stemmer (JASIS 42(1), 1991),
 * plus Porter's `sses → ss` and `(ch|sh|x)es → …` so "classes" and "searches" fold too. Only
 * lowercase ASCII words of four letters or more are folded ("has", "was", "its" stay).
 */
function foldInflection(word: string): string {
    const possessive = word.replace(/['’]s$/, '').replace(/['’]/g, '');
    if (possessive.length < 4 || NOT_PLURALS.has(possessive) || !/^[a-z]+$/.test(possessive)) return possessive;
    return foldSpelling(foldPlural(possessive));
}

function foldPlural(word: string): string {
    if (word.endsWith('sses')) return word.slice(0, -2);
    if (word.endsWith('ies') && word.length >= 5 && !/[ae]ies$/.test(word)) return `${word.slice(0, -3)}y`;
    if (/(?:ch|sh|x)es$/.test(word)) return word.slice(0, -2);
    if (/(?:ss|us|is)$/.test(word) || !word.endsWith('s')) return word;
    return word.slice(0, -1);
}

/**
 * British and American spellings of one word meet: `-logue → -log` (dialogue/dialog,
 * catalogue/catalog) and `-isation → -ization` (summarisation/summarization). Only these two
 * suffixes: `-ise → -ize` would also turn promise, expertise or precise into non-words.
 * [I] On acl2020 a third of the "dialogue systems" papers say "dialog" in their titles.
 */
function foldSpelling(word: string): string {
    if (word.length >= 6 && word.endsWith('logue')) return word.slice(0, -2);
    if (word.length >= 9 && word.endsWith('isation')) return `${word.slice(0, -7)}ization`;
    return word;
}

/** Calls `emit` with every normalised token of `text`, in order. */
export function forEachToken(text: string, emit: (token: string) => void): void {
    for (const [run] of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
        if (!UNSPACED.test(run)) {
            emit(foldInflection(run));
            continue;
        }
        for (const piece of segmenter.segment(run)) {
            if (piece.isWordLike) emit(foldInflection(piece.segment));
        }
    }
}

/** Splits `text` into normalised tokens. */
export function tokenize(text: string): string[] {
    const tokens: string[] = [];
    forEachToken(text, (token) => tokens.push(token));
    return tokens;
}

/** A search query: its distinct terms in query order (order matters: adjacent terms may form a phrase). */
export class Query {
    /** The normalised terms, at most `TERMS`, in query order, without repeats. */
    readonly terms: readonly string[];
    /** The text the query was made from. */
    readonly text: string;
    private readonly index: ReadonlyMap<string, number>;
    /** Terms long enough to be recognised inside a compound URL word, with their indices. */
    private readonly compoundTerms: ReadonlyArray<readonly [string, number]>;

    constructor(text: string) {
        const tokens = tokenize(text);
        const content = tokens.filter((token) => !STOP_WORDS.has(token));
        // A query made only of function words ("about us") keeps them: it has nothing else to match.
        const chosen = content.length > 0 ? content : tokens;
        const terms = [...new Set(chosen)].slice(0, TERMS);
        if (terms.length === 0) {
            throw new Error(`The query "${text}" contains no words; give at least one word to focus the crawl on.`);
        }
        this.text = text;
        this.terms = terms;
        this.index = new Map(terms.map((term, i) => [term, i]));
        this.compoundTerms = terms.map((term, i) => [term, i] as const).filter(([term]) => [...term].length >= COMPOUND_TERM_LETTERS);
    }

    /** Number of terms (1…`TERMS`). */
    get size(): number {
        return this.terms.length;
    }

    /** Calls `onToken` for every token of `text`: with the term index when it is a query term, else `null`. */
    forEachTerm(text: string, onToken: (termIndex: number | null) => void): void {
        forEachToken(text, (token) => onToken(this.index.get(token) ?? null));
    }

    /** The indices of the query terms that occur in `text`. */
    termsIn(text: string): Set<number> {
        const found = new Set<number>();
        this.forEachTerm(text, (i) => {
            if (i !== null) found.add(i);
        });
        return found;
    }

    /**
     * Bit-mask of the query terms in a URL's words ({@link locator}): whole words, and terms of
     * {@link COMPOUND_TERM_LETTERS} letters or more inside a longer word, because URL paths often run words together
     * (`/ourteachers/`, `/ccaclubs.html`, `admissionsandscholarships`) where a page's text would space them.
     */
    urlMaskOf(urlWords: string): number {
        let mask = 0;
        forEachToken(urlWords, (token) => {
            const exact = this.index.get(token);
            if (exact !== undefined) {
                mask |= 1 << exact;
                return;
            }
            for (const [term, i] of this.compoundTerms) if (token.length > term.length && token.includes(term)) mask |= 1 << i;
        });
        return mask;
    }

    /** Bit-mask of the query terms that occur in `text` (bit i = term i). */
    maskOf(text: string): number {
        let mask = 0;
        this.forEachTerm(text, (i) => {
            if (i !== null) mask |= 1 << i;
        });
        return mask;
    }
}
