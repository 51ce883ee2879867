// Files whose change reaches beyond the edit itself: system and start-up files, credentials, and
// — inside the workspace — files that tools run or obey later without asking (git's
// configuration and hooks, direnv's .envrc, agent and IDE settings that start programs or grant
// permissions). Writing one is asked even inside the allowed directories (README "Permissions").
// The workspace list lives in base/sensitive.ts: the sandbox (shell/sandbox) keeps the same files
// read-only.
import { existsSync } from "node:fs";
import path from "node:path";
import { isWithin } from "../util/paths.js";

/** In the home directory: credentials, and shell start-up files that run at every login. */
export const SENSITIVE_HOME =
  /^(\.ssh|\.gnupg|\.aws|\.azure|\.kube|\.docker|\.config\/gcloud|\.password-store)(\/|$)|^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zshenv|\.zprofile|\.zlogin|\.zlogout|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.gitconfig|\.config\/fish\/config\.fish|\.pam_environment|\.xprofile)$/;
export const SENSITIVE_SYSTEM = /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|root|sys|proc|dev|var\/lib|opt|System|Library|private\/etc)(\/|$)/;

/** Credentials a reading command should not print without a question. */
const SECRET_HOME = /^(\.ssh|\.gnupg|\.aws|\.azure|\.kube|\.docker|\.config\/gcloud|\.password-store)(\/|$)|^(\.netrc|\.npmrc|\.pypirc|\.git-credentials)$/;
const SECRET_SYSTEM = /^\/(etc\/(shadow|gshadow|sudoers)|root|proc\/[^/]+\/environ)(\/|$|[-.])/;

import { SENSITIVE_WORKSPACE } from "../base/sensitive.js";

/** Python runs `.pth` files and sitecustomize in site-packages at every start. */
const PYTHON_STARTUP = /(^|\/)site-packages\/([^/]+\.pth|sitecustomize\.py|usercustomize\.py)$/i;

/** The sensitive file or folder `target` is (or lies in), relative to the allowed directory that holds it. */
export function sensitiveWorkspacePath(target: string, allowedDirectories: readonly string[]): { anchor: string; what: string } | undefined {
  const root = allowedDirectories.filter((d) => isWithin(target, d)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return undefined;
  const segments = path.relative(root, target).split(path.sep).filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const last = i === segments.length - 1;
    for (const e of SENSITIVE_WORKSPACE) {
      if (!e.name.test(segments[i]!)) continue;
      if (!last && !e.directory) continue;
      return { anchor: path.join(root, ...segments.slice(0, i + 1)), what: e.what };
    }
  }
  if (PYTHON_STARTUP.test(segments.join("/"))) return { anchor: target, what: "Python runs it at every start (.pth files and sitecustomize in site-packages)" };
  // A bare repository made of plain files (HEAD + config): git reads its config when run there.
  const base = path.basename(target);
  const dir = path.dirname(target);
  if ((base === "config" && existsSync(path.join(dir, "HEAD"))) || (base === "HEAD" && existsSync(path.join(dir, "config")))) {
    return { anchor: target, what: "the configuration of a bare git repository (git runs what it names when used there)" };
  }
  return undefined;
}

/**
 * A path in one of Wave's state directories (base/stateDir.ts), where listening cores publish the
 * endpoint and token `mcp --attach` uses: a file written there can send agents elsewhere, and one
 * read there opens the file tools, which run outside the sandbox. Sensitive wherever it lies.
 */
export function waveStatePath(target: string, stateDirectories: readonly string[] = []): { anchor: string; what: string } | undefined {
  const anchor = stateDirectories.find((d) => isWithin(target, d));
  return anchor === undefined ? undefined : { anchor, what: "Wave's state directory: IDE cores publish there the endpoint and token agents attach with" };
}

/** What a write to `target` would touch that runs code or grants permissions later: a sensitive file of the workspace, or Wave's state. */
export function sensitiveWritePath(target: string, allowedDirectories: readonly string[], stateDirectories: readonly string[] = []): { anchor: string; what: string } | undefined {
  return sensitiveWorkspacePath(target, allowedDirectories) ?? waveStatePath(target, stateDirectories);
}

/** A folder that is or holds one of Wave's state directories (a recursive search of it reads the tokens). */
export function holdsWaveState(target: string, stateDirectories: readonly string[] = []): boolean {
  return stateDirectories.some((d) => isWithin(d, target));
}

/** A system, start-up or credentials file outside the workspace. */
export function sensitiveOutsidePath(target: string, home: string): boolean {
  const relHome = path.relative(home, target);
  return (!relHome.startsWith("..") && !path.isAbsolute(relHome) && SENSITIVE_HOME.test(relHome)) || SENSITIVE_SYSTEM.test(target);
}

/** A shell start-up or credentials file in the home directory. */
export function sensitiveHomePath(target: string, home: string): boolean {
  const relHome = path.relative(home, target);
  return !relHome.startsWith("..") && !path.isAbsolute(relHome) && SENSITIVE_HOME.test(relHome);
}

/** Credentials that a reading command should not print to the model without a question. */
export function sensitiveReadPath(target: string, home: string): boolean {
  const relHome = path.relative(home, target);
  return (!relHome.startsWith("..") && !path.isAbsolute(relHome) && SECRET_HOME.test(relHome)) || SECRET_SYSTEM.test(target);
}
