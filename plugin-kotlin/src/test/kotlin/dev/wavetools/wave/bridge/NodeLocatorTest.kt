package dev.wavetools.wave.bridge

import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions

/**
 * The Node.js locator against fake directory trees holding fake `node` scripts that print a version,
 * run for real; the Windows branch by injecting its file system and version probe.
 */
class NodeLocatorTest {
    private val root: Path = Files.createTempDirectory("wave-node-").toRealPath()
    private val home: Path = Files.createDirectories(root.resolve("home"))

    @AfterEach
    fun cleanup() = TestSupport.deleteTree(root)

    /** A fake `node` that prints [version] for `--version` (or fails with [exitCode]). */
    private fun fakeNode(dir: Path, version: String, exitCode: Int = 0): Path {
        Files.createDirectories(dir)
        val file = dir.resolve("node")
        Files.writeString(file, "#!/bin/sh\necho '$version'\nexit $exitCode\n")
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"))
        return file
    }

    /** The real file system, but only inside the test's tree: this machine's own Node.js must not count. */
    private val rooted = object : FileProbe {
        fun inside(p: String) = Path.of(p).normalize().startsWith(root)
        override fun isExecutableFile(path: String) = inside(path) && FileProbe.Real.isExecutableFile(path)
        override fun isDirectory(path: String) = inside(path) && FileProbe.Real.isDirectory(path)
        override fun list(dir: String) = if (inside(dir)) FileProbe.Real.list(dir) else emptyList()
    }

    private fun locator(path: String = "", extra: Map<String, String> = emptyMap()) =
        NodeLocator(mapOf("PATH" to path, "HOME" to home.toString()) + extra, OsFamily.LINUX, home.toString(), files = rooted)

    @Test
    fun `the configured path wins over PATH`() {
        val configured = fakeNode(root.resolve("custom"), "v22.3.0")
        val onPath = fakeNode(root.resolve("bin"), "v20.11.1")
        val found = locator(onPath.parent.toString()).locate(configured.toString()) as NodeLookup.Found
        assertEquals(configured, found.path)
        assertEquals(NodeLocator.SETTINGS, found.source)
        assertEquals(NodeVersion(22, 3, 0), found.version)
    }

    @Test
    fun `a configured directory means the node inside it`() {
        val dir = root.resolve("custom")
        fakeNode(dir, "v20.0.0")
        val found = locator().locate(dir.toString()) as NodeLookup.Found
        assertEquals(dir.resolve("node"), found.path)
    }

    @Test
    fun `PATH is searched in order and too old versions are skipped with the reason`() {
        val old = fakeNode(root.resolve("old/bin"), "v18.20.2")
        val good = fakeNode(root.resolve("good/bin"), "v20.19.0")
        val found = locator("${root.resolve("empty")}:${old.parent}:${good.parent}").locate(null) as NodeLookup.Found
        assertEquals(good, found.path)
        assertEquals("PATH", found.source)
        val tooOld = found.attempts.single { it.path == old.toString() }
        assertTrue(tooOld.outcome.contains("v18.20.2 is too old (20 or newer is needed)"), tooOld.outcome)
    }

    @Test
    fun `a broken configured path is reported, then the search goes on`() {
        val good = fakeNode(root.resolve("bin"), "v20.1.0")
        val found = locator(good.parent.toString()).locate(root.resolve("nope/node").toString()) as NodeLookup.Found
        assertEquals(good, found.path)
        assertEquals("no executable file there", found.attempts.first().outcome)
    }

    @Test
    fun `nvm installs are tried newest first`() {
        fakeNode(home.resolve(".nvm/versions/node/v18.20.0/bin"), "v18.20.0")
        val newest = fakeNode(home.resolve(".nvm/versions/node/v21.7.3/bin"), "v21.7.3")
        fakeNode(home.resolve(".nvm/versions/node/v20.12.0/bin"), "v20.12.0")
        val found = locator().locate(null) as NodeLookup.Found
        assertEquals(newest, found.path)
        assertEquals("nvm", found.source)
    }

