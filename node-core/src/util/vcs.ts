// Version-control metadata directories: the one list Glob, Grep and the grep shim skip.
// The names the grep and ripgrep of Claude Code's tools skip (.git, .svn, .hg, .bzr, .jj, .sl),
// plus darcs's `_darcs` and `CVS`, which GNU tar's --exclude-vcs also treats as version-control
// directories. Neither ripgrep nor ugrep has a list of its own (rg --hidden walks into .git), so
// the tools pass these names; agents learn one set, wherever they search.
import path from "node:path";

export const VCS_DIRECTORIES = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl", "_darcs", "CVS"] as const;

const NAMES: ReadonlySet<string> = new Set(VCS_DIRECTORIES);

export function isVcsDirectoryName(name: string): boolean {
  return NAMES.has(name);
}

/** The names as an English list for messages: `.git, .svn, … and CVS`. */
export const VCS_DIRECTORY_LIST = `${VCS_DIRECTORIES.slice(0, -1).join(", ")} and ${VCS_DIRECTORIES[VCS_DIRECTORIES.length - 1]}`;

/**
 * True when `abs` lies inside a VCS directory that does not also hold `root`: the rule by which a
 * search from `root` never shows version-control metadata, at any depth (a nested repository's
 * `.git` too), while a search whose `root` is itself in such a directory (`path: ".git"`) lists
 * it, as rg and ugrep search a directory named on their command line. A *file* named `.git` (a
 * worktree's or submodule's `gitdir:` pointer) is not inside one. Both paths absolute.
 */
export function insideVcsDirectory(abs: string, root: string, pathApi: path.PlatformPath = path): boolean {
  const sep = pathApi.sep;
  const prefix = root.endsWith(sep) ? root : root + sep;
  // Below root (the usual case) the names after it are the ones to look at; otherwise the
  // leading `..` steps climb through directories that hold root, and only what follows counts.
  const segments = abs.startsWith(prefix) ? abs.slice(prefix.length).split(sep) : pathApi.relative(root, abs).split(sep);
  let i = 0;
  while (segments[i] === "..") i++;
  for (const last = segments.length - 1; i < last; i++) if (NAMES.has(segments[i]!)) return true;
  return false;
}
