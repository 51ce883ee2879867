// The shell parser (unbash) and the glob matcher (picomatch) load on first need (a permission
// question, run_shell_command's syntax check), so a core that never checks a command pays nothing
// for them at start-up. One loader for both users: permissions/ and shell/ sit side by side.
import type * as Unbash from "unbash";
import type picomatchFn from "picomatch";

export interface SyntaxLibraries {
  parse: typeof Unbash.parse;
  forEachChild: typeof Unbash.forEachChild;
  picomatch: typeof picomatchFn;
}

let loading: Promise<SyntaxLibraries> | undefined;

export function loadSyntax(): Promise<SyntaxLibraries> {
  loading ??= Promise.all([import("unbash"), import("picomatch")]).then(([unbash, pm]) => {
    const picomatch = ((pm as { default?: typeof picomatchFn }).default ?? pm) as typeof picomatchFn;
    return { parse: unbash.parse, forEachChild: unbash.forEachChild, picomatch };
  });
  return loading;
}
