package dev.wavetools.wave.bridge

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.time.Duration
import java.util.concurrent.Executors
import java.util.concurrent.ScheduledExecutorService

/** Shared facts for the tests that run the real bundled core. */
object TestSupport {
    val repoRoot: Path = Paths.get(System.getProperty("wave.repoRoot") ?: error("run through plugin-kotlin/scripts/kotlin.mjs (wave.repoRoot is not set)"))

    val coreScript: Path = Paths.get(System.getProperty("wave.coreScript") ?: repoRoot.resolve("node-core/dist/wave-core.js").toString()).also {
        require(Files.isRegularFile(it)) { "$it is missing; run `npm run build` first" }
    }

    val env: Map<String, String> = System.getenv()

    val node: Path by lazy {
        when (val found = NodeLocator(env).locate(null)) {
            is NodeLookup.Found -> found.path
            is NodeLookup.NotFound -> error(found.message())
        }
    }

    val scheduler: ScheduledExecutorService = Executors.newScheduledThreadPool(2) { r -> Thread(r, "test-scheduler").apply { isDaemon = true } }

    fun workspace(): Path {
        val dir = Files.createTempDirectory("wave-kotlin-").toRealPath()
        Files.writeString(dir.resolve("notes.txt"), "hello from the workspace\nsecond line\nthird line\n")
        Files.createDirectories(dir.resolve("src"))
        Files.writeString(dir.resolve("src/answer.ts"), "export const answer = 42;\n")
        return dir
    }

    /**
     * Most tests are not about permissions: their cores run with `--permission-mode allow-all`, so
     * no command waits for a question nobody answers. [askingLaunch] is the core as the plugin runs it, without the sandbox.
     */
    val permissionArgs = listOf("--permission-mode", "allow-all")

    /**
     * The core as the tests run it: without the login-shell probe (WAVE_LOGIN_ENV=0), so no test runs
     * the developer's own profile; [launchWithProbe] is for the tests whose subject is the probe.
     */
    fun launch(root: Path, extraEnv: Map<String, String> = emptyMap()) =
        CoreLaunch(node = node, coreScript = coreScript, workspaceRoot = root, environment = env + mapOf("WAVE_LOGIN_ENV" to "0") + extraEnv, extraArgs = permissionArgs)

    /**
     * A core that probes the login shell of [home], a directory the test made (never the developer's
     * own home: their profile is not the subject, and a real one may be slow or take locks).
     */
    fun launchWithProbe(root: Path, home: Path, extraEnv: Map<String, String> = emptyMap()): CoreLaunch {
        require(home.toRealPath().startsWith(Paths.get(System.getProperty("java.io.tmpdir")).toRealPath())) { "$home is not a test's own directory" }
        val environment = env - "WAVE_LOGIN_ENV" + mapOf("HOME" to home.toString(), "SHELL" to "/bin/bash") + extraEnv
        return CoreLaunch(node = node, coreScript = coreScript, workspaceRoot = root, environment = environment, extraArgs = permissionArgs)
    }

    /**
     * Commands outside the OS sandbox: for tests of what a shell reports as it sees it (a shell that
     * kills itself reads as exit status 128+N inside the sandbox) and of asking (inside it, commands
     * without warnings run without a question).
     */
    val noSandboxArgs = listOf("--sandbox", "off")

    /** The core in its default `ask` mode (no permission arguments), without the login-shell probe and without the sandbox. */
    fun askingLaunch(root: Path, extraEnv: Map<String, String> = emptyMap()) =
        launchWithoutProbe(root, extraEnv).copy(extraArgs = noSandboxArgs)

    /** [launchWithoutProbe] without the OS sandbox (see [noSandboxArgs]). */
    fun unsandboxedLaunch(root: Path, extraEnv: Map<String, String> = emptyMap()) =
        launchWithoutProbe(root, extraEnv).copy(extraArgs = permissionArgs + noSandboxArgs)

