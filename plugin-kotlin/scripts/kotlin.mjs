#!/usr/bin/env node
// Compiles the plugin's platform-free layers (bridge/, ui/) and their tests with the Kotlin compiler
// from the npm package `kotlin-compiler`, against Gson and JUnit 5 from Debian, then runs the tests
// with the JUnit console launcher. The IDE layer (ide/) needs the IntelliJ Platform and is compiled
// only by the Gradle release build.
//
//   node plugin-kotlin/scripts/kotlin.mjs test [--select CLASS]...   compile (cached) and run the tests
//   node plugin-kotlin/scripts/kotlin.mjs screenshots                 write PNGs to plugin-kotlin/build/screenshots
//   node plugin-kotlin/scripts/kotlin.mjs compile                     compile (cached) only
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pluginDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(pluginDir, "..");
const buildDir = path.join(pluginDir, "build", "kotlin");
const mainSources = ["bridge", "ui"].map((d) => path.join(pluginDir, "src", "main", "kotlin", "dev", "wavetools", "wave", d));
const testSources = [path.join(pluginDir, "src", "test", "kotlin")];
const mainResources = path.join(pluginDir, "src", "main", "resources");
const testResources = path.join(pluginDir, "src", "test", "resources");
const JVM_TARGET = "17";

function fail(message) {
  console.error(`kotlin: ${message}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.error) fail(`could not run ${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

/** The Kotlin version the Gradle build pins (settings.gradle.kts); the local compiler must be the same. */
function gradleKotlinVersion() {
  const settings = readFileSync(path.join(repoRoot, "settings.gradle.kts"), "utf8");
  const m = /id\("org\.jetbrains\.kotlin\.jvm"\)\s+version\s+"([^"]+)"/.exec(settings);
  if (!m) fail("settings.gradle.kts does not pin org.jetbrains.kotlin.jvm; the local compiler cannot be checked against it.");
  return m[1];
}

function kotlinCompiler() {
  const home = path.join(repoRoot, "node_modules", "kotlin-compiler");
  const pkgFile = path.join(home, "package.json");
  if (!existsSync(pkgFile)) fail("the npm package kotlin-compiler is not installed. Run `npm ci` at the repository root.");
  const version = JSON.parse(readFileSync(pkgFile, "utf8")).version;
  const wanted = gradleKotlinVersion();
  if (version !== wanted) {
    fail(`kotlin-compiler ${version} is installed but the Gradle build uses Kotlin ${wanted}. Pin the same version in package.json (npm install -D --save-exact kotlin-compiler@${wanted}).`);
  }
  // annotations: JetBrains' org.jetbrains.annotations (@PropertyKey on the message bundle), which the
  // Gradle build gets from the platform; compile-time only (class-retention annotations).
  return { home, version, stdlib: path.join(home, "lib", "kotlin-stdlib.jar"), annotations: path.join(home, "lib", "annotations-13.0.jar") };
}

function java() {
  const bin = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, "bin", "java") : "java";
  const r = spawnSync(bin, ["-version"], { encoding: "utf8" });
  if (r.error || r.status !== 0) fail("no Java runtime found. Install a JDK 17 or newer (Debian: default-jdk-headless) or set JAVA_HOME.");
  const m = /version "(\d+)/.exec(r.stderr);
  const major = m ? Number(m[1]) : 0;
  if (major < 17) fail(`Java ${major} is too old; the Kotlin tests need Java 17 or newer.`);
  return bin;
}

function debianJar(name, pkg) {
  const file = path.join("/usr/share/java", name);
  if (!existsSync(file)) fail(`${file} is missing. Install the Debian package ${pkg} (./scripts/setup does).`);
  return file;
}

function listKotlin(dirs) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".kt")) out.push(p);
    }
  };
  dirs.forEach(walk);
  return out.sort();
}

function hashOf(files, extra) {
  const h = createHash("sha256");
  h.update(extra.join("\0"));
  for (const f of files) {
    h.update(path.relative(pluginDir, f));
    h.update("\0");
    h.update(readFileSync(f));
  }
  return h.digest("hex").slice(0, 16);
}

/**
 * kotlinc is a short-lived JVM: by the time C2 has compiled its hot paths the job is nearly done.
 * C1 alone and the serial collector, in one run for main and test, cut the CPU time of a cold
 * compile of bridge/, ui/ and the tests from about 95 s (two runs with the default JIT) to about
 * 35 s on 2 cores, which matters because CI always compiles cold.
 */
const KOTLINC_JAVA_OPTS = "-Xmx1g -Xss4m -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m -XX:+UseSerialGC";

/**
 * Main and test sources are compiled by one kotlinc run (one JVM warm-up instead of two), which
 * would let main code use a test helper without a compile error here; the Gradle build keeps them
 * apart. This check catches that here: no main source may name a class declared only in tests.
 */
function checkMainIndependentOfTests(mainFiles, testFiles) {
  const testTypes = new Set();
  for (const f of testFiles) {
    for (const m of readFileSync(f, "utf8").matchAll(/^(?:internal |private )?(?:data |sealed |abstract |open )?(?:class|object|interface) ([A-Z]\w*)/gm)) testTypes.add(m[1]);
  }
  const problems = [];
  for (const f of mainFiles) {
    const text = readFileSync(f, "utf8");
    if (/^import org\.junit\./m.test(text)) problems.push(`${path.relative(pluginDir, f)} imports JUnit`);
    for (const t of testTypes) if (new RegExp(`\\b${t}\\b`).test(text)) problems.push(`${path.relative(pluginDir, f)} uses ${t}, which only the tests declare`);
  }
  if (problems.length) fail(`main sources must not depend on test code (the Gradle build would fail):\n  ${problems.join("\n  ")}`);
}

