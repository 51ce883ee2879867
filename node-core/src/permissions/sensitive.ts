// Files whose change reaches beyond the edit itself: system and start-up files, credentials, and
// — inside the workspace — files that tools run or obey later without asking (git's
// configuration and hooks, direnv's .envrc, agent and IDE settings that start programs or grant
// permissions). Writing one is asked even inside the allowed directories (docs/user/permissions.md, "Sensitive workspace files").
// The workspace list lives in base/sensitive.ts: the sandbox (shell/sandbox) keeps the same files
// read-only.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { isWithin } from "../util/paths.js";
import { hardLinkedCredential, linkedCredentialsInside } from "../base/hardLinks.js";
import { CREDENTIAL_FOLDERS_IN_HOME, CREDENTIALS_IN_HOME, credentialsFromEnvironment, SYSTEM_CREDENTIALS } from "../base/credentials.js";

/** Shell and login start-up files in the home directory: they run at every login. */
const STARTUP_HOME =
  /^(\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zshenv|\.zprofile|\.zlogin|\.zlogout|\.gitconfig|\.config\/fish\/config\.fish|\.pam_environment|\.xprofile)$/;
export const SENSITIVE_SYSTEM = /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|root|sys|proc|dev|var\/lib|opt|System|Library|private\/etc)(\/|$)/;

/**
 * Credential stores, relative to a home directory: the one list the sandbox masks
 * (base/credentials.ts) and the folders the model is asked about whole. Compared without regard
 * to case: on macOS and Windows `~/.SSH/id_rsa` is `~/.ssh/id_rsa`.
 */
const CREDENTIAL_STORES = [...new Set([...CREDENTIAL_FOLDERS_IN_HOME, ...CREDENTIALS_IN_HOME])].map((rel) => ({ rel, lower: rel.toLowerCase() }));

/**
 * Credential files named by absolute path, from the same list the sandbox masks: the system's
 * root-only secrets and the files the environment names ($KUBECONFIG, $DOCKER_CONFIG, …). Read
 * at each question: the login environment the core adopts can set them after start.
 */
function namedCredentialFiles(): string[] {
  return [...SYSTEM_CREDENTIALS, ...credentialsFromEnvironment(process.env)];
}

/** System files that hold secrets beyond that list: backups of the password files, a process's environment or memory. */
const SYSTEM_SECRETS = /^\/(etc\/(shadow|gshadow|sudoers|ssh\/ssh_host_[^/]*_key)|proc\/[^/]+\/(environ|mem)|proc\/kcore)(\/|$|[-.~])/;
/** What the read-only list has always asked for besides: another account's home (root's). */
const OTHER_HOME = /^\/root(\/|$)/;

/** A place whose content the model gets only with the user's consent: what it is, and the store or folder it lies in. */
export interface SensitiveRead {
  /** The credential store, state directory or system file `target` is (or lies in). */
  readonly anchor: string;
  readonly what: string;
}

/** The credential store (in any of `homes`) that `target` is or lies in. */
export function credentialStore(target: string, homes: readonly string[]): SensitiveRead | undefined {
  for (const home of homes) {
    const rel = path.relative(home, target);
    if (rel === "" || rel === ".." || rel.startsWith(".." + path.sep) || path.isAbsolute(rel)) continue;
    const lower = rel.split(path.sep).join("/").toLowerCase();
    for (const s of CREDENTIAL_STORES) {
      if (lower === s.lower || lower.startsWith(s.lower + "/")) {
        return { anchor: path.join(home, rel.split(path.sep).slice(0, s.rel.split("/").length).join(path.sep)), what: `a credential store (~/${s.rel})` };
      }
    }
  }
  return undefined;
}

/**
 * What reading `target` (a real path) would hand the model that the sandbox hides from commands:
 * a credential store in the home directory or the account's, a system file with secrets, or one
 * of Wave's state directories (the tokens of listening cores).
 */
export function sensitiveReadPath(target: string, places: { homes: readonly string[]; stateDirectories?: readonly string[] }): SensitiveRead | undefined {
  const store = credentialStore(target, places.homes);
  if (store) return store;
  const named = namedCredentialFiles().find((p) => isWithin(target, p));
  if (named) return { anchor: named, what: "a credential file (a system secret, or one the environment names)" };
  if (SYSTEM_SECRETS.test(target)) return { anchor: target, what: "a system file that holds secrets (password hashes, keys, a process's environment or memory)" };
  const state = waveStatePath(target, places.stateDirectories);
  if (state) return { anchor: state.anchor, what: "Wave's state directory (the endpoints and tokens agents attach with)" };
  // A second name of a store's file is that file (hardLinks.ts): only files with several names are compared.
  return hardLinkedCredential(target, places);
}

