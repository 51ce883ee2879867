// Where Wave keeps its state: `${WAVE_STATE_DIR:-~/.wave}`. Listening cores publish their MCP
// endpoint and bearer token there (protocol/ideLock.ts). A command that read a token could call
// the file tools — which run outside the OS sandbox — through that endpoint, and one that wrote a
// lock file could send another agent's `mcp --attach` elsewhere; so the sandbox hides these
// directories from commands (shell/sandbox/policy.ts) and the permission gate asks before anything
// writes them (permissions/sensitive.ts).
import os from "node:os";
import path from "node:path";

/** The folder of the discovery lock files inside a state directory. */
export const LOCK_FOLDER = "ide";

/** The state directory this process uses: WAVE_STATE_DIR, else `~/.wave`. */
export function waveStateDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  return env.WAVE_STATE_DIR && env.WAVE_STATE_DIR.trim() !== "" ? path.resolve(env.WAVE_STATE_DIR) : path.join(home, ".wave");
}

/**
 * Every state directory a core of this user may publish in: this process's own, and the default
 * `.wave` under both the HOME it was given and the account's home directory, so a core started
 * with another HOME or WAVE_STATE_DIR (an agent's own core, a test) still guards the IDE's.
 */
export function waveStateDirectories(env: NodeJS.ProcessEnv = process.env, homes: ReadonlyArray<string | undefined> = [os.homedir(), accountHome()]): string[] {
  const out = [waveStateDir(env, homes[0] ?? os.homedir())];
  for (const home of homes) if (home && path.isAbsolute(home)) out.push(path.join(home, ".wave"));
  return [...new Set(out)];
}

let account: { home: string | undefined } | undefined;

/**
 * The home directory of the account (the password database's), whatever HOME says. Looked up once:
 * every sandboxed command asks, the lookup may go through NSS, and the account does not change
 * while the process runs.
 */
export function accountHome(): string | undefined {
  if (!account) {
    try {
      account = { home: os.userInfo().homedir || undefined };
    } catch {
      account = { home: undefined };
    }
  }
  return account.home;
}
