#!/usr/bin/env node
// Compiles the whole plugin (bridge/, ui/ and the IDE layer ide/) and its tests with the Kotlin
// compiler from the npm package `kotlin-compiler`, against Gson and JUnit 5 from Debian, then runs
// the tests with the JUnit console launcher. ide/ compiles against src/platformApi/: compile-only
// declarations of exactly the IntelliJ Platform API the plugin uses, transcribed from the platform's
// sources (each file names its source path and commit). They are never shipped and Gradle never sees
// them (the release build compiles against the real platform). src/platformTest/ holds the tests of
// ide/, which run against those declarations (fakes for the platform), so Gradle never sees them either.
//
//   node plugin-kotlin/scripts/kotlin.mjs test [--select CLASS]...   compile (cached) and run the tests
//   node plugin-kotlin/scripts/kotlin.mjs screenshots                 write PNGs to plugin-kotlin/build/screenshots
//   node plugin-kotlin/scripts/kotlin.mjs compile                     compile (cached) only
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const pluginDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(pluginDir, "..");
const buildDir = path.join(pluginDir, "build", "kotlin");
const waveSources = path.join(pluginDir, "src", "main", "kotlin", "dev", "wavetools", "wave");
// All of src/main/kotlin (bridge/, ui/, ide/ and whatever joins them): a folder added later is compiled too.
const mainSources = [path.join(pluginDir, "src", "main", "kotlin")];
const ideSources = path.join(waveSources, "ide");
const platformApiKotlin = path.join(pluginDir, "src", "platformApi", "kotlin");
const platformApiJava = path.join(pluginDir, "src", "platformApi", "java");
const testSources = [path.join(pluginDir, "src", "test", "kotlin"), path.join(pluginDir, "src", "platformTest", "kotlin")];
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
  // kotlinx-coroutines: the compiler's own copy (1.6.4). The IDE bundles a newer one, which ide/ uses at
  // run time; ide/ uses only API that 1.6 already has (suspendCancellableCoroutine, runBlocking in tests).
  return {
    home,
    version,
    stdlib: path.join(home, "lib", "kotlin-stdlib.jar"),
    annotations: path.join(home, "lib", "annotations-13.0.jar"),
    coroutines: path.join(home, "lib", "kotlinx-coroutines-core-jvm.jar"),
  };
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

function javacOf(javaBin) {
  const javac = path.join(path.dirname(javaBin), "javac");
  const bin = javaBin === "java" ? "javac" : javac;
  const r = spawnSync(bin, ["-version"], { encoding: "utf8" });
  if (r.error || r.status !== 0) fail("no javac found: the platform declarations need a JDK, not just a JRE (Debian: default-jdk-headless).");
  return bin;
}

function debianJar(name, pkg) {
  const file = path.join("/usr/share/java", name);
  if (!existsSync(file)) fail(`${file} is missing. Install the Debian package ${pkg} (./scripts/setup does).`);
  return file;
}

function listFiles(dirs, ext) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(ext)) out.push(p);
    }
  };
  dirs.forEach(walk);
  return out.sort();
}

const listKotlin = (dirs) => listFiles(dirs, ".kt");

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
 * Every Kotlin and Java source under plugin-kotlin/src is in one of the sets compiled here (main,
 * test, platformTest, platformApi): a source set this script does not know would otherwise be
 * left out silently, and its errors would first show in the Gradle build.
 */
export function uncompiledSources(srcDir, compiled) {
  const set = new Set(compiled);
  return listFiles([srcDir], ".kt")
    .concat(listFiles([srcDir], ".java"))
    .filter((f) => !set.has(f));
}

function checkEverySourceCompiled(compiled) {
  const left = uncompiledSources(path.join(pluginDir, "src"), compiled);
  if (left.length) fail(`these sources are in no source set kotlin.mjs compiles (add their folder to it):\n  ${left.map((f) => path.relative(pluginDir, f)).join("\n  ")}`);
}

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

