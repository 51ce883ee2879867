// Writes a probe result into the core's environment (BASH-ENV-4): allow-listed keys only, never
// over a key the host already set, except PATH, which is merged (login entries first).
import type { PlatformName } from "../util/platform.js";

const PROXY_KEYS = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"];

/**
 * The variables a login shell may contribute: tool lookup, the SSH agent, Wave's own shell
 * choice, proxies (both spellings) and trust stores.
 */
export const ADOPTED_KEYS: readonly string[] = Object.freeze([
  "PATH",
  "SSH_AUTH_SOCK",
  "WAVE_SHELL",
  "WAVE_GIT_BASH_PATH",
  ...PROXY_KEYS,
  ...PROXY_KEYS.map((k) => k.toLowerCase()),
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
]);
const ADOPTED = new Set(ADOPTED_KEYS);

/**
 * Never adopted, whatever the allow-list says: they change how the core itself or every child
 * runs (NODE_OPTIONS, the dynamic loader, git's repository selection, shell start-up files).
 * Checked as well as the allow-list so that widening the list can never let these in.
 */
function isNeverAdopted(key: string): boolean {
  const k = key.toUpperCase();
  if (k === "GIT_SSL_CAINFO") return false;
  return k === "NODE_OPTIONS" || k.startsWith("LD_") || k.startsWith("DYLD_") || k.startsWith("GIT_") || k === "BASH_ENV" || k === "ENV" || k === "ZDOTDIR" || k === "SHELLOPTS" || k === "BASHOPTS";
}

export function isAdoptable(key: string, platform: PlatformName): boolean {
  if (isNeverAdopted(key)) return false;
  if (platform === "win32") return key.toUpperCase() === "PATH";
  return ADOPTED.has(key);
}

function findKey(env: NodeJS.ProcessEnv, name: string, platform: PlatformName): string | undefined {
  if (platform !== "win32") return Object.hasOwn(env, name) ? name : undefined;
  const wanted = name.toUpperCase();
  return Object.keys(env).find((k) => k.toUpperCase() === wanted);
}

/** Proxy settings come in two spellings; a host that set either one has decided the proxy. */
function hostDecided(env: NodeJS.ProcessEnv, key: string, platform: PlatformName): boolean {
  if (findKey(env, key, platform) !== undefined) return true;
  if (PROXY_KEYS.includes(key.toUpperCase())) {
    const other = key === key.toUpperCase() ? key.toLowerCase() : key.toUpperCase();
    return findKey(env, other, platform) !== undefined;
  }
  return false;
}

function pathDelimiter(platform: PlatformName): string {
  return platform === "win32" ? ";" : ":";
}

/**
 * Login entries first, then the inherited ones, each directory once. Empty entries are dropped:
 * an empty PATH entry means "the current directory", which nobody means to add. On Windows the
 * comparison ignores case and a trailing separator, as Windows itself does.
 */
export function mergePath(login: string, inherited: string | undefined, platform: PlatformName): string {
  const delimiter = pathDelimiter(platform);
  const identity = (dir: string) => (platform === "win32" ? dir.replace(/[\\/]+$/, "").toLowerCase() : dir);
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const dir of [...login.split(delimiter), ...(inherited ?? "").split(delimiter)]) {
    if (dir.length === 0) continue;
    const id = identity(dir);
    if (seen.has(id)) continue;
    seen.add(id);
    merged.push(dir);
  }
  return merged.join(delimiter);
}

/**
 * Adopts `probed` into `env` (the core's `process.env` in production) and returns the names of
 * the keys it changed. PATH counts as adopted when merging changed it.
 */
export function adoptInto(env: NodeJS.ProcessEnv, probed: ReadonlyMap<string, string>, platform: PlatformName): string[] {
  const adopted: string[] = [];
  for (const [key, value] of probed) {
    if (!isAdoptable(key, platform)) continue;
    if (key.toUpperCase() === "PATH" && (platform === "win32" || key === "PATH")) {
      // On Windows the key may be spelled `Path`: update that one rather than add a second.
      const existing = findKey(env, "PATH", platform) ?? "PATH";
      const merged = mergePath(value, env[existing], platform);
      if (merged.length > 0 && merged !== env[existing]) {
        env[existing] = merged;
        adopted.push("PATH");
      }
      continue;
    }
    if (hostDecided(env, key, platform)) continue;
    env[key] = value;
    adopted.push(key);
  }
  return adopted.sort();
}
