import { isLanguageCode } from '../url/index.js';

/** Cluster shared by the home pages of all hosts. */
export const HOME_CLUSTER = '*/';

/**
 * The cluster a URL belongs to for diversity: host + '/' + first path segment (`e.com/news`).
 * Home pages of every host (`/`, `/index.html`, `/en/`, `/en-gb/`) share {@link HOME_CLUSTER}:
 * a university home links dozens of department sub-sites on their own hosts, and one cluster each
 * would spread the budget over them. Language segments are those of `isLanguageCode`, so an
 * ambiguous bare code such as `/cs/` (computer science) stays a cluster of its own.
 * @throws TypeError if `url` is not an absolute URL.
 */
export function clusterKey(url: string): string {
    const { hostname, pathname } = new URL(url);
    const segments = pathname.split('/').filter((segment) => segment !== '');
    const [first] = segments;
    if (first === undefined || (segments.length === 1 && isHomeSegment(first))) return HOME_CLUSTER;
    return `${hostname}/${first}`;
}

/** `index` or a language code, with any extension (`index.html`, `en.html`). */
function isHomeSegment(segment: string): boolean {
    const stem = segment.split('.', 1)[0] ?? '';
    return stem.toLowerCase() === 'index' || isLanguageCode(stem);
}