/**
 * The tests' environment: the developer's, without the login-shell probe. Every core a test starts
 * (and every `wave-core mcp --attach` an agent under test starts) inherits it, so none runs the
 * developer's own profile; the tests whose subject is the probe give a home of their own and clear it.
 */
function testEnvironment(tmp) {
  return { ...process.env, WAVE_LOGIN_ENV: "0", ...(tmp ? { TMPDIR: tmp } : {}) };
}

/**
 * A temporary directory of the test run's own (TMPDIR and java.io.tmpdir for the tests and every
 * core they start), so that what the run leaves behind can be counted without looking at anyone
 * else's files.
 */
function runTempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "wave-kotlin-run-"));
  // Like /tmp: anything the tests start may keep its temporary files here.
  chmodSync(dir, 0o1777);
  return dir;
}

/** What is in the run's temporary directory; the cores' shared output root counts only for what it holds. */
function leftovers(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name.startsWith("wave-core-")) for (const inner of readdirSync(path.join(dir, name))) out.push(`${name}/${inner}`);
    else out.push(name);
  }
  return out.sort();
}

/**
 * The check at the end of the run: a core's start-up sweep removes what cores the tests killed
 * with SIGKILL left (their output folders); one core is started for that, as the next IDE start
 * would. Whatever is still there then was left by a test or by a core that should have removed it.
 */
async function checkLeftovers(dir, core) {
  if (leftovers(dir).length > 0) {
    const sweeper = spawn(process.execPath, [core, "serve", "--root", dir], { env: testEnvironment(dir), stdio: ["pipe", "ignore", "ignore"] });
    for (let i = 0; i < 100 && leftovers(dir).some((n) => n.startsWith("wave-core-")); i++) await new Promise((r) => setTimeout(r, 100));
    sweeper.stdin.end();
    await new Promise((r) => sweeper.once("exit", r));
  }
  const left = leftovers(dir);
  rmSync(dir, { recursive: true, force: true });
  if (left.length === 0) return true;
  console.error(
    `kotlin: the test run left ${left.length} ${left.length === 1 ? "entry" : "entries"} in its temporary directory (tests must remove what they make; the core must remove what it makes):\n  ${left.slice(0, 40).join("\n  ")}`,
  );
  return false;
}

/**
 * Compiles the platform declarations, main and test sources into a directory named by their content
 * hash; reuses it when nothing changed. kotlinc reads the Java declarations as sources; javac then
 * compiles them against kotlinc's output.
 */
function compile(sources, classpath, compiler, javac) {
  const { mainFiles, testFiles, apiKotlin, apiJava } = sources;
  const files = [...apiKotlin, ...mainFiles, ...testFiles];
  if (mainFiles.length === 0) fail("no Kotlin sources found under src/main/kotlin (bridge/, ui/, ide/)");
  const key = hashOf([...files, ...apiJava], [compiler.version, JVM_TARGET, KOTLINC_JAVA_OPTS, ...classpath]);
  const out = path.join(buildDir, `classes-${key}`);
  const counts = `${mainFiles.length} main, ${testFiles.length} test files, ${apiKotlin.length + apiJava.length} platform declarations`;
  if (existsSync(path.join(out, ".complete"))) {
    console.log(`kotlin: classes are up to date (${counts})`);
    return out;
  }
  mkdirSync(buildDir, { recursive: true });
  for (const old of readdirSync(buildDir)) {
    if (/^(classes|main|test)-/.test(old)) rmSync(path.join(buildDir, old), { recursive: true, force: true });
  }
  const tmp = `${out}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  const started = Date.now();
  console.log(`kotlin: compiling ${counts} with Kotlin ${compiler.version}`);
  const status = kotlinc(compiler, classpath, tmp, [...files, ...apiJava]);
  if (status !== 0) fail("compiling failed (see the errors above).");
  if (apiJava.length) {
    const j = run(javac, ["-nowarn", "-proc:none", "--release", JVM_TARGET, "-encoding", "UTF-8", "-cp", [tmp, ...classpath].join(path.delimiter), "-d", tmp, ...apiJava]);
    if (j !== 0) fail("compiling the platform declarations (src/platformApi/java) failed (see the errors above).");
  }
  writeFileSync(path.join(tmp, ".complete"), new Date().toISOString());
  renameSync(tmp, out);
  console.log(`kotlin: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return out;
}

