/** The got hooks the scope guard adds to a plain-HTTP fetch (http mode, and adaptive mode's plain-HTTP runs). */
export interface GotGuardHooks {
    /** Called before each request goes out. */
    beforeRequest?: Array<() => void>;
    /** Called before a redirect is followed; throwing stops it. */
    beforeRedirect?: Array<(options: { url?: URL | string }) => void>;
}

/** The hooks of `base` with those of `added` after them. */
export function mergeGotHooks(base: GotGuardHooks | undefined, added: GotGuardHooks): GotGuardHooks {
    return {
        ...base,
        beforeRequest: [...(base?.beforeRequest ?? []), ...(added.beforeRequest ?? [])],
        beforeRedirect: [...(base?.beforeRedirect ?? []), ...(added.beforeRedirect ?? [])],
    };
}
