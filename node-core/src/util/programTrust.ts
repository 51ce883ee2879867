// Whether a program the core runs outside the sandbox (bwrap itself, rg for Grep and Glob) can be
// trusted: nothing a sandboxed command can write may decide what runs there. A program is refused
// when it, or where it really leads, lies in a place sandboxed commands may write, or when it or a
// folder above it could be replaced by another account (owned by someone other than root or this
// account, or writable by group or others — a sticky folder like /tmp excepted, where only the
// owner may rename).
import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { isWithin } from "./paths.js";

/** Why `file` cannot be trusted to run outside the sandbox, or undefined when it can. */
export function untrustedProgram(file: string, writablePlaces: readonly string[], uid: number | undefined = process.getuid?.()): string | undefined {
  if (process.platform === "win32") return undefined;
  let real: string;
  try {
    real = realpathSync.native(file);
  } catch (err) {
    return `${file} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? err})`;
  }
  // A place that does not exist holds nothing yet (and asking first costs less than an exception).
  const canonical = (p: string) => {
    if (!existsSync(p)) return path.resolve(p);
    try {
      return realpathSync.native(p);
    } catch {
      return path.resolve(p);
    }
  };
  for (const place of writablePlaces) {
    const w = canonical(place);
    if (isWithin(real, w) || isWithin(file, w)) return `${file}${real !== file ? ` (${real})` : ""} lies inside ${place}, which sandboxed commands may write`;
  }
  const owners = new Set([0, ...(uid !== undefined ? [uid] : [])]);
  for (let p = real, first = true; ; p = path.dirname(p), first = false) {
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      return `${p} cannot be examined (${(err as NodeJS.ErrnoException).code ?? err})`;
    }
    if (!owners.has(st.uid)) return `${p} belongs to another account (uid ${st.uid})`;
    const othersWrite = (st.mode & 0o022) !== 0;
    const sticky = !first && (st.mode & 0o1000) !== 0;
    if (othersWrite && !sticky) return `${p} may be changed by other accounts (mode ${(st.mode & 0o7777).toString(8)})`;
    if (p === path.dirname(p)) return undefined;
  }
}

const providers = new Set<() => readonly string[]>();

/**
 * Registers where sandboxed commands may write (a core's sandbox service does, for its life): every
 * program the core runs outside the sandbox is checked against all of them. Returns the undo.
 */
export function addWritablePlaces(provider: () => readonly string[]): () => void {
  providers.add(provider);
  return () => providers.delete(provider);
}

/** Every place any live core's sandboxed commands may write. */
export function sandboxWritablePlaces(): string[] {
  return [...new Set([...providers].flatMap((p) => p()))];
}