function kotlinc(compiler, classpath, outDir, files, opts = {}) {
  return run(
    "bash",
    [
      path.join(compiler.home, "bin", "kotlinc"),
      "-jvm-target",
      JVM_TARGET,
      "-language-version",
      "2.0",
      "-api-version",
      "2.0",
      "-nowarn",
      "-classpath",
      classpath.join(path.delimiter),
      "-d",
      outDir,
      ...files,
    ],
    { env: { ...process.env, JAVA_HOME: process.env.JAVA_HOME ?? "", JAVA_OPTS: KOTLINC_JAVA_OPTS }, ...opts },
  );
}

// ---- The platform declarations: where each comes from, and that they are exactly what the plugin uses ----

/** Packages that only the IDE provides: the plugin may use them in ide/ only, and only as declared in src/platformApi. */
const PLATFORM_PACKAGES = /^(com\.intellij|kotlinx\.serialization|org\.jetbrains\.(?!annotations\b))\./;
// The commit the signatures were read at; or "not-in-index (searched: …)" where the source is not in the
// searchable index (the signatures then come from JetBrains' documentation or other copies, as the comment says).
const DECLARATION_HEADER = /^\/\/ Declares \(compile-only, never shipped\): (\S.*?) (\S+) @ ([0-9a-f]{40}|not-looked-up|not-in-index \(searched: [^()]+\))$/;

/** Each declaration file names the repository, the source path and the commit it was read at. */
export function checkDeclarationHeaders(files) {
  const problems = [];
  let unverified = 0;
  let notInIndex = 0;
  for (const f of files) {
    const first = readFileSync(f, "utf8").split("\n", 1)[0];
    const m = DECLARATION_HEADER.exec(first);
    if (!m) problems.push(`${path.relative(pluginDir, f)}: the first line must be "// Declares (compile-only, never shipped): <repository> <source path> @ <commit>"`);
    else if (m[3] === "not-looked-up") unverified++;
    else if (m[3].startsWith("not-in-index")) notInIndex++;
  }
  return { problems, unverified, notInIndex };
}

/** The fully qualified names the declarations define: top-level types, functions, properties and constants. */
export function declaredNames(files) {
  const names = new Set();
  for (const f of files) {
    const text = readFileSync(f, "utf8");
    const pkg = (/^package ([\w.]+)/m.exec(text) ?? [])[1] ?? "";
    if (f.endsWith(".java")) {
      names.add(`${pkg}.${path.basename(f, ".java")}`);
      continue;
    }
    const top =
      /^(?:(?:public|inline|internal|sealed|abstract|open|data|const|private|fun interface)\s+)*(?:class|interface|object|fun|val|var)\s+(?:<(?:[^<>]|<[^<>]*>)*>\s*)?(?:[\w.]+(?:<(?:[^<>]|<[^<>]*>)*>)?\.)?(\w+)/gm;
    for (const m of text.matchAll(top)) names.add(`${pkg}.${m[1]}`);
  }
  return names;
}

/**
 * Every platform symbol the plugin names must be declared, and only ide/ may name one: imports and
 * fully qualified uses of com.intellij.*, kotlinx.serialization.* and org.jetbrains.* (but the
 * annotations). The compiler then checks each member against the declarations. Also, each
 * declaration must be used by ide/ or by another declaration, so the list stays exactly what the
 * plugin uses.
 */
