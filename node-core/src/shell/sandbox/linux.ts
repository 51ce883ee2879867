// The policy as a bubblewrap command line. Pure: paths in, argv out.
//
//   --unshare-user    a user namespace of its own, as root too: whatever uid the core runs as, the
//                     command holds no capability in the host's user namespace (and gets the
//                     kernel keyrings of its own namespace)
//   --disable-userns  and cannot make another one to gain capabilities back
//   --seccomp 5       the filter of seccomp.ts (no unix sockets, no io_uring, no keyrings, no
//                     TIOCSTI), when this architecture has one
//   --ro-bind /proc/sys, /proc/acpi
//                     the kernel's settings stay read-only in the new /proc: as uid 0 a process
//                     may write /proc/sys by its file modes alone, capabilities or not (bwrap
//                     covers /proc/sysrq-trigger, /proc/irq and /proc/bus itself; /sys is part of
//                     the read-only `/`)
//
//   --unshare-pid     its own process namespace: it sees and signals only its own processes,
//                     and killing the namespace's first process ends every process in it
//   --info-fd 3       tells the core that first process (bwrap's reaper): every process of the
//                     command, however it detached, is its descendant
//   --unshare-ipc     no System V IPC with the host's processes
//   --cap-drop ALL    as root too (bwrap keeps root's capabilities unless told not to, and a root
//                     with CAP_SYS_ADMIN could remount `/` read-write)
//   --unshare-net     network `deny`: a namespace with only its own loopback
//   --ro-bind / /     read everything the user can, write nothing; then the policy's mounts in
//                     order: writable binds, pinned directories, read-only protections, and empty
//                     unreadable placeholders over denied paths
//   --dev, --proc     a private /dev (with its own /dev/shm) and a /proc of the new namespace
//
// No --die-with-parent: bwrap would kill the namespace as soon as the shell exits, taking the
// processes a command leaves running (`server &`) with it. The core's watchdog stops them when
// the core dies instead, as it does without a sandbox.
//
// No --new-session: the core starts bwrap in a new session of its own (a detached spawn calls
// setsid), so the command has no controlling terminal to push keystrokes into (TIOCSTI), and
// --dev gives it a private /dev/pts where the user's terminals do not exist. Staying in bwrap's
// process group keeps the tools' promise that the command's process group is the one the result
// names (PGID = the pid the core started): `kill -- -PGID` outside reaches the command's
// processes, as without a sandbox.
import { orderedMounts, type SandboxPolicy } from "./policy.js";

export interface MaskFiles {
  /** An empty directory nobody may list (mode 000). */
  directory: string;
  /** An empty file nobody may read (mode 000). */
  file: string;
}

/** The descriptor bwrap writes `{"child-pid": <its reaper's pid>, …}` to once the sandbox is up. */
export const BWRAP_INFO_FD = 3;
/** The descriptor bwrap reads the seccomp program from (4 is a shell started ahead's socket). */
export const BWRAP_SECCOMP_FD = 5;

/** Kernel interfaces in the new /proc kept read-only (bwrap covers sysrq-trigger, irq and bus itself). */
export const READ_ONLY_PROC = ["/proc/sys"];
export const READ_ONLY_PROC_IF_PRESENT = ["/proc/acpi"];

export function bwrapArgs(policy: SandboxPolicy, opts: { cwd: string; masks: MaskFiles; seccomp: boolean; disableUserns?: boolean }): string[] {
  const args = ["--unshare-user", ...(opts.disableUserns === false ? [] : ["--disable-userns"]), "--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL", "--info-fd", String(BWRAP_INFO_FD)];
  if (opts.seccomp) args.push("--seccomp", String(BWRAP_SECCOMP_FD));
  if (policy.network === "deny") args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const p of READ_ONLY_PROC) args.push("--ro-bind", p, p);
  for (const p of READ_ONLY_PROC_IF_PRESENT) args.push("--ro-bind-try", p, p);
  for (const m of orderedMounts(policy)) {
    switch (m.kind) {
      case "writable":
      case "pinned":
        args.push("--bind", m.path, m.path);
        break;
      case "read-only":
        args.push("--ro-bind", m.path, m.path);
        break;
      case "denied":
        args.push("--ro-bind", m.directory ? opts.masks.directory : opts.masks.file, m.path);
        break;
      case "filtered":
        args.push("--ro-bind", m.source!, m.path);
        break;
    }
  }
  args.push("--chdir", opts.cwd);
  return args;
}
