// Credential stores: the one list of what neither a sandboxed command (shell/sandbox/policy.ts
// masks them) nor the model (the permission gate asks before a file tool or a reading command
// touches them, permissions/sensitive.ts) gets without the user. Paths relative to a home
// directory — each applies to `$HOME` and to the account's home directory from the password
// database, whichever differ; add a store here and both follow.
//
// Sources: each tool's documentation of where it keeps tokens (cloud CLIs, package managers,
// coding agents: Claude Code `~/.claude/.credentials.json`, Codex `$CODEX_HOME/auth.json`, Gemini
// CLI `~/.gemini/oauth_creds.json` and `.env`, GitHub Copilot `~/.config/github-copilot`, Cursor's
// `~/.cursor` and editor state, …).

/**
 * Credential stores in a home directory, and the shell and REPL histories that so often hold a
 * token typed on a command line. Entries in CREDENTIAL_FILTERS are still credential stores: the
 * sandbox gives commands a copy without the secrets instead of nothing.
 */
export const CREDENTIALS_IN_HOME: readonly string[] = [
  // Cloud and infrastructure
  ".aws/credentials",
  ".aws/sso/cache",
  ".aws/cli/cache",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".minikube",
  ".docker/config.json",
  ".terraform.d/credentials.tfrc.json",
  ".terraformrc",
  ".vault-token",
  ".config/doctl",
  ".oci",
  ".config/hcloud",
  ".fly",
  ".config/flyctl",
  ".vercel",
  ".local/share/com.vercel.cli",
  ".config/netlify",
  ".netlify",
  ".railway",
  ".supabase",
  ".config/heroku",
  ".config/op",
  ".config/Bitwarden CLI",
  ".config/stripe",
  ".wrangler",
  ".config/.wrangler",
  ".pulumi/credentials.json",
  ".databrickscfg",
  ".snowflake",
  ".config/sops",
  ".config/ngrok",
  ".ngrok2",
  ".kaggle/kaggle.json",
  ".cache/huggingface/token",
  ".huggingface/token",
  ".config/hub",
  ".config/gh/hosts.yml",
  ".config/glab-cli",
  ".config/tea",
  // Keys, keyrings, password stores
  ".gnupg",
  ".password-store",
  ".local/share/keyrings",
  ".pki",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".cache/git/credential",
  ".pgpass",
  ".my.cnf",
  ".Xauthority",
  ".ICEauthority",
  // Package managers and build tools
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".config/pypoetry/auth.toml",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".m2/settings.xml",
  ".m2/settings-security.xml",
  ".gradle/gradle.properties",
  ".sbt/.credentials",
  ".ivy2/.credentials",
  ".config/composer/auth.json",
  ".composer/auth.json",
  ".nuget/NuGet/NuGet.Config",
  ".config/NuGet/NuGet.Config",
  // Coding agents and their editors
  ".claude/.credentials.json",
  ".claude.json",
  ".codex/auth.json",
  ".gemini/oauth_creds.json",
  ".gemini/google_accounts.json",
  ".gemini/mcp-oauth-tokens.json",
  ".gemini/.env",
  ".config/github-copilot",
  ".copilot",
  ".cursor/cli-config.json",
  ".config/Cursor/User/globalStorage",
  ".config/Code/User/globalStorage",
  ".config/Windsurf/User/globalStorage",
  ".codeium",
  ".continue/config.json",
  ".continue/config.yaml",
  ".aider.conf.yml",
  ".config/openai",
  ".aws/amazonq",
  ".local/share/amazon-q",
  ".config/JetBrains",
  ".local/share/JetBrains/acp",
  // Histories
  ".bash_history",
  ".zsh_history",
  ".zhistory",
  ".histfile",
  ".local/share/fish/fish_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".rediscli_history",
  ".lesshst",
  ".wget-hsts",
  // Browsers
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
];

/** In ~/.ssh every entry is a credential except these (public keys, known hosts, client configuration). */
export const SSH_READABLE = /^(config.*|known_hosts.*|authorized_keys.*|.*\.pub)$/;

/** A file name that says "private key" wherever it is: id_*, *.pem, *.key, *_key, identity, *.ppk. */
const KEY_NAME = /^(id_[^.]*|identity|.*\.(pem|key|ppk|p12|pfx)|.*[_-]key)$/i;
/** The first line of a private key: PEM, OpenSSH, PuTTY. */
const KEY_HEAD = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----|^PuTTY-User-Key-File-/m;

/**
 * Whether a path inside ~/.ssh (relative to it) is a credential: at the top every name that is not
 * a readable one (`id_ed25519`, a folder `work/`); inside a readable folder (`config.d/`,
 * `known_hosts.d/`) a file named like a key or — when its first bytes are given — holding one.
 */
