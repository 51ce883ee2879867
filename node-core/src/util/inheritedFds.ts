// Descriptors the core inherited from whatever started it (an IDE, a terminal, a CI runner): none of
// them is the core's to hand on, yet every one not marked close-on-exec would reach every command
// the core starts — a terminal lets a command push keystrokes into it (TIOCSTI), a socket or pipe
// reaches the program at its other end. At start the core closes them (Node has no fcntl to set
// FD_CLOEXEC, and it uses none of them): all but stdin, stdout and stderr and Node's own IPC
// channel (NODE_CHANNEL_FD). Descriptors Node and the core open themselves are close-on-exec, so
// a command gets its stdio and the descriptors the runner passes on purpose, nothing else.
import { closeSync, readdirSync, readFileSync } from "node:fs";

const O_CLOEXEC = 0o2000000;

/** Inherited descriptors (not close-on-exec, above 2, not Node's IPC channel), from /proc/self/fdinfo. Linux only. */
export function inheritedDescriptors(env: NodeJS.ProcessEnv = process.env): number[] {
  if (process.platform !== "linux") return [];
  const keep = new Set([0, 1, 2]);
  if (env.NODE_CHANNEL_FD && /^\d+$/.test(env.NODE_CHANNEL_FD)) keep.add(Number(env.NODE_CHANNEL_FD));
  let names: string[];
  try {
    names = readdirSync("/proc/self/fdinfo");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || keep.has(fd)) continue;
    let info: string;
    try {
      info = readFileSync(`/proc/self/fdinfo/${fd}`, "utf8");
    } catch {
      continue;
    }
    const flags = /^flags:\s*([0-7]+)/m.exec(info)?.[1];
    if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) out.push(fd);
  }
  return out;
}

/** Closes the inherited descriptors (see the file's head); returns the ones closed. */
export function closeInheritedDescriptors(env: NodeJS.ProcessEnv = process.env): number[] {
  const fds = inheritedDescriptors(env);
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already gone
    }
  }
  return fds;
}