    /** A launch whose core skips the login-shell probe (as [launch] does): for tests where the probe is not the subject. */
    fun launchWithoutProbe(root: Path, extraEnv: Map<String, String> = emptyMap()) = launch(root, extraEnv)

    /**
     * Live processes whose environment carries `WAVE_HOST_INSTANCE=<marker>`, with that environment
     * (read from /proc/<pid>/environ; zombies have none and do not count).
     */
    fun markedProcesses(marker: String): Map<Long, Map<String, String>> =
        ProcessMarker.pidsWith(marker).mapNotNull { pid ->
            val bytes = try {
                Files.readAllBytes(Paths.get("/proc/$pid/environ"))
            } catch (e: Exception) {
                return@mapNotNull null
            }
            val env = String(bytes, Charsets.UTF_8).split('\u0000').filter { '=' in it }
                .associate { it.substringBefore('=') to it.substringAfter('=') }
            pid to env
        }.toMap()

    /**
     * The processes of commands the core started (they carry its WAVE_RUN_ID marker), by pid. A shell
     * the core started ahead of the next command and that still waits for it ran nothing: it is left out.
     */
    fun commandProcesses(marker: String): Map<Long, String> {
        val marked = markedProcesses(marker).filterValues { it.containsKey("WAVE_RUN_ID") }
        val waiting = waitingShellGroups()
        return marked.filterKeys { pid -> processGroup(pid)?.let { it !in waiting } ?: true }.mapValues { it.value.getValue("WAVE_RUN_ID") }
    }

    /** What the loader of a shell started ahead (node-core/src/shell/run/5-ahead.ts) names in its argv. */
    private const val WAITING_SHELL_MARK = "__wave_warm_command"

    private fun processGroup(pid: Long): Long? = try {
        val stat = String(Files.readAllBytes(Paths.get("/proc/$pid/stat")), Charsets.ISO_8859_1)
        stat.substring(stat.lastIndexOf(')') + 2).split(' ')[2].toLong()
    } catch (e: Exception) {
        null
    }

    private fun commandLine(pid: Long): String? = try {
        String(Files.readAllBytes(Paths.get("/proc/$pid/cmdline")), Charsets.UTF_8)
    } catch (e: Exception) {
        null
    }

    /** Process groups whose every live member carries the loader in its argv: shells waiting for a command. */
    fun waitingShellGroups(): Set<Long> {
        val members = HashMap<Long, MutableList<Boolean>>()
        Files.list(Paths.get("/proc")).use { entries ->
            for (entry in entries) {
                val pid = entry.fileName.toString().toLongOrNull() ?: continue
                val group = processGroup(pid) ?: continue
                val line = commandLine(pid)?.takeIf { it.isNotEmpty() } ?: continue
                members.getOrPut(group) { mutableListOf() }.add(WAITING_SHELL_MARK in line)
            }
        }
        return members.filterValues { marks -> marks.all { it } }.keys
    }

    /** Waits until [condition] holds, polling; fails with [message] after [timeout]. */
    fun eventually(timeout: Duration = Duration.ofSeconds(15), message: () -> String, condition: () -> Boolean) {
        val deadline = System.nanoTime() + timeout.toNanos()
        while (!condition()) {
            if (System.nanoTime() > deadline) throw AssertionError(message())
            Thread.sleep(20)
        }
    }

    fun deleteTree(dir: Path) {
        if (!Files.exists(dir)) return
        Files.walk(dir).use { s -> s.sorted(Comparator.reverseOrder()).forEach { Files.deleteIfExists(it) } }
    }
}

/** JUnit's assertThrows, reified (the Kotlin helpers are not in Debian's JUnit jar). */
inline fun <reified T : Throwable> assertThrows(noinline block: () -> Unit): T =
    org.junit.jupiter.api.Assertions.assertThrows(T::class.java) { block() }