/** Compiles main and test sources into a directory named by their content hash; reuses it when nothing changed. */
function compile(mainFiles, testFiles, classpath, compiler) {
  const files = [...mainFiles, ...testFiles];
  if (mainFiles.length === 0) fail("no Kotlin sources found under src/main/kotlin (bridge/, ui/)");
  const key = hashOf(files, [compiler.version, JVM_TARGET, KOTLINC_JAVA_OPTS, ...classpath]);
  const out = path.join(buildDir, `classes-${key}`);
  if (existsSync(path.join(out, ".complete"))) {
    console.log(`kotlin: classes are up to date (${mainFiles.length} main, ${testFiles.length} test files)`);
    return out;
  }
  mkdirSync(buildDir, { recursive: true });
  for (const old of readdirSync(buildDir)) {
    if (/^(classes|main|test)-/.test(old)) rmSync(path.join(buildDir, old), { recursive: true, force: true });
  }
  const tmp = `${out}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  const started = Date.now();
  console.log(`kotlin: compiling ${mainFiles.length} main and ${testFiles.length} test files with Kotlin ${compiler.version}`);
  const status = run(
    "bash",
    [
      path.join(compiler.home, "bin", "kotlinc"),
      "-jvm-target", JVM_TARGET,
      "-language-version", "2.0",
      "-api-version", "2.0",
      "-nowarn",
      "-classpath", classpath.join(path.delimiter),
      "-d", tmp,
      ...files,
    ],
    { env: { ...process.env, JAVA_HOME: process.env.JAVA_HOME ?? "", JAVA_OPTS: KOTLINC_JAVA_OPTS } },
  );
  if (status !== 0) fail("compiling failed (see the errors above).");
  writeFileSync(path.join(tmp, ".complete"), new Date().toISOString());
  renameSync(tmp, out);
  console.log(`kotlin: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}

function countReports(dir) {
  let tests = 0, failures = 0, errors = 0, skipped = 0;
  if (!existsSync(dir)) return undefined;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith(".xml")) continue;
    const xml = readFileSync(path.join(dir, f), "utf8");
    for (const m of xml.matchAll(/<testsuite\b[^>]*>/g)) {
      const attr = (n) => Number((new RegExp(`\\b${n}="(\\d+)"`).exec(m[0]) ?? [])[1] ?? 0);
      tests += attr("tests"); failures += attr("failures"); errors += attr("errors"); skipped += attr("skipped");
    }
  }
  return { passed: tests - failures - errors - skipped, failed: failures + errors, skipped };
}

function main() {
  const [command = "test", ...rest] = process.argv.slice(2);
  if (!["test", "compile", "screenshots"].includes(command)) fail(`unknown command "${command}" (use test, compile or screenshots)`);
  const javaBin = java();
  const compiler = kotlinCompiler();
  const gson = debianJar("gson.jar", "libgoogle-gson-java");
  const junit = debianJar("junit-platform-console-standalone.jar", "junit5");
  const mainFiles = listKotlin(mainSources);
  const testFiles = listKotlin(testSources);
  checkMainIndependentOfTests(mainFiles, testFiles);
  const classes = compile(mainFiles, testFiles, [gson, junit, compiler.annotations], compiler);
  if (command === "compile") return;
  // Main resources hold the message bundle (messages/WaveBundle.properties) the UI reads its texts from.
  const runtime = [classes, mainResources, testResources, gson, compiler.stdlib];
  const core = path.join(repoRoot, "node-core", "dist", "wave-core.js");
  const props = [
    "-Djava.awt.headless=true",
    `-Dwave.repoRoot=${repoRoot}`,
    `-Dwave.coreScript=${core}`,
    "-Dfile.encoding=UTF-8",
    // The test themes give their fonts the fallback the IDE's fonts have (sun.font.FontUtilities).
    "--add-exports=java.desktop/sun.font=ALL-UNNAMED",
  ];
  if (command === "screenshots") {
    const outDir = path.join(pluginDir, "build", "screenshots");
    const status = run(javaBin, [...props, "-cp", runtime.join(path.delimiter), "dev.wavetools.wave.ui.screenshots.ScreenshotsKt", outDir]);
    process.exit(status);
  }
  if (!existsSync(core)) fail(`${core} is missing. Run \`npm run build\` first.`);
  const reports = path.join(buildDir, "test-reports");
  rmSync(reports, { recursive: true, force: true });
  const selectors = [];
  for (let i = 0; i < rest.length; i++) if (rest[i] === "--select") selectors.push(`--select-class=${rest[++i]}`);
  const started = Date.now();
  const status = run(javaBin, [
    ...props,
    "-cp", junit,
    "org.junit.platform.console.ConsoleLauncher",
    "--disable-banner",
    "--details=tree",
    "--details-theme=ascii",
    "--disable-ansi-colors",
    "--exclude-engine=junit-vintage",
    "--fail-if-no-tests",
    `--reports-dir=${reports}`,
    `--class-path=${[...runtime].join(path.delimiter)}`,
    ...(selectors.length ? selectors : [`--scan-class-path=${classes}`]),
  ]);
  const counts = countReports(reports);
  console.log(`kotlin: tests took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (counts) console.log(`kotlin: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exit(status);
}

main();
