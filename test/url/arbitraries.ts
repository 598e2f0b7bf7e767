// Shared fast-check arbitraries for the URL rule tests: messy but realistic absolute URLs.
import fc from 'fast-check';

export const trackerParam = fc.constantFrom(
    'utm_source=newsletter',
    'UTM_Medium=email',
    'fbclid=IwAR3x',
    'gclid=Cj0KCQ',
    'PHPSESSID=1a2b3c',
    'jsessionid=ABC',
    'sid=8dd3dede98a7626cbf4e1c23217573da',
    'elqTrackId=5f3a',
    'internal_medium=nav',
    'mtm_campaign=x',
    '_ga=2.1234',
);

export const keptParam = fc
    .tuple(
        fc.constantFrom('id', 'page', 'q', 'ref', 'source', 'sid', 'a', 'b', 'tag', 'Sort', 'year', 'x%20y'),
        fc.oneof(fc.stringMatching(/^[a-z0-9%+.-]{0,8}$/), fc.constant('')),
        fc.boolean(),
    )
    .map(([name, value, bare]) => (bare && value === '' ? name : `${name}=${value}`));

export const segment = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9._~-]{0,20}$/),
    fc.constantFrom('.', '..', 'a;jsessionid=XYZ', 'p;JSESSIONID=1;v=2', '2024', 'en', '%7E', 'ü', '100%', '', 'index.html'),
);

export const messyUrl = fc
    .record({
        scheme: fc.constantFrom('http', 'https', 'HTTP', 'Https'),
        host: fc.mixedCase(fc.domain()),
        port: fc.constantFrom('', ':80', ':443', ':8080'),
        segments: fc.array(segment, { maxLength: 8 }),
        params: fc.array(fc.oneof(trackerParam, keptParam, fc.constant('')), { maxLength: 6 }),
        fragment: fc.constantFrom('', '#', '#top', '#a?b=1'),
    })
    .map(
        (u) =>
            `${u.scheme}://${u.host}${u.port}/${u.segments.join('/')}` +
            `${u.params.length > 0 ? `?${u.params.join('&')}` : ''}${u.fragment}`,
    );

/** Absolute URLs: messy ones and fast-check's web URLs with queries and fragments. */
export const anyUrl = fc.oneof(messyUrl, fc.webUrl({ withQueryParameters: true, withFragments: true }));