export function checkPlatformUse({ mainFiles, apiFiles, ideDir }) {
  const declared = declaredNames(apiFiles);
  const problems = [];
  const used = new Set();
  for (const f of mainFiles) {
    const rel = path.relative(pluginDir, f);
    const inIde = f.startsWith(ideDir + path.sep);
    const text = readFileSync(f, "utf8");
    const refs = new Set();
    // A star import names a package: `import com.intellij.openapi.wm.*` is a use of the platform too.
    for (const m of text.matchAll(/^import ([\w.]+?)(\.\*)?(?: as \w+)?\s*$/gm)) refs.add(m[2] ? `${m[1]}.*` : m[1]);
    // bridge/ and ui/ run without the IDE: they may not reach the platform through ide/ either.
    if (!inIde)
      for (const m of text.matchAll(/^import (dev\.wavetools\.wave\.ide\b[\w.*]*)/gm)) problems.push(`${rel} imports ${m[1]}: bridge/ and ui/ may not depend on ide/ (it needs the IntelliJ Platform)`);
    for (const line of text.split("\n")) {
      if (/^\s*(import|package) /.test(line) || /^\s*(\/\/|\*)/.test(line)) continue;
      // Names in string literals (a class looked up by reflection) are not uses the compiler sees.
      for (const m of line.replace(/"(?:[^"\\]|\\.)*"/g, '""').matchAll(/\b((?:com\.intellij|kotlinx\.serialization|org\.jetbrains)(?:\.[a-z]\w*)+\.[A-Z]\w*)/g)) refs.add(m[1]);
    }
    for (const ref of refs) {
      if (!PLATFORM_PACKAGES.test(ref)) continue;
      if (!inIde) {
        problems.push(`${rel} uses ${ref}: only ide/ may use the IntelliJ Platform (bridge/ and ui/ run without it)`);
        continue;
      }
      if (ref.endsWith(".*")) problems.push(`${rel} imports ${ref}: import each platform class by name, so that src/platformApi can be checked against what ide/ uses`);
      else if (declared.has(ref)) used.add(ref);
      else problems.push(`${rel} uses ${ref}, which src/platformApi does not declare: transcribe its signature from the platform's source (name the path and commit in the file's first line)`);
    }
  }
  const apiText = apiFiles.map((f) => readFileSync(f, "utf8")).join("\n");
  const ideText = mainFiles
    .filter((f) => f.startsWith(ideDir + path.sep))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  for (const name of declared) {
    if (used.has(name)) continue;
    const simple = name.slice(name.lastIndexOf(".") + 1);
    const word = new RegExp(`\\b${simple}\\b`, "g");
    const inApi = (apiText.match(word) ?? []).length > 1; // more than its own declaration
    if (!word.test(ideText) && !inApi) problems.push(`src/platformApi declares ${name}, which nothing uses: remove it (the declarations are exactly the API the plugin uses)`);
  }
  return problems;
}

/**
 * Proof that the check is real: a probe that names an undeclared platform class and an undeclared
 * member of a declared one must fail to compile against the declarations. Cached by their hash.
 */
function probeUndeclaredUse(compiler, classes, apiFiles, classpath) {
  const probe = [
    "package probe",
    "fun undeclaredClass() = com.intellij.openapi.wm.StatusBar::class",
    "fun undeclaredMember() = com.intellij.openapi.application.ApplicationManager.getApplication().isHeadlessEnvironment",
    "",
  ].join("\n");
  const key = hashOf(apiFiles, [compiler.version, probe]);
  const marker = path.join(buildDir, `probe-${key}.ok`);
  if (existsSync(marker)) return;
  for (const old of readdirSync(buildDir)) if (/^probe-/.test(old)) rmSync(path.join(buildDir, old), { recursive: true, force: true });
  const dir = path.join(buildDir, `probe-${key}.tmp`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "Probe.kt");
  writeFileSync(file, probe);
  const r = spawnSync("bash", [path.join(compiler.home, "bin", "kotlinc"), "-nowarn", "-classpath", [classes, ...classpath].join(path.delimiter), "-d", path.join(dir, "out"), file], {
    encoding: "utf8",
    env: { ...process.env, JAVA_OPTS: KOTLINC_JAVA_OPTS },
  });
  rmSync(dir, { recursive: true, force: true });
  const output = `${r.stdout}${r.stderr}`;
  const unresolved = (output.match(/[Uu]nresolved reference/g) ?? []).length;
  if (r.status === 0 || unresolved < 2) {
    fail(`a use of an undeclared platform class and member compiled against src/platformApi (exit ${r.status}, ${unresolved} unresolved references); the declarations check is not real:\n${output}`);
  }
  writeFileSync(marker, new Date().toISOString());
  console.log("kotlin: an undeclared platform class and member fail to compile against the declarations, as they must");
}

