// Login-environment probe (BASH-ENV): how long the probe takes on this machine for bash and zsh
// with an empty and with a slow rc file (the figures), against the same login shell running the
// probe's command line by hand (same rc, same environment, timed in a fresh Node process, as the
// probe runs while the core has just started). The ratio is the probe's own overhead: shell
// choice, markers, the minimal environment, parsing, adoption, clean-up.
// Then: `initialize` latency while a hanging profile is being probed, against the probe off —
// the ratio shows start-up is not delayed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { coreBundle, median, nowMs, report, startCore } from "./lib.mjs";

const RUNS = { empty: 11, slow: 5 };
// A profile that spends half a second, like nvm or a version manager on a cold network mount.
const SLOW_RC_SECONDS = 0.5;

function fakeHome(shell, rc) {
  const home = mkdtempSync(join(tmpdir(), "wave-env-bench-"));
  if (shell === "bash") {
    writeFileSync(join(home, ".bash_profile"), '[ -f "$HOME/.bashrc" ] && . "$HOME/.bashrc"\n');
    writeFileSync(join(home, ".bashrc"), rc);
  } else {
    writeFileSync(join(home, ".zshrc"), rc);
  }
  return home;
}

function environment(home, shell, extra = {}) {
  return { HOME: home, SHELL: `/bin/${shell}`, PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", ...extra };
}

/** The probe's own measurement (durationMs) from `wave-core env --json`. */
function probeDuration(env) {
  const r = spawnSync(process.execPath, [coreBundle, "env", "--json"], { env, encoding: "utf8" });
  const status = JSON.parse(r.stdout);
  if (status.state !== "ok") throw new Error(`probe ${status.state}: ${status.reason}`);
  return status.durationMs;
}

/** The probe's command line (probeCommand.ts) and environment (BASH-ENV-5), run by hand. */
const PROBE_SCRIPT = 'command echo "__S__"; command env -0 && command echo "__E__" || command env';
const ANTI_NOISE = { DISABLE_AUTO_UPDATE: "true", ZSH_DISABLE_COMPFIX: "true", SSH_ASKPASS_REQUIRE: "never", DBUS_SESSION_BUS_ADDRESS: "disabled:" };
const HAND_RUN = `
const { spawn } = require("node:child_process");
const [shell, home, script] = process.argv.slice(1);
const t0 = performance.now();
const child = spawn(shell, ["-l", "-i", "-c", script], { env: JSON.parse(process.env.BENCH_SHELL_ENV), cwd: home, stdio: ["ignore", "pipe", "pipe"], detached: true });
child.stdout.resume();
child.stderr.resume();
child.once("close", () => console.log(performance.now() - t0));
`;

function plainLoginShell(shell, env) {
  const r = spawnSync(process.execPath, ["-e", HAND_RUN, `/bin/${shell}`, env.HOME, PROBE_SCRIPT], {
    env: { ...env, BENCH_SHELL_ENV: JSON.stringify({ ...env, ...ANTI_NOISE }) },
    encoding: "utf8",
  });
  const ms = Number(r.stdout.trim());
  if (!Number.isFinite(ms)) throw new Error(`hand-run ${shell} failed: ${r.stderr}`);
  return ms;
}

for (const shell of ["bash", "zsh"]) {
  for (const kind of ["empty", "slow"]) {
    const home = fakeHome(shell, kind === "empty" ? "" : `sleep ${SLOW_RC_SECONDS}\n`);
    try {
      const env = environment(home, shell);
      probeDuration(env); // warm-up: page cache, shell start-up files
      const probe = [];
      const plain = [];
      for (let i = 0; i < RUNS[kind]; i++) {
        probe.push(probeDuration(env));
        plain.push(plainLoginShell(shell, env));
      }
      report({
        name: `probe ${shell}, ${kind} rc (median of ${RUNS[kind]})`,
        value: median(probe),
        baseline: median(plain),
        baselineName: "the same command by hand",
        goal: kind === "empty" ? 1.3 : 1.1,
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
}

async function initializeLatency(env) {
  const t0 = nowMs();
  const core = startCore(["--root", env.HOME], { env, stdio: ["pipe", "pipe", "ignore"] });
  await core.request("initialize", {});
  const elapsed = nowMs() - t0;
  await core.close();
  return elapsed;
}

{
  const home = fakeHome("bash", "sleep 60\n");
  try {
    const hanging = [];
    const off = [];
    for (let i = 0; i < 7; i++) {
      hanging.push(await initializeLatency(environment(home, "bash")));
      off.push(await initializeLatency(environment(home, "bash", { WAVE_LOGIN_ENV: "0" })));
    }
    report({
      name: "initialize while a hanging profile is probed (median of 7)",
      value: median(hanging),
      baseline: median(off),
      baselineName: "probe off",
      goal: 1.25,
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
