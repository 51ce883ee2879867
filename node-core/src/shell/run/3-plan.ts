// Stage 3: planning. Everything about a run that is decided before any file is touched: the
// environment (childEnvironment: the login-shell probe), the shell (bash or zsh, resolved), the
// search shims and start-up files, and the invocation `<shell> -c <command>` with its environment.
import path from "node:path";
import { childEnvironment } from "../../env/index.js";
import { hostPlatform, type Platform } from "../../util/platform.js";
import { buildInvocation, withoutStartupFile, type Invocation } from "../invocation.js";
import { processOutputDir } from "../outputDir.js";
import { resolveShellCached } from "../resolve.js";
import type { ResolvedShell } from "../types.js";
import type { RunSpec } from "./1-request.js";

/** A run as decided before any file is touched: its shell, its invocation and the files it writes. */
export interface RunPlan {
  platform: Platform;
  shell: ResolvedShell;
  /** `<shell> -c <the command>` with its environment: what runs. */
  inv: Invocation;
  /** The same with the start-up file (`inv` itself unless the run is plain): what a shell started ahead waits as. */
  withStartupFile: Invocation;
  /** Where the shell reports the directory it ends in (a plain run's shell is not told of it, and it is not read). */
  cwdFile: string | undefined;
  /** Files the command writes by path (output, stderr, cwd file): a sandbox makes exactly these writable. */
  runFiles: string[];
}

export async function planRun(spec: RunSpec): Promise<RunPlan> {
  const platform = spec.platform ?? hostPlatform();
  const baseEnv = await childEnvironment({ signal: spec.signal });
  const shell = resolveShellCached(baseEnv, platform, spec.shellKind);
  const shims = await spec.engine.shimInjection(shell, spec.shimsEnabled);
  const rc = spec.engine.startupFiles();
  const cwdFile = spec.trackCwd ? path.join(processOutputDir(), `${spec.runId}.cwd`) : undefined;
  const withStartupFile = buildInvocation({
    shell,
    command: spec.command,
    baseEnv,
    shims,
    runId: spec.runId,
    cwdFile,
    cwd: spec.cwd,
    bashRcFile: rc.bash,
    zshRcDir: rc.zshDir,
    corePid: process.pid,
  });
  // A plain run keeps the cwd file among its files, so its sandbox is the one a shell started ahead has.
  const runFiles = [spec.outputPath, ...(spec.stderrPath !== undefined ? [spec.stderrPath] : []), ...(cwdFile ? [cwdFile] : [])];
  const inv = (spec.plain && withoutStartupFile(withStartupFile, shell)) || withStartupFile;
  return { platform, shell, inv, withStartupFile, cwdFile, runFiles };
}
