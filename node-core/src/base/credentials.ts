// Credential stores: the one list of what neither a sandboxed command (shell/sandbox/policy.ts
// masks them) nor the model (the permission gate asks before a file tool or a reading command
// touches them, permissions/sensitive.ts) gets without the user. Paths relative to a home
// directory; add a store here and both follow.

/**
 * Credential stores in a home directory, and the shell and REPL histories that so often hold a
 * token typed on a command line.
 */
export const CREDENTIALS_IN_HOME: readonly string[] = [
  ".aws/credentials",
  ".aws/sso/cache",
  ".aws/cli/cache",
  ".azure",
  ".config/gcloud",
  ".kube/config",
  ".docker/config.json",
  ".gnupg",
  ".password-store",
  ".local/share/keyrings",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".config/gh/hosts.yml",
  ".config/hub",
  ".npmrc",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".pgpass",
  ".bash_history",
  ".zsh_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".Xauthority",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
];

/** In ~/.ssh every entry is a credential except these (public keys, known hosts, client configuration). */
export const SSH_READABLE = /^(config.*|known_hosts.*|authorized_keys.*|.*\.pub)$/;

/**
 * Folders the model is asked about as a whole before a file tool or a reading command shows any
 * file in them, beyond the stores above (permissions/sensitive.ts reads both). The sandbox leaves
 * their other files readable to programs — ssh needs ~/.ssh/config and known_hosts, aws its
 * ~/.aws/config, kubectl and docker their caches — but they name accounts, hosts and keys.
 */
export const CREDENTIAL_FOLDERS_IN_HOME: readonly string[] = [".ssh", ".aws", ".kube", ".docker"];