    @Test
    fun `NVM_DIR, fnm, volta and asdf are found where they live`() {
        val nvm = fakeNode(root.resolve("nvmdir/versions/node/v20.0.0/bin"), "v20.0.0")
        assertEquals(nvm, (locator(extra = mapOf("NVM_DIR" to root.resolve("nvmdir").toString())).locate(null) as NodeLookup.Found).path)
        TestSupport.deleteTree(root.resolve("nvmdir"))

        val fnm = fakeNode(home.resolve(".local/share/fnm/node-versions/v22.1.0/installation/bin"), "v22.1.0")
        assertEquals("fnm" to fnm, (locator().locate(null) as NodeLookup.Found).let { it.source to it.path })
        TestSupport.deleteTree(home.resolve(".local"))

        val volta = fakeNode(home.resolve(".volta/bin"), "v20.5.0")
        assertEquals("volta" to volta, (locator().locate(null) as NodeLookup.Found).let { it.source to it.path })
        TestSupport.deleteTree(home.resolve(".volta"))

        val asdf = fakeNode(home.resolve(".asdf/installs/nodejs/22.9.0/bin"), "v22.9.0")
        assertEquals("asdf" to asdf, (locator().locate(null) as NodeLookup.Found).let { it.source to it.path })
    }

    @Test
    fun `a node that fails or prints nonsense is skipped`() {
        val failing = fakeNode(root.resolve("a"), "boom", exitCode = 3)
        val weird = fakeNode(root.resolve("b"), "hello")
        val good = fakeNode(root.resolve("c"), "v20.0.0")
        val found = locator("${failing.parent}:${weird.parent}:${good.parent}").locate(null) as NodeLookup.Found
        assertEquals(good, found.path)
        assertTrue(found.attempts[0].outcome.startsWith("did not run"), found.attempts[0].outcome)
        assertTrue(found.attempts[1].outcome.contains("not a Node.js version"), found.attempts[1].outcome)
    }

    @Test
    fun `nothing suitable gives an actionable message listing what was tried`() {
        val old = fakeNode(root.resolve("bin"), "v14.21.3")
        val lookup = locator(old.parent.toString()).locate(root.resolve("missing").toString()) as NodeLookup.NotFound
        val message = lookup.message()
        assertTrue(message.startsWith("Node.js 20 or newer was not found."), message)
        assertTrue(message.contains("${old} (PATH): Node.js v14.21.3 is too old"), message)
        assertTrue(message.contains("(settings): no executable file there"), message)
        assertTrue(message.contains("https://nodejs.org"), message)
        assertTrue(message.contains("Settings | Tools | Wave Tools"), message)
        assertTrue(message.contains("Download Node.js 22 LTS for Wave Tools"), message)
        val failure = lookup.launchException()
        assertEquals("Node.js 20 or newer was not found.", failure.message)
        assertEquals(FailureKind.NODE_NOT_FOUND, failure.kind, "the tool window shows the Node.js fallback, with the Download link")
        assertEquals(lookup.attempts.size, failure.details.size)
        assertTrue(failure.details.contains("$old (PATH): Node.js v14.21.3 is too old (20 or newer is needed)"), failure.details.toString())
    }

    @Test
    fun `the IDE's Node_js interpreter comes after the settings and before PATH`() {
        val ide = fakeNode(root.resolve("ide"), "v22.11.0")
        val onPath = fakeNode(root.resolve("bin"), "v20.11.1")
        val withIde = NodeLocator(
            mapOf("PATH" to onPath.parent.toString()), OsFamily.LINUX, home.toString(), files = rooted,
            ideInterpreter = { IdeNodeInterpreter.Local(ide.toString()) },
        )
        val found = withIde.locate(null) as NodeLookup.Found
        assertEquals(ide, found.path)
        assertEquals(NodeLocator.IDE_INTERPRETER, found.source)
        assertEquals("Node.js v22.11.0 (the IDE's Node.js interpreter): $ide", found.describe())

        val configured = fakeNode(root.resolve("custom"), "v21.0.0")
        assertEquals(configured, (withIde.locate(configured.toString()) as NodeLookup.Found).path)
    }