export function isSshCredential(relative: string, head?: string): boolean {
  const parts = relative.split("/").filter(Boolean);
  if (parts.length === 0) return false;
  if (!SSH_READABLE.test(parts[0]!)) return true;
  if (parts.length === 1) return false;
  const name = parts[parts.length - 1]!;
  if (name.endsWith(".pub")) return false;
  return KEY_NAME.test(name) || (head !== undefined && KEY_HEAD.test(head));
}

/**
 * How a filtered copy is made: `ini` drops `key = value` lines whose key names a secret (npm's
 * `//host/:_authToken`, `_auth`, `_password`, pip's `password`) and the user:password part of URLs;
 * `yaml` the same for `key: value` lines; `properties` for Java properties; `json-auths` empties
 * Docker's `auths` entries; `json-keys` drops top-level keys that name a secret; `xml` drops the
 * text of `<password>`, `<passphrase>` and `<privateKey>`.
 */
export type CredentialFilter = "ini" | "yaml" | "properties" | "json-auths" | "json-keys" | "xml";

/**
 * Credential stores that are also configuration (a registry, a proxy, mirrors): a sandboxed command
 * gets a copy without the secrets, so npm, yarn, pip, Docker, Gradle and Maven keep going where
 * the user told them, without a token. Keys are entries of CREDENTIALS_IN_HOME.
 */
export const CREDENTIAL_FILTERS: Readonly<Record<string, CredentialFilter>> = {
  ".npmrc": "ini",
  ".yarnrc.yml": "yaml",
  ".pypirc": "ini",
  ".docker/config.json": "json-auths",
  ".gradle/gradle.properties": "properties",
  ".m2/settings.xml": "xml",
  ".claude.json": "json-keys",
};

/**
 * Credential stores that the user's own tools replace (by rename) on nearly every use: a shell's
 * history when a terminal closes, less's and wget's state, Claude Code's settings file. A mount on
 * a file does not survive that; the sandbox stops the commands relying on a replaced protection,
 * except for these — stopping every background task whenever a terminal closes would make the
 * sandbox unusable. What that leaves is in docs/user/sandbox.md ("What the sandbox cannot protect against").
 */
export const REWRITTEN_OFTEN: readonly string[] = [
  ".bash_history",
  ".zsh_history",
  ".zhistory",
  ".histfile",
  ".local/share/fish/fish_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".rediscli_history",
  ".lesshst",
  ".wget-hsts",
  ".claude.json",
];

/**
 * Credential stores named by the environment: every file of `$KUBECONFIG` (colon-separated),
 * `$DOCKER_CONFIG/config.json`, `$CODEX_HOME/auth.json`, `$AWS_SHARED_CREDENTIALS_FILE`,
 * `$GOOGLE_APPLICATION_CREDENTIALS`, `$CLAUDE_CONFIG_DIR/.credentials.json`. Absolute paths.
 */
export function credentialsFromEnvironment(env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  const abs = (p: string | undefined) => (p?.startsWith("/") ? p : undefined);
  for (const p of (env.KUBECONFIG ?? "").split(":")) if (abs(p)) out.push(p);
  const add = (p: string | undefined, rel?: string) => {
    const a = abs(p);
    if (a) out.push(rel ? `${a.replace(/\/+$/, "")}/${rel}` : a);
  };
  add(env.DOCKER_CONFIG, "config.json");
  add(env.CODEX_HOME, "auth.json");
  add(env.CLAUDE_CONFIG_DIR, ".credentials.json");
  add(env.AWS_SHARED_CREDENTIALS_FILE);
  add(env.GOOGLE_APPLICATION_CREDENTIALS);
  return out;
}

/**
 * System-wide secrets that only root can read (as root they would be readable in the sandbox):
 * password hashes, SSH host keys, Kubernetes administrator configurations.
 */
export const SYSTEM_CREDENTIALS: readonly string[] = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/sudoers",
  "/etc/sudoers.d",
  "/etc/ssh/ssh_host_rsa_key",
  "/etc/ssh/ssh_host_ecdsa_key",
  "/etc/ssh/ssh_host_ed25519_key",
  "/etc/ssh/ssh_host_dsa_key",
  "/etc/kubernetes/admin.conf",
  "/etc/kubernetes/super-admin.conf",
  "/etc/kubernetes/pki",
  "/etc/rancher/k3s/k3s.yaml",
  "/var/lib/rancher/k3s/server/token",
];

/**
 * Folders the model is asked about as a whole before a file tool or a reading command shows any
 * file in them, beyond the stores above (permissions/sensitive.ts reads both). The sandbox leaves
 * their other files readable to programs — ssh needs ~/.ssh/config and known_hosts, aws its
 * ~/.aws/config, kubectl and docker their caches — but they name accounts, hosts and keys.
 */
export const CREDENTIAL_FOLDERS_IN_HOME: readonly string[] = [".ssh", ".aws", ".kube", ".docker"];