/** The read-only list's test: the places above, and another account's home (it has always asked for /root). */
export function secretForReadOnly(target: string, places: { homes: readonly string[]; stateDirectories?: readonly string[] }): boolean {
  return sensitiveReadPath(target, places) !== undefined || OTHER_HOME.test(target);
}

/**
 * The sensitive places that lie strictly inside `dir` (a real path) and exist: what a search of
 * `dir` goes around. Wave's state directories and the stores of every home below `dir`.
 */
export function sensitiveInside(dir: string, places: { homes: readonly string[]; stateDirectories?: readonly string[] }): string[] {
  const out = new Set<string>();
  const below = (p: string) => p !== dir && isWithin(p, dir);
  for (const home of places.homes) {
    if (!below(home) && home !== dir) continue;
    for (const s of CREDENTIAL_STORES) {
      const p = path.join(home, s.rel);
      if (below(p) && existsSync(p)) out.add(p);
    }
  }
  for (const d of places.stateDirectories ?? []) if (below(d) && existsSync(d)) out.add(d);
  for (const f of namedCredentialFiles()) if (below(f) && existsSync(f)) out.add(f);
  // Other names (hard links) of store files, wherever they lie below `dir`; `dir` itself when it is too large to look through.
  for (const f of linkedCredentialsInside(dir, places)) out.add(f);
  // A store inside another one (~/.aws/credentials in ~/.aws) is left out with its folder.
  if (out.has(dir)) return [dir];
  return [...out].filter((p) => ![...out].some((q) => q !== p && isWithin(p, q))).sort();
}

import { SENSITIVE_WORKSPACE } from "../base/sensitive.js";

/** Python runs `.pth` files and sitecustomize in site-packages at every start. */
const PYTHON_STARTUP = /(^|\/)site-packages\/([^/]+\.pth|sitecustomize\.py|usercustomize\.py)$/i;

/** `yarnPath: …` in .yarnrc.yml (Yarn 2+), `yarn-path "…"` in .yarnrc (Yarn 1). */
const YARN_PATH = { ".yarnrc.yml": /^\s*yarnPath\s*:\s*["']?([^"'#\r\n]+?)["']?\s*(#.*)?$/m, ".yarnrc": /^\s*yarn-path\s+["']?([^"'#\r\n]+?)["']?\s*$/m } as const;

/**
 * The yarn configuration (in `root` or a folder between it and `target`) whose yarnPath is
 * `target`: every `yarn` there runs that file, whatever its name (`.yarn/releases/yarn-4.cjs`
 * usually, but any path).
 */
function yarnPathOf(target: string, root: string, segments: readonly string[]): string | undefined {
  for (let i = 0; i < segments.length; i++) {
    const dir = path.join(root, ...segments.slice(0, i));
    for (const [file, pattern] of Object.entries(YARN_PATH)) {
      const rc = path.join(dir, file);
      if (!existsSync(rc)) continue;
      let text: string;
      try {
        text = readFileSync(rc, "utf8").slice(0, 64 * 1024);
      } catch {
        continue;
      }
      const named = pattern.exec(text)?.[1]?.trim();
      if (named && path.resolve(dir, named) === target) return path.join(dir, file);
    }
  }
  return undefined;
}

/** The sensitive file or folder `target` is (or lies in), relative to the allowed directory that holds it. */
export function sensitiveWorkspacePath(target: string, allowedDirectories: readonly string[]): { anchor: string; what: string } | undefined {
  const root = allowedDirectories.filter((d) => isWithin(target, d)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return undefined;
  const segments = path.relative(root, target).split(path.sep).filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const last = i === segments.length - 1;
    for (const e of SENSITIVE_WORKSPACE) {
      if (!e.name.test(segments[i]!)) continue;
      if (e.parent && (i === 0 || !e.parent.test(segments[i - 1]!))) continue;
      if (!last && !e.directory) continue;
      return { anchor: path.join(root, ...segments.slice(0, i + 1)), what: e.what };
    }
  }
  if (PYTHON_STARTUP.test(segments.join("/"))) return { anchor: target, what: "Python runs it at every start (.pth files and sitecustomize in site-packages)" };
  const yarn = yarnPathOf(target, root, segments);
  if (yarn) return { anchor: target, what: `the program every yarn command runs instead of yarn (yarnPath in ${yarn})` };
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
export function sensitiveOutsidePath(target: string, homes: readonly string[]): boolean {
  return sensitiveHomePath(target, homes) || SENSITIVE_SYSTEM.test(target);
}

/** A shell start-up file or a credential store in a home directory. */
export function sensitiveHomePath(target: string, homes: readonly string[]): boolean {
  if (credentialStore(target, homes)) return true;
  return homes.some((home) => {
    const relHome = path.relative(home, target);
    return !relHome.startsWith("..") && !path.isAbsolute(relHome) && STARTUP_HOME.test(relHome);
  });
}