    @Test
    fun `an IDE interpreter the core cannot use is named in the attempts and skipped`() {
        val onPath = fakeNode(root.resolve("bin"), "v20.11.1")
        val found = NodeLocator(
            mapOf("PATH" to onPath.parent.toString()), OsFamily.LINUX, home.toString(), files = rooted,
            ideInterpreter = { IdeNodeInterpreter.Unusable("wsl://Ubuntu/usr/bin/node", "a WSL interpreter cannot run the core of a Windows project") },
        ).locate(null) as NodeLookup.Found
        assertEquals(onPath, found.path)
        assertEquals(NodeAttempt("wsl://Ubuntu/usr/bin/node", NodeLocator.IDE_INTERPRETER, "a WSL interpreter cannot run the core of a Windows project"), found.attempts.first())

        val failing = NodeLocator(
            mapOf("PATH" to onPath.parent.toString()), OsFamily.LINUX, home.toString(), files = rooted,
            ideInterpreter = { error("NodeJsInterpreterManager is not ready") },
        ).locate(null) as NodeLookup.Found
        assertEquals(onPath, failing.path)
        assertTrue(failing.attempts.first().outcome.contains("NodeJsInterpreterManager is not ready"), failing.attempts.first().outcome)
    }

    @Test
    fun `the runtime downloaded for Wave Tools is the last resort`() {
        val old = fakeNode(root.resolve("bin"), "v18.19.1")
        val managed = fakeNode(root.resolve("system/wave-tools/node/node-v22.23.3-linux-x64/bin"), "v22.23.3")
        val locator = NodeLocator(
            mapOf("PATH" to old.parent.toString()), OsFamily.LINUX, home.toString(), files = rooted,
            managedNode = { managed },
        )
        assertEquals(NodeLocator.MANAGED, locator.candidates(null).last().source)
        val found = locator.locate(null) as NodeLookup.Found
        assertEquals(managed, found.path)
        assertEquals(NodeLocator.MANAGED, found.source)
        assertTrue(found.attempts.any { it.path == old.toString() && it.outcome.contains("too old") })

        val good = fakeNode(root.resolve("good"), "v20.0.0")
        val preferred = NodeLocator(mapOf("PATH" to good.parent.toString()), OsFamily.LINUX, home.toString(), files = rooted, managedNode = { managed })
        assertEquals(good, (preferred.locate(null) as NodeLookup.Found).path)
    }

    @Test
    fun `Windows - PATH with node_exe, case-insensitive variables, Program Files`() {
        val files = object : FileProbe {
            val existing = setOf("C:\\Program Files\\nodejs\\node.exe", "D:\\tools\\node.exe")
            override fun isExecutableFile(path: String) = path in existing
            override fun isDirectory(path: String) = false
            override fun list(dir: String) = emptyList<String>()
        }
        val versions = mapOf("D:\\tools\\node.exe" to "v16.0.0", "C:\\Program Files\\nodejs\\node.exe" to "v20.10.0")
        val locator = NodeLocator(
            environment = mapOf("Path" to "D:\\tools;C:\\Windows\\system32", "ProgramFiles" to "C:\\Program Files"),
            os = OsFamily.WINDOWS,
            home = "C:\\Users\\me",
            probe = { exe -> versions[exe] ?: error("not recorded: $exe") },
            files = files,
        )
        val candidates = locator.candidates(null).map { it.path }
        assertEquals("D:\\tools\\node.exe", candidates[0])
        assertTrue("C:\\Program Files\\nodejs\\node.exe" in candidates)
        val found = locator.locate(null) as NodeLookup.Found
        assertEquals("C:\\Program Files\\nodejs\\node.exe", found.path.toString())
        assertEquals("Program Files", found.source)
    }

    @Test
    fun `macOS adds Homebrew locations`() {
        val candidates = NodeLocator(mapOf("PATH" to ""), OsFamily.MAC, "/Users/me", probe = { "v20.0.0" }).candidates(null)
        assertTrue(candidates.any { it.path == "/opt/homebrew/bin/node" && it.source == "Homebrew" })
        assertTrue(candidates.any { it.path == "/Users/me/Library/Application Support/fnm/aliases/default/bin/node" })
    }

    @Test
    fun `version parsing`() {
        assertEquals(NodeVersion(20, 11, 1), NodeVersion.parse("v20.11.1"))
        assertEquals(NodeVersion(18, 0, 0), NodeVersion.parse("18.0.0\n"))
        assertEquals(null, NodeVersion.parse("node"))
        assertTrue(NodeVersion(20, 1, 0) > NodeVersion(18, 20, 5))
    }
}
