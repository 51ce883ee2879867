// Whether bash can parse a command, checked before it runs so a syntax error costs nothing: a
// `bash -c` script runs command by command and would execute the parts before the error. The
// shell parser the permission layer loads anyway answers first; only when it finds an error does
// the real bash confirm it (`bash -n`, which reads without executing), so bash has the last word
// and a valid command pays no extra process.
import { execFile } from "node:child_process";
import { childEnvironment } from "../env/index.js";
import { loadSyntax } from "../util/bashSyntax.js";
import { hostPlatform } from "../util/platform.js";
import { resolveShellCached } from "./resolve.js";

const CHECK_TIMEOUT_MS = 5000;

/** bash's own message for a command it cannot parse, or undefined when it parses. */
export async function bashSyntaxError(command: string, opts: { signal?: AbortSignal } = {}): Promise<string | undefined> {
  const lib = await loadSyntax();
  if ((lib.parse(command).errors ?? []).length === 0) return undefined;
  const env = { ...(await childEnvironment({ signal: opts.signal })) };
  // Nothing is sourced: -n only reads, and a start-up file would only add its own noise.
  delete env.BASH_ENV;
  const bash = resolveShellCached(env, hostPlatform(), "bash").path;
  return new Promise((resolve) => {
    execFile(
      bash,
      ["--norc", "--noprofile", "-n", "-c", command],
      { env, timeout: CHECK_TIMEOUT_MS, encoding: "utf8", windowsHide: true, ...(opts.signal ? { signal: opts.signal } : {}) },
      (err, _stdout, stderr) => {
        // Only a clean "syntax error" from bash counts; a check that could not run decides nothing.
        if (!err) return resolve(undefined);
        const lines = stderr.split("\n").filter((l) => l.trim());
        const message = lines.find((l) => /syntax error|unexpected|unterminated|unmatched|looking for matching/i.test(l));
        resolve(message ? lines.join("\n").trim().slice(0, 2000) : undefined);
      },
    ).stdin?.end();
  });
}
