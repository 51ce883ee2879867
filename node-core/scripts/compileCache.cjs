"use strict";
// wave-core start-up (see scripts/build.mjs): the core's code follows this loader in the same file,
// inside a comment, so Node.js does not compile it here. The loader compiles it with V8's code cache
// when there is one for exactly this code, this Node.js and this architecture, which spares the
// start-up most of its compiling; otherwise it compiles the code as usual and, half a second later
// (after the first request has run), stores the cache for the next start.
// A cache is code the core runs: it lives in Wave's state directory (`${WAVE_STATE_DIR:-~/.wave}/cache`,
// base/stateDir.ts), which the sandbox hides from commands and the permission gate guards, and is
// used only when that folder and the file are the user's own and writable by nobody else (on
// Windows, where the mode bits do not say that, the check fails and no cache is used).
// WAVE_COMPILE_CACHE=0 turns all of this off.
(function startWaveCore() {
  const fs = require("node:fs");
  const path = require("node:path");
  const vm = require("node:vm");
  const os = require("node:os");
  const MARKER = "/*\0WAVE-CORE-CODE\n";
  const file = fs.readFileSync(__filename, "latin1");
  const start = file.indexOf(MARKER) + MARKER.length;
  // "*/" inside the code was stored as "*\0/" so the comment holds it; the code has no raw NUL.
  const code = file.slice(start, file.lastIndexOf("\n*/")).replace(/\*\0\//g, "*/");
  const lineOffset = file.slice(0, start).split("\n").length - 1;

  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const ours = (st, isKind) => st !== undefined && isKind(st) && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
  const lstat = (p) => fs.lstatSync(p, { throwIfNoEntry: false });
  let dir;
  let cacheFile;
  if (process.env.WAVE_COMPILE_CACHE !== "0") {
    const stateDir = process.env.WAVE_STATE_DIR;
    const base = stateDir && stateDir.trim() !== "" ? path.resolve(stateDir) : path.join(os.homedir(), ".wave");
    if (path.isAbsolute(base)) {
      dir = path.join(base, "cache");
      cacheFile = path.join(dir, `code-__CODE_HASH__-${process.version}-${process.arch}.cache`);
    }
  }
  let cachedData;
  try {
    if (cacheFile && ours(lstat(dir), (s) => s.isDirectory()) && ours(lstat(cacheFile), (s) => s.isFile())) cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, {
    filename: __filename,
    lineOffset,
    cachedData,
  });
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
    const store = () => {
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (!ours(lstat(dir), (s) => s.isDirectory())) return;
        const temp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: "wx" });
        fs.renameSync(temp, cacheFile);
        // Caches of other builds, untouched for a week, go.
        const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
        for (const name of fs.readdirSync(dir)) {
          const other = path.join(dir, name);
          const st = /^code-.*\.cache$/.test(name) && other !== cacheFile ? lstat(other) : undefined;
          if (st?.isFile() && st.mtimeMs < weekAgo) fs.rmSync(other, { force: true });
        }
      } catch {
        // No cache this time: the next start compiles as usual.
      }
    };
    setTimeout(store, 500).unref();
  }
  script.runInThisContext()(exports, require, module, __filename, __dirname);
})();
