// The file tools read where the permission check looked. A Read, Grep or Glob of a credential
// store, a system secret or Wave's state is asked first (permissions/decide.ts decideRead), judged
// at its real path; the tool then reads that path and nothing else: if the path leads elsewhere by
// the time it is opened (a link swapped in between), nothing is read. A file opened with several
// names is compared once more with the credential stores (base/hardLinks.ts): a hard link
// to a key renamed over the judged name after the check is the key, and is not read either.
import { lstatSync, readlinkSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { errorResult, type ToolContext, type ToolResult } from "../core/tool.js";
import { defaultPlaces } from "../permissions/decide.js";
import { credentialWithId } from "../base/hardLinks.js";
import { physicalPath } from "../util/paths.js";

/** The real path the permission check judged for this call's read, if it judged one. */
export function judgedReadPath(ctx: ToolContext): string | undefined {
  const d = ctx.permission?.decision;
  return d?.kind === "read" ? d.path : undefined;
}

export function readPathChanged(abs: string, now: string, judged: string, tool: string): ToolResult {
  return errorResult(
    "path_changed",
    `${abs} now leads to ${now}, not to ${judged}, which the permission check judged (a link or folder was replaced in between); nothing was read. Call ${tool} again to have the new target checked.`,
    { path: abs },
  );
}

/** Where `abs` really leads now, when that is still what the check judged; an error result otherwise. */
export function boundReadPath(ctx: ToolContext, abs: string, tool: string): { real: string } | ToolResult {
  const real = physicalPath(abs);
  const judged = judgedReadPath(ctx);
  if (judged !== undefined && real !== judged) return readPathChanged(abs, real, judged, tool);
  return { real };
}

/** Linux: the path of the file an open descriptor really is (the kernel's, after every link); elsewhere undefined. */
export function openedPath(fd: number): string | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * An error result when the file opened as `fh` (by the judged name `real`) is not the file the
 * check judged (a file renamed over the name in between) and is a credential store's file — a
 * hard link to a key renamed into place after the check; undefined otherwise. One fstat when it
 * is the judged file. Its number of names is no guide here: the other name may be gone by now.
 */
export async function openedCredential(ctx: ToolContext, fh: FileHandle, abs: string, real: string, tool: string): Promise<ToolResult | undefined> {
  const decision = ctx.permission?.decision;
  if (decision?.sensitiveRead !== undefined) return undefined;
  let st;
  try {
    st = await fh.stat({ bigint: true });
  } catch {
    return undefined;
  }
  const id = `${st.dev}:${st.ino}`;
  if (!st.isFile() || decision?.fileId === id) return undefined;
  const places = defaultPlaces();
  const cred = credentialWithId(id, real, { homes: places.homes ?? [places.home], stateDirectories: places.stateDirectories });
  if (!cred) return undefined;
  return errorResult(
    "path_changed",
    `${abs} is now ${cred.what}, which the permission check did not judge it to be (a file was renamed over it in between); nothing was read. Call ${tool} again to have it checked.`,
    { path: abs },
  );
}

/**
 * For a search: whether a file it read (`shown` as the search printed it) is another name of a
 * credential store's file — a hard link made after the check, which the search went into. One
 * lstat per file (kept per call); the stores are compared only for files with several names.
 * Such files are added to `found`. A file gone by the time its result is looked at is left out
 * too (it may have been such a name, renamed away again). Not caught: a name swapped for another
 * file with one name between the search reading it and this look.
 */
export function secondNameCheck(resolve: (shown: string) => string, found: Set<string>): (shown: string) => boolean {
  const seen = new Map<string, boolean>();
  let places: ReturnType<typeof defaultPlaces> | undefined;
  return (shown) => {
    const hit = seen.get(shown);
    if (hit !== undefined) return hit;
    const abs = resolve(shown);
    let verdict = false;
    try {
      const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
      // Gone since the search read it (renamed away, removed): what it was cannot be told, so it is left out.
      if (st === undefined) verdict = true;
      else if (st.isFile() && st.nlink > 1n) {
        places ??= defaultPlaces();
        verdict = credentialWithId(`${st.dev}:${st.ino}`, abs, { homes: places.homes ?? [places.home], stateDirectories: places.stateDirectories }, 1) !== undefined;
      }
    } catch {
      verdict = false;
    }
    if (verdict && existsNow(abs)) found.add(abs);
    seen.set(shown, verdict);
    return verdict;
  };
}

function existsNow(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
