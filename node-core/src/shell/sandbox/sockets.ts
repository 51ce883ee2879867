// Unix sockets outside the sandbox, for when the seccomp filter cannot refuse them all
// (`sandbox.allowUnixSockets` names some, or the architecture has no filter): then every socket
// the core can find is masked instead, except the allowed ones. Found: each filesystem socket
// bound in the core's network namespace (/proc/net/unix lists them, wherever they are), and the
// folders programs put their sockets in (tmux, screen, ssh-agent, the runtime directory), masked
// whole so a socket made there later is covered too. What this cannot cover — a socket bound later
// somewhere else, one of another network namespace — is why blocking is the default.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Filesystem sockets listed in /proc/net/unix (`/proc/net/unix`'s last column; abstract ones start with "@"). */
export function listedSockets(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split("\n").slice(1)) {
    const cols = line.trim().split(/\s+/);
    const p = cols.length >= 8 ? cols.slice(7).join(" ") : undefined;
    if (p?.startsWith("/")) out.add(p);
  }
  return [...out];
}

function readListed(): string[] {
  try {
    return listedSockets(readFileSync("/proc/net/unix", "utf8"));
  } catch {
    return [];
  }
}

function entries(dir: string, match: RegExp): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => match.test(n))
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/** Folders that hold other programs' sockets: masked whole (sockets made in them later are covered). */
export function socketFolders(env: Readonly<Record<string, string | undefined>>, uid = process.getuid?.() ?? 0): string[] {
  const tmp = ["/tmp", os.tmpdir(), ...(env.TMUX_TMPDIR ? [env.TMUX_TMPDIR] : [])];
  const out = [`/tmp/.X11-unix`, "/tmp/.ICE-unix", `/run/screen/S-${os.userInfo().username}`, "/var/run/screen", `/run/user/${uid}`];
  for (const t of new Set(tmp)) out.push(...entries(t, new RegExp(`^(tmux-${uid}|ssh-[A-Za-z0-9]+|vscode-.*\\.sock|.*\\.sock|screens|\\.s\\.PGSQL\\..*|mysql\\.sock.*)$`)));
  if (env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR)) out.push(env.XDG_RUNTIME_DIR);
  if (env.SSH_AUTH_SOCK && path.isAbsolute(env.SSH_AUTH_SOCK)) out.push(env.SSH_AUTH_SOCK);
  return out;
}

/** Every socket and socket folder to mask when sockets cannot be refused by the filter. */
export function socketsToMask(env: Readonly<Record<string, string | undefined>>): string[] {
  return [...socketFolders(env), ...readListed()];
}
