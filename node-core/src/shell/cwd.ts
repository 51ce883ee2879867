// What a command's final directory means for the session (BASH-CWD): inside the workspace or an
// added directory it becomes the session's cwd; anywhere else the session goes back to its
// original directory. Best effort: an unknown or vanished directory changes nothing and is only
// logged at debug level (BASH-CWD-3).
import type { Session } from "../base/session.js";
import { canonicalDir, isWithin } from "../util/paths.js";
import { isDirectory } from "../util/files.js";
import type { Logger } from "../util/log.js";

export interface CwdOutcome {
  /** The session's cwd now (where the next command starts). */
  cwd: string;
  changed: boolean;
  reset: boolean;
  /** `Shell working directory changed to <dir>` / `Shell cwd was reset to <dir>`, or undefined. */
  notice?: string;
}

/**
 * Directories the host lists in the `additionalDirectories` setting (settings/update) count as
 * allowed too, resolved against the workspace root.
 */
export function settingDirectories(session: Session): string[] {
  return session.workspace.setting("additionalDirectories").map((d) => canonicalDir(d, session.workspace.root));
}

const cwdChangedNotice = (dir: string) => `Shell working directory changed to ${dir}`;
export const cwdResetNotice = (dir: string) => `Shell cwd was reset to ${dir}`;

export function applyEndedCwd(session: Session, ended: { cwd?: string; reason?: string }, log: Logger): CwdOutcome {
  const unchanged: CwdOutcome = { cwd: session.cwd, changed: false, reset: false };
  if (!ended.cwd) {
    log.debug("cwd tracking: directory unknown", { reason: ended.reason });
    return unchanged;
  }
  if (ended.cwd === session.cwd) return unchanged;
  if (!isDirectory(ended.cwd)) {
    log.debug("cwd tracking: the directory the command ended in no longer exists", { dir: ended.cwd });
    return unchanged;
  }
  const dir = canonicalDir(ended.cwd);
  if (dir === session.cwd) return unchanged;
  if (session.isAllowedDirectory(dir) || settingDirectories(session).some((d) => isWithin(dir, d))) {
    session.setCwd(dir);
    return { cwd: dir, changed: true, reset: false, notice: cwdChangedNotice(dir) };
  }
  const home = session.originalCwd;
  session.setCwd(home, true);
  return { cwd: home, changed: false, reset: true, notice: cwdResetNotice(home) };
}
