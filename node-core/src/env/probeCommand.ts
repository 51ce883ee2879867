// What the probe runs: the command line (BASH-ENV-2, BASH-ENV-9) and the probe shell's own minimal
// environment (BASH-ENV-5). Pure functions; the process boundary is in runProbeShell.ts.
import { randomBytes } from "node:crypto";
import type { PlatformName } from "../util/platform.js";

export interface ProbeMarkers {
  start: string;
  end: string;
}

/**
 * Fresh markers for each attempt. A random part means nothing a profile prints (banners, fortunes,
 * a previous probe's output replayed) can be mistaken for the probe's own output.
 */
export function newMarkers(nonce: string = randomBytes(8).toString("hex")): ProbeMarkers {
  return { start: `__WAVE_LOGIN_ENV_${nonce}_START__`, end: `__WAVE_LOGIN_ENV_${nonce}_END__` };
}

export type ProbeForm = "full" | "path-only";

/**
 * The `-c` script. `full` is BASH-ENV-2's `echo "<start>"; env -0 && echo "<end>" || env`:
 * NUL-separated when `env -0` works, plain lines (no end marker) when it does not. `command`
 * keeps an alias or function named `env` or `echo` in the user's rc from standing in for them.
 * `path-only` uses nothing but shell built-ins, for a login shell in which `env` cannot run.
 */
export function posixProbeScript(markers: ProbeMarkers, form: ProbeForm = "full"): string {
  if (form === "path-only") {
    return `command echo "${markers.start}"; command printf '%s\\n' "$PATH"; command echo "${markers.end}"`;
  }
  return `command echo "${markers.start}"; command env -0 && command echo "${markers.end}" || command env`;
}

/** BASH-ENV-9: Git Bash converts its login PATH to Windows form; only PATH is adopted there. */
function windowsProbeScript(markers: ProbeMarkers): string {
  return `echo "${markers.start}"; cygpath -pw "$PATH" && echo "${markers.end}"`;
}

export interface ProbeInvocation {
  file: string;
  args: string[];
}

export function probeInvocation(platform: PlatformName, shell: string, markers: ProbeMarkers, form: ProbeForm = "full"): ProbeInvocation {
  if (platform === "win32") return { file: shell, args: ["-lic", windowsProbeScript(markers)] };
  return { file: shell, args: ["-l", "-i", "-c", posixProbeScript(markers, form)] };
}

/**
 * Set for the probe shell only, so a login shell neither updates itself (oh-my-zsh), audits
 * completion directories (compinit), asks for a passphrase in a window, nor waits on D-Bus.
 */
export const ANTI_NOISE_VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  DISABLE_AUTO_UPDATE: "true",
  ZSH_DISABLE_COMPFIX: "true",
  SSH_ASKPASS_REQUIRE: "never",
  DBUS_SESSION_BUS_ADDRESS: "disabled:",
});

/**
 * Inherited variables the probe shell may see (BASH-ENV-5): who and where the user is, the agent
 * socket, locale and display. LOGNAME is the POSIX spelling of USER; WAYLAND_DISPLAY is a name
 * relative to XDG_RUNTIME_DIR, so the two travel together.
 */
const PASSED_TO_PROBE = new Set(["HOME", "PATH", "USER", "LOGNAME", "SSH_AUTH_SOCK", "LANG", "LANGUAGE", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR"]);

function passesToProbe(key: string): boolean {
  return PASSED_TO_PROBE.has(key) || key.startsWith("LC_");
}

/**
 * The probe shell's environment. On macOS/Linux it is minimal, so what comes back is what the
 * login shell itself set up, not what the IDE happened to be started with. Git Bash needs the
 * Windows system variables (SystemRoot, USERPROFILE, ...) to start at all and only its PATH is
 * adopted, so on Windows the inherited environment is passed on.
 */
export function probeEnvironment(platform: PlatformName, inherited: NodeJS.ProcessEnv, shell: string, home: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  if (platform === "win32") {
    for (const [key, value] of Object.entries(inherited)) if (value !== undefined) env[key] = value;
  } else {
    for (const [key, value] of Object.entries(inherited)) if (value !== undefined && passesToProbe(key)) env[key] = value;
    if (home) env.HOME = home;
    env.SHELL = shell;
  }
  return { ...env, ...ANTI_NOISE_VARIABLES };
}
