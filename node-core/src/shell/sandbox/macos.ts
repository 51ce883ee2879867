// The policy as a Seatbelt profile for `sandbox-exec` (macOS). Pure: paths in, profile and argv
// out. Paths never appear in the profile text: each one is a parameter (`(param "W0")`) passed as
// `-D W0=<path>`, so no path — quotes, parentheses, newlines, backslashes and all — can change the
// profile's meaning. In Seatbelt's language the last matching rule wins, so the order is: allow
// everything; deny every write; allow the writable places; deny the protected ones again (every
// git directory whole, as on Linux); deny renaming the directories that hold protected paths; deny
// writing kernel settings (sysctl); deny connecting to any unix socket except DNS's
// (mDNSResponder), sockets inside the writable places (a command's own servers) and
// `sandbox.allowUnixSockets`; deny reading (and connecting to) denied paths — credential stores of
// both home directories, and the originals of filtered copies (the copy is given through the
// tool's own variable: NPM_CONFIG_USERCONFIG); and, for network `deny`, deny IP traffic. Seatbelt
// decides by path at every access, so nothing here lapses when a file is replaced.
import type { SandboxPolicy } from "./policy.js";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** Name resolution on macOS goes through this socket: the one host socket every command may reach. */
const MDNS_SOCKET = "/private/var/run/mDNSResponder";

/** Devices every command writes to (`>/dev/null`, `2>&1` through /dev/fd, the terminal). */
const DEVICE_WRITES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/tty")',
  '(literal "/dev/dtracehelper")',
  '(literal "/dev/stdout")',
  '(literal "/dev/stderr")',
  '(subpath "/dev/fd")',
];

export interface SeatbeltProfile {
  profile: string;
  /** `KEY=path` for each `-D`. */
  params: string[];
}

export function seatbeltProfile(policy: SandboxPolicy): SeatbeltProfile {
  const params: string[] = [];
  const param = (prefix: string, value: string) => {
    const key = `${prefix}${params.length}`;
    params.push(`${key}=${value}`);
    return `(param "${key}")`;
  };
  const lines = ["(version 1)", "(allow default)", "(deny file-write*)", `(allow file-write* ${DEVICE_WRITES.join(" ")})`, "(deny sysctl-write)"];
  const writable = [...policy.writable, ...policy.pinned].map((p) => `(subpath ${param("W", p)})`);
  if (writable.length) lines.push(`(allow file-write* ${writable.join(" ")})`);
  if (policy.readOnly.length) lines.push(`(deny file-write* ${policy.readOnly.map((p) => `(subpath ${param("R", p)})`).join(" ")})`);
  if (policy.pinned.length) lines.push(`(deny file-write-unlink ${policy.pinned.map((p) => `(literal ${param("P", p)})`).join(" ")})`);
  lines.push("(deny network-outbound (remote unix-socket))", `(allow network-outbound (remote unix-socket (path-literal "${MDNS_SOCKET}")))`);
  const socketPlaces = [...policy.writable, ...policy.unixSocketsAllowed].map((p) => `(subpath ${param("U", p)})`);
  if (socketPlaces.length) lines.push(`(allow network-outbound ${socketPlaces.join(" ")})`);
  const denied = [...policy.denied, ...policy.filtered.map((f) => ({ path: f.path, directory: false }))];
  if (denied.length) {
    lines.push(`(deny file-read* file-write* ${denied.map((d) => `(subpath ${param("D", d.path)})`).join(" ")})`);
    const sockets = denied.filter((d) => !d.directory);
    if (sockets.length) {
      lines.push(`(deny network-outbound ${sockets.map((d) => `(remote unix-socket (path-literal ${param("S", d.path)}))`).join(" ")})`);
    }
  }
  if (policy.network === "deny") lines.push("(deny network-outbound (remote ip))", "(deny network-inbound (local ip))");
  return { profile: lines.join("\n") + "\n", params };
}

/** `sandbox-exec -p <profile> -D … <command…>`. */
export function sandboxExecArgs(policy: SandboxPolicy, command: readonly string[]): string[] {
  const { profile, params } = seatbeltProfile(policy);
  return ["-p", profile, ...params.flatMap((p) => ["-D", p]), ...command];
}
