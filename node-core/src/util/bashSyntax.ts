// The shell parser (unbash) and the glob matcher (picomatch) load on the first permission
// question, so a core that never checks a command pays nothing for them at start-up.
import type * as Unbash from "unbash";
import type picomatchFn from "picomatch";

export interface SyntaxLibraries {
  parse: typeof Unbash.parse;
  forEachChild: typeof Unbash.forEachChild;
  picomatch: typeof picomatchFn;
}

let loading: Promise<SyntaxLibraries> | undefined;
let loaded: SyntaxLibraries | undefined;

export function loadSyntax(): Promise<SyntaxLibraries> {
  loading ??= Promise.all([import("unbash"), import("picomatch")]).then(([unbash, pm]) => {
    const picomatch = ((pm as { default?: typeof picomatchFn }).default ?? pm) as typeof picomatchFn;
    loaded = { parse: unbash.parse, forEachChild: unbash.forEachChild, picomatch };
    return loaded;
  });
  return loading;
}

/** The libraries once `loadSyntax()` has resolved; callers that are already async use that instead. */
export function syntaxIfLoaded(): SyntaxLibraries | undefined {
  return loaded;
}

