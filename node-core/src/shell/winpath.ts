// Path conversions between native Windows paths and what Git Bash (MSYS2) understands or prints
// (BASH-WIN-4, BASH-WIN-5).

/**
 * A native path handed to Git Bash: forward slashes, drive kept (`C:\Users\me\x` → `C:/Users/me/x`).
 * Backslashes would be read as escapes; MSYS accepts `C:/...` everywhere.
 */
export function toGitBashPath(nativePath: string): string {
  return nativePath.replace(/\\/g, "/");
}

export interface MsysMounts {
  /** Git for Windows' install root (`C:\Program Files\Git`), where `/usr`, `/etc`, ... live. */
  root?: string;
  /** What `/tmp` maps to (Git for Windows mounts the user's TEMP there). */
  tmp?: string;
}

/**
 * A path printed by Git Bash (`pwd -P`) in native form:
 * `/c/Users/me` → `C:\Users\me`, `/cygdrive/d/x` → `D:\x`, `//server/share/x` → `\\server\share\x`,
 * `C:/x` → `C:\x`; `/tmp/...` and other root paths through the MSYS mounts. Returns undefined when
 * the path cannot be mapped (the caller treats that as "cwd unknown").
 */
export function fromGitBashPath(posixPath: string, mounts: MsysMounts = {}): string | undefined {
  const p = posixPath.trim();
  if (p === "") return undefined;
  let m = /^\/cygdrive\/([a-zA-Z])(?:\/(.*))?$/.exec(p) ?? /^\/([a-zA-Z])(?:\/(.*))?$/.exec(p);
  if (m) return `${m[1]!.toUpperCase()}:\\${backslashes(m[2] ?? "")}`;
  m = /^([a-zA-Z]):(?:[\\/](.*))?$/.exec(p);
  if (m) return `${m[1]!.toUpperCase()}:\\${backslashes(m[2] ?? "")}`;
  m = /^[\\/]{2}([^\\/]+)[\\/]([^\\/]+)(?:[\\/](.*))?$/.exec(p);
  if (m) return `\\\\${m[1]}\\${m[2]}${m[3] ? "\\" + backslashes(m[3]) : ""}`;
  if (p.startsWith("/")) {
    const tmp = /^\/tmp(?:\/(.*))?$/.exec(p);
    if (tmp && mounts.tmp) return joinNative(mounts.tmp, tmp[1] ?? "");
    if (mounts.root) return joinNative(mounts.root, p.slice(1));
    return undefined;
  }
  return undefined;
}

function backslashes(rest: string): string {
  return rest.replace(/\//g, "\\").replace(/\\+$/, "");
}

function joinNative(base: string, rest: string): string {
  const b = base.replace(/[\\/]+$/, "");
  const r = backslashes(rest);
  return r ? `${b}\\${r}` : b;
}

/** Git for Windows' install root from its bash.exe (`<root>\bin\bash.exe` or `<root>\usr\bin\bash.exe`). */
export function gitInstallRoot(bashExe: string): string {
  const parts = bashExe.replace(/\//g, "\\").split("\\");
  parts.pop(); // bash.exe
  if (parts.at(-1)?.toLowerCase() === "bin") parts.pop();
  if (parts.at(-1)?.toLowerCase() === "usr") parts.pop();
  return parts.join("\\");
}
