// The command path of the shell tools (Bash, run_shell_command), in named stages. Open the files in
// the order of their numbers; docs/dev/command-path.md tells the whole life of one Bash call.
//   1-request.ts    what a tool hands over (RunRequest), and the run it becomes (RunSpec); the errors
//   2-session.ts    the session's runs (RUNS): names each run, chooses the launcher, stops the rest at the end
//   3-plan.ts       planning: environment, shell, shims, start-up files, the invocation
//   4-launcher.ts   the Launcher interface and the cold launcher (plan → spawn → handle)
//   5-ahead.ts      the shell started ahead: a sandboxed shell waiting for the next command (allow-list)
//   6-spawn.ts      spawning: the run's files, the sandbox's wrapper, the process; bwrap's report
//   7-handle.ts     ShellRun, the handle of a running command: wait, stop, cwd
//   8-survivors.ts  survivor detection, one strategy at a time
// Code outside shell/run imports from here.
export { SpawnFailed, type ExitStatus, type RunRequest, type RunSpec, type Survivor } from "./1-request.js";
export { RUNS, SessionRuns, startsAhead } from "./2-session.js";
export { planRun, type RunPlan } from "./3-plan.js";
export { ColdLauncher, startShellRun, type Launcher } from "./4-launcher.js";
export { AheadLauncher, warmShellsEnabled } from "./5-ahead.js";
export type { Launch } from "./6-spawn.js";
export { CWD_FILE_MAX_BYTES, ShellRun, type ShellRunOptions } from "./7-handle.js";