/**
 * The committed Gradle wrapper must refuse a distribution whose SHA-256 is not the pinned one: it is
 * run (with this machine's Java) against a local archive and must stop at the checksum. Cached by the
 * hash of the wrapper's files.
 */
function checkGradleWrapper(javaBin) {
  const wrapperDir = path.join(repoRoot, "gradle", "wrapper");
  const jar = path.join(wrapperDir, "gradle-wrapper.jar");
  const props = readFileSync(path.join(wrapperDir, "gradle-wrapper.properties"), "utf8");
  const pinned = (/^distributionSha256Sum=([0-9a-f]{64})$/m.exec(props) ?? [])[1];
  if (!pinned) fail("gradle/wrapper/gradle-wrapper.properties pins no distributionSha256Sum.");
  if (!/^distributionUrl=.*gradle-(\d+\.\d+(\.\d+)?)-bin\.zip$/m.test(props)) fail("gradle/wrapper/gradle-wrapper.properties names no gradle-<version>-bin.zip.");
  const key = hashOf([jar, path.join(wrapperDir, "gradle-wrapper.properties"), path.join(repoRoot, "gradlew")], [javaBin]);
  const marker = path.join(buildDir, `wrapper-${key}.ok`);
  if (existsSync(marker)) return;
  mkdirSync(buildDir, { recursive: true });
  for (const old of readdirSync(buildDir)) if (/^wrapper-/.test(old)) rmSync(path.join(buildDir, old), { recursive: true, force: true });
  const tmp = path.join(buildDir, `wrapper-${key}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(path.join(tmp, "gradle", "wrapper"), { recursive: true });
  // An archive that is not Gradle's: any checksum but the pinned one.
  const archive = path.join(tmp, "gradle-0.0-bin.zip");
  writeFileSync(archive, Buffer.from("PK\x05\x06" + "\0".repeat(18), "binary"));
  writeFileSync(path.join(tmp, "gradle", "wrapper", "gradle-wrapper.properties"), props.replace(/^distributionUrl=.*$/m, `distributionUrl=${"file\\:" + archive}`));
  // The wrapper reads the properties beside its jar, as in a project.
  const copy = path.join(tmp, "gradle", "wrapper", "gradle-wrapper.jar");
  writeFileSync(copy, readFileSync(jar));
  const r = spawnSync(javaBin, ["-cp", copy, "org.gradle.wrapper.GradleWrapperMain", "--version"], {
    cwd: tmp,
    encoding: "utf8",
    env: { ...process.env, GRADLE_USER_HOME: path.join(tmp, "home"), JAVA_OPTS: "", GRADLE_OPTS: "" },
    timeout: 60_000,
  });
  const output = `${r.stdout}${r.stderr}`;
  rmSync(tmp, { recursive: true, force: true });
  if (r.status === 0 || !output.includes(`Expected checksum: '${pinned}'`)) {
    fail(`gradle/wrapper/gradle-wrapper.jar did not refuse a distribution with another checksum (exit ${r.status}):\n${output}`);
  }
  writeFileSync(marker, new Date().toISOString());
  console.log("kotlin: the Gradle wrapper refuses a distribution whose checksum is not the pinned one, as it must");
}

function countReports(dir) {
  let tests = 0,
    failures = 0,
    errors = 0,
    skipped = 0;
  if (!existsSync(dir)) return undefined;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith(".xml")) continue;
    const xml = readFileSync(path.join(dir, f), "utf8");
    for (const m of xml.matchAll(/<testsuite\b[^>]*>/g)) {
      const attr = (n) => Number((new RegExp(`\\b${n}="(\\d+)"`).exec(m[0]) ?? [])[1] ?? 0);
      tests += attr("tests");
      failures += attr("failures");
      errors += attr("errors");
      skipped += attr("skipped");
    }
  }
  return { passed: tests - failures - errors - skipped, failed: failures + errors, skipped };
}

async function main() {
  const [command = "test", ...rest] = process.argv.slice(2);
  if (!["test", "compile", "screenshots"].includes(command)) fail(`unknown command "${command}" (use test, compile or screenshots)`);
  const javaBin = java();
  const compiler = kotlinCompiler();
  const gson = debianJar("gson.jar", "libgoogle-gson-java");
  const junit = debianJar("junit-platform-console-standalone.jar", "junit5");
  const mainFiles = listKotlin(mainSources);
  const testFiles = listKotlin(testSources);
  const apiKotlin = listKotlin([platformApiKotlin]);
  const apiJava = listFiles([platformApiJava], ".java");
  checkEverySourceCompiled([...mainFiles, ...testFiles, ...apiKotlin, ...apiJava]);
  checkMainIndependentOfTests(mainFiles, testFiles);
  const headers = checkDeclarationHeaders([...apiKotlin, ...apiJava]);
  const useProblems = checkPlatformUse({ mainFiles, apiFiles: [...apiKotlin, ...apiJava], ideDir: ideSources });
  if (headers.problems.length || useProblems.length) fail(`the platform declarations do not match the plugin's use:\n  ${[...headers.problems, ...useProblems].join("\n  ")}`);
  if (headers.notInIndex)
    console.log(`kotlin: ${headers.notInIndex} of ${apiKotlin.length + apiJava.length} platform declarations have no source in the index; their signatures come from documentation or other copies`);
  if (headers.unverified)
    console.log(`kotlin: ${headers.unverified} of ${apiKotlin.length + apiJava.length} platform declarations name no commit (not looked up); their signatures are checked only by the Gradle build`);
  const classpath = [gson, junit, compiler.annotations, compiler.coroutines];
  const classes = compile({ mainFiles, testFiles, apiKotlin, apiJava }, classpath, compiler, javacOf(javaBin));
  probeUndeclaredUse(compiler, classes, [...apiKotlin, ...apiJava], classpath);
  if (command === "compile") return;
  // Main resources hold the message bundle (messages/WaveBundle.properties) the UI reads its texts from.
  const runtime = [classes, mainResources, testResources, gson, compiler.stdlib, compiler.coroutines];
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
    const status = run(javaBin, [...props, "-cp", runtime.join(path.delimiter), "dev.wavetools.wave.ui.screenshots.ScreenshotsKt", outDir], { env: testEnvironment() });
    process.exit(status);
  }
  if (!existsSync(core)) fail(`${core} is missing. Run \`npm run build\` first.`);
  checkGradleWrapper(javaBin);
  const reports = path.join(buildDir, "test-reports");
  rmSync(reports, { recursive: true, force: true });
  const selectors = [];
  for (let i = 0; i < rest.length; i++) if (rest[i] === "--select") selectors.push(`--select-class=${rest[++i]}`);
  const started = Date.now();
  const tmp = runTempDir();
  const status = run(
    javaBin,
    [
      `-Djava.io.tmpdir=${tmp}`,
      ...props,
      "-cp",
      junit,
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
    ],
    { env: testEnvironment(tmp) },
  );
  const counts = countReports(reports);
  console.log(`kotlin: tests took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (counts) console.log(`kotlin: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  const clean = await checkLeftovers(tmp, core);
  process.exit(status !== 0 ? status : clean ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
