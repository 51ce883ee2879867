package dev.wavetools.wave.bridge

import dev.wavetools.wave.ui.fixedClock
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions
import java.util.concurrent.TimeUnit

/**
 * Wave's launcher: the one command Connect an Agent writes for every IDE. Run for real with sh, on
 * stand-ins for two IDEs' installations (a "node" that prints what it ran).
 */
class WaveLauncherTest {
    private val dir: Path = Files.createTempDirectory("wave-launcher-").toRealPath()
    private val state = dir.resolve("state")
    private val home = dir.resolve("home").also { Files.createDirectories(it) }

    @AfterEach
    fun cleanup() = TestSupport.deleteTree(dir)

    /** An IDE's installation: a node that prints which core it ran and with what, and the core. */
    private fun install(name: String, version: String): CoreInstall {
        val root = Files.createDirectories(dir.resolve(name))
        val node = root.resolve("node")
        Files.writeString(node, "#!/bin/sh\necho \"$name: \$*\"\n")
        Files.setPosixFilePermissions(node, PosixFilePermissions.fromString("rwx------"))
        val core = root.resolve("core/wave-core.js")
        Files.createDirectories(core.parent)
        Files.writeString(core, "// core of $name\n")
        return CoreInstall(node.toString(), core.toString(), version, name)
    }

    private fun run(launcher: Path, vararg args: String): Pair<Int, String> {
        val p = ProcessBuilder(listOf(launcher.toString()) + args).redirectErrorStream(true).start()
        val out = p.inputStream.readBytes().toString(Charsets.UTF_8)
        assertTrue(p.waitFor(30, TimeUnit.SECONDS))
        return p.exitValue() to out.trim()
    }

    @Test
    fun `the launcher runs the newest installed core, and the next one once that IDE is uninstalled`() {
        val launcher = WaveLauncher(state, OsFamily.LINUX)
        val idea = install("IntelliJ IDEA 2025.3", "0.1.0")
        val webstorm = install("WebStorm 2026.1", "0.2.0")
        launcher.register(webstorm)
        val path = launcher.register(idea)
        assertEquals(state.resolve("bin/wave-core"), path, "one path for every IDE")
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
        // The newer plugin wins, whichever IDE started last; the agent's arguments pass through as they are.
        assertEquals(0 to "WebStorm 2026.1: ${webstorm.coreScript} mcp --attach it's here", run(path, "mcp", "--attach", "it's here"))

        // WebStorm is uninstalled: the launcher (not yet rewritten) falls back to IDEA's core.
        TestSupport.deleteTree(Path.of(webstorm.coreScript).parent.parent)
        assertEquals(0 to "IntelliJ IDEA 2025.3: ${idea.coreScript} mcp --attach", run(path, "mcp", "--attach"))
        // The next IDE start forgets the gone installation.
        launcher.refresh()
        assertEquals(listOf("IntelliJ IDEA 2025.3"), launcher.installs().map { it.ide })
        assertFalse(Files.readString(path).contains("WebStorm"))

        // Nothing installed any more: a clear message, and no other program runs.
        TestSupport.deleteTree(Path.of(idea.coreScript).parent.parent)
        val (code, out) = run(path, "mcp", "--attach")
        assertEquals(127, code)
        assertTrue(out.startsWith("Wave Tools: no installed wave-core was found."), out)
    }

    @Test
    fun `registering again replaces that installation's record, newest first by version then by the last start`() {
        val launcher = WaveLauncher(state, OsFamily.LINUX, fixedClock("2026-12-04T10:00:00Z"))
        val a = install("A", "0.10.0")
        val b = install("B", "0.9.3")
        launcher.register(b)
        launcher.register(a)
        launcher.register(a.copy(pluginVersion = "0.10.0"))
        assertEquals(listOf("A", "B"), launcher.installs().map { it.ide }, "0.10.0 is newer than 0.9.3")
        assertEquals(2, Files.list(state.resolve("installs")).use { it.count() })
    }

    @Test
    fun `on Windows the launcher is a cmd file trying the installations in order`() {
        val launcher = WaveLauncher(state, OsFamily.WINDOWS)
        val text = launcher.render(listOf(CoreInstall("C:\\a\\node.exe", "C:\\a\\core\\wave-core.js", "0.2.0", "A"), CoreInstall("C:\\b\\node.exe", "C:\\b\\core\\wave-core.js", "0.1.0", "B")))
        val lines = text.split("\r\n")
        assertEquals("if exist \"C:\\a\\node.exe\" if exist \"C:\\a\\core\\wave-core.js\" goto core0", lines[3])
        assertEquals("if exist \"C:\\b\\node.exe\" if exist \"C:\\b\\core\\wave-core.js\" goto core1", lines[4])
        assertTrue(text.contains(":core0\r\n\"C:\\a\\node.exe\" \"C:\\a\\core\\wave-core.js\" %*\r\nexit /b %ERRORLEVEL%\r\n"))
        assertEquals(state.resolve("bin/wave-core.cmd"), launcher.path)
    }

    @Test
    fun `Connect writes the launcher into each agent's entry, and the start-up check finds old entries of one installation`() {
        val launcher = WaveLauncher(state, OsFamily.LINUX)
        val idea = install("IDEA", "0.1.0")
        val path = launcher.register(idea)
        val viaLauncher = AttachCommand(idea.node, idea.coreScript, launcher = path.toString())
        val connect = AgentConnect(viaLauncher, home, mapOf("PATH" to ""), OsFamily.LINUX)
        connect.apply(connect.plan(AgentKind.CODEX, false))
        connect.apply(connect.plan(AgentKind.GEMINI, false))
        val entries = AgentEntries(connect, home, emptyMap())
        assertEquals(listOf(AgentKind.CODEX to path.toString(), AgentKind.GEMINI to path.toString()), entries.configured().map { it.kind to it.command })
        assertEquals(listOf("mcp", "--attach"), entries.configured().first().args)
        assertTrue(entries.stale(path).isEmpty(), "entries through the launcher are fine")

        // An entry written before the launcher, by one IDE installation: it works today, breaks with the next upgrade.
        val direct = AgentConnect(AttachCommand(idea.node, idea.coreScript), home, mapOf("PATH" to ""), OsFamily.LINUX)
        direct.apply(direct.plan(AgentKind.CODEX, false))
        Files.writeString(home.resolve(".claude.json"), """{"mcpServers": {"wave": {"type": "stdio", "command": "/gone/node", "args": ["/gone/core/wave-core.js", "mcp", "--attach"]}, "other": {"command": "x"}}}""")
        val stale = entries.stale(path).associate { it.entry.kind to it.reason }
        assertEquals(setOf(AgentKind.CODEX, AgentKind.CLAUDE_CODE), stale.keys)
        assertTrue(stale.getValue(AgentKind.CODEX).contains("one IDE installation's core (${idea.coreScript})"), stale.toString())
        assertEquals("it runs /gone/node, which no longer exists", stale.getValue(AgentKind.CLAUDE_CODE))
    }
}
