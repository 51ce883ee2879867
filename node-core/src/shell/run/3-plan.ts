// Stage 3: planning. Everything about a run that is decided before any file is touched: the
// environment (childEnvironment: the login-shell probe), the shell (bash or zsh, resolved), the
// search shims and start-up files, and the invocation `<shell> -c <command>` with its environment.
import path from "node:path";
import { childEnvironment } from "../../env/index.js";
import { hostPlatform, type Platform } from "../../util/platform.js";
import { buildInvocation, withoutStartupFile, type Invocation } from "../invocation.js";
import { processOutputDir } from "../outputDir.js";
import { resolveShellCached } from "../resolve.js";
import { NO_SHIMS, type ShimInjection } from "../shims/index.js";
import type { ResolvedShell } from "../types.js";
import type { RunSpec } from "./1-request.js";

/** A run as decided before any file is touched: its shell, its invocation and the files it writes. */
export interface RunPlan {
  platform: Platform;
  shell: ResolvedShell;
  /** `<shell> -c <the command>` with its environment: what runs. */
  inv: Invocation;
  /**
   * The same with the start-up file (`inv` itself unless the run is plain): what a shell started
   * ahead waits as. For a plain run outside a sandbox (never started ahead) without the shims.
   */
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
  const rc = spec.engine.startupFiles();
  const cwdFile = spec.trackCwd ? path.join(processOutputDir(), `${spec.runId}.cwd`) : undefined;
  const invocation = (shims: ShimInjection) =>
    buildInvocation({
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
  const withShims = async () => invocation(await spec.engine.shimInjection(shell, spec.shimsEnabled));
  // A plain run outside any sandbox's wrapper is never compared with a shell started ahead, and all
  // the shims reach is the start-up file it leaves out (WAVE_SHIMS_FILE): no shim lookup for it
  // (a stat of every place a bundled binary may be) unless the start-up file is kept after all.
  const coldPlain = spec.plain === true && spec.sandbox?.wrap === undefined;
  let withStartupFile = coldPlain ? invocation(NO_SHIMS) : await withShims();
  let inv = spec.plain ? withoutStartupFile(withStartupFile, shell) : undefined;
  if (!inv) {
    if (coldPlain) withStartupFile = await withShims();
    inv = withStartupFile;
  }
  // A plain run keeps the cwd file among its files, so its sandbox is the one a shell started ahead has.
  const runFiles = [spec.outputPath, ...(spec.stderrPath !== undefined ? [spec.stderrPath] : []), ...(cwdFile ? [cwdFile] : [])];
  return { platform, shell, inv, withStartupFile, cwdFile, runFiles };
}
