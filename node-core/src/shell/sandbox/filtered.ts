// Copies of credential stores without their secrets (base/credentials.ts CREDENTIAL_FILTERS): a
// sandboxed `npm install` still finds the user's registry, scopes and proxy in ~/.npmrc, Docker its
// proxies and credential helpers, Gradle and Maven their mirrors — but no token, password or key.
// What counts as a secret errs on the side of hiding: any key that names an auth token, a password,
// a passphrase, a secret, an API key or a private key, and the user:password part of every URL.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CredentialFilter } from "../../base/credentials.js";

/**
 * A key whose value is a secret (npm's `//registry/:_authToken`, pip's `password`, Gradle's
 * `systemProp.https.proxyPassword`, …): one that holds a word for a secret, or ends in one for a login.
 */
const SECRET_KEY = /password|passwd|passphrase|secret|token|api[_-]?key|private[_-]?key|credential|(auth|authident|username|user|email|otp|keyfile|certfile)$/i;
const MAX_BYTES = 1024 * 1024;

/** `scheme://user:password@host` → `scheme://host`. */
function withoutUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1");
}

function filterLines(text: string, keyOf: (line: string) => string | undefined): string {
  return text
    .split(/\r?\n/)
    .filter((line) => {
      const key = keyOf(line.trim());
      return key === undefined || !SECRET_KEY.test(key.trim());
    })
    .map(withoutUserinfo)
    .join("\n");
}

const iniKey = (line: string) => (/^[#;]/.test(line) ? undefined : /^([^=]+?)\s*=/.exec(line)?.[1]);
const yamlKey = (line: string) => (line.startsWith("#") ? undefined : /^["']?([A-Za-z0-9_.\-/:@]+)["']?\s*:/.exec(line)?.[1]);
const propertiesKey = (line: string) => (/^[#!]/.test(line) ? undefined : /^((?:\\.|[^=:\s])+)\s*[=:\s]/.exec(line)?.[1]);

function dropSecretKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropSecretKeys);
  if (!value || typeof value !== "object") return typeof value === "string" ? withoutUserinfo(value) : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!SECRET_KEY.test(k) && !/oauth|session/i.test(k)) out[k] = dropSecretKeys(v);
  return out;
}

/** The text of `file` without its secrets, or undefined when it cannot be filtered (then it is masked whole). */
export function filterCredentials(text: string, filter: CredentialFilter): string | undefined {
  switch (filter) {
    case "ini":
      return filterLines(text, iniKey);
    case "yaml":
      return filterLines(text, yamlKey);
    case "properties":
      return filterLines(text, propertiesKey);
    case "xml":
      return withoutUserinfo(text.replace(/<(password|passphrase|privateKey)>[\s\S]*?<\/\1>/gi, "<$1></$1>"));
    case "json-auths":
    case "json-keys": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return undefined;
      }
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
      const obj = { ...(parsed as Record<string, unknown>) };
      if (filter === "json-auths") {
        // Docker: which registries exist may stay; how to log in to them goes.
        if (obj.auths && typeof obj.auths === "object") obj.auths = Object.fromEntries(Object.keys(obj.auths).map((k) => [k, {}]));
        return JSON.stringify(dropSecretKeys(obj), null, 2) + "\n";
      }
      return JSON.stringify(dropSecretKeys(obj), null, 2) + "\n";
    }
  }
}

/**
 * Writes the filtered copy of `file` into `dir` (0600, by rename, only when its content changed)
 * and returns its path; undefined when the file cannot be read or filtered.
 */
export function writeFilteredCopy(file: string, filter: CredentialFilter, dir: string): string | undefined {
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const filtered = filterCredentials(text, filter);
  if (filtered === undefined) return undefined;
  const copy = path.join(dir, `${createHash("sha256").update(file).digest("hex").slice(0, 16)}-${path.basename(file)}`);
  try {
    if (readFileSync(copy, "utf8") === filtered) return copy;
  } catch {
    // not written yet
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${copy}.${process.pid}.tmp`;
  writeFileSync(tmp, filtered, { mode: 0o600 });
  renameSync(tmp, copy);
  return copy;
}
