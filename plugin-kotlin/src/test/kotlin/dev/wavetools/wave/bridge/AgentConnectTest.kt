package dev.wavetools.wave.bridge

import com.google.gson.JsonParser
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** Connect an Agent's configurations and their Apply, on real files and with the real Claude Code CLI. */
class AgentConnectTest {
    private val home: Path = Files.createTempDirectory("wave-agent-home-").toRealPath()
    private val attach = AttachCommand(TestSupport.node.toString(), TestSupport.coreScript.toString())
    private val agentBin = TestSupport.repoRoot.resolve("node_modules").resolve(".bin")
    private val env = TestSupport.env + mapOf("PATH" to "$agentBin:${TestSupport.env["PATH"]}", "HOME" to home.toString()) - "CODEX_HOME" - "CLAUDE_CONFIG_DIR"
    private val connect = AgentConnect(attach, home, env, OsFamily.LINUX)
    private val cores = mutableListOf<CoreProcess>()

    @AfterEach
    fun cleanup() {
        cores.forEach { it.stop() }
        TestSupport.deleteTree(home)
    }

    @Test
    fun `each agent's configuration names this installation's node and core`() {
        val claude = connect.setup(AgentKind.CLAUDE_CODE)
        assertEquals("claude mcp add --scope user wave -- ${attach.node} ${attach.coreScript} mcp --attach", claude.snippet)
        assertNull(claude.applyBlocker, "claude is on the PATH given")
        assertEquals(home.resolve(".claude/settings.json"), claude.file)
        val codex = connect.setup(AgentKind.CODEX)
        assertEquals(
            "[mcp_servers.wave]\ncommand = \"${attach.node}\"\nargs = [\"${attach.coreScript}\", \"mcp\", \"--attach\"]\ntool_timeout_sec = 660\ndefault_tools_approval_mode = \"approve\"\n",
            codex.snippet,
        )
        val gemini = JsonParser.parseString(connect.setup(AgentKind.GEMINI).snippet).asJsonObject.getAsJsonObject("mcpServers").getAsJsonObject("wave")
        assertEquals(attach.node, gemini.get("command").asString)
        assertEquals(listOf(attach.coreScript, "mcp", "--attach"), gemini.getAsJsonArray("args").map { it.asString })
        assertEquals(true, gemini.get("trust").asBoolean)
        val other = connect.setup(AgentKind.OTHER)
        assertEquals(ApplyBlocker.CLIENT_SETTINGS, other.applyBlocker)
        assertTrue(other.snippet.contains("\"command\": \"${attach.node}\""))
        assertEquals(home.resolve(".codex/config.toml"), codex.file)
        // CODEX_HOME moves Codex's configuration, as Codex documents.
        assertEquals(home.resolve("elsewhere/config.toml"), AgentConnect(attach, home, env + ("CODEX_HOME" to home.resolve("elsewhere").toString()), OsFamily.LINUX).setup(AgentKind.CODEX).file)
    }

    @Test
    fun `command lines are quoted for the user's shell`() {
        val spaced = AgentConnect(AttachCommand("/opt/my tools/node", "/home/o'brien/wave-core.js"), home, env, OsFamily.LINUX)
        assertEquals("claude mcp add --scope user wave -- '/opt/my tools/node' '/home/o'\\''brien/wave-core.js' mcp --attach", spaced.setup(AgentKind.CLAUDE_CODE).snippet)
        val windows = AgentConnect(AttachCommand("C:\\Program Files\\nodejs\\node.exe", "C:\\Users\\ann\\wave-core.js"), home, mapOf("Path" to ""), OsFamily.WINDOWS)
        assertEquals("claude mcp add --scope user wave -- \"C:\\Program Files\\nodejs\\node.exe\" C:\\Users\\ann\\wave-core.js mcp --attach", windows.setup(AgentKind.CLAUDE_CODE).snippet)
        assertEquals(ApplyBlocker.CLI_NOT_ON_PATH, windows.setup(AgentKind.CLAUDE_CODE).applyBlocker)
    }

    @Test
    fun `Codex - Apply merges the server into an existing config toml, keeps the rest, and a second Apply changes nothing`() {
        val config = home.resolve(".codex/config.toml")
        Files.createDirectories(config.parent)
        val before = "model = \"gpt-5.1-codex\"\n\n[mcp_servers.context7]\ncommand = \"npx\"\nargs = [\"-y\", \"@upstash/context7-mcp\"]\n"
        Files.writeString(config, before)
        Files.setPosixFilePermissions(config, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"))
        val steps = connect.plan(AgentKind.CODEX, turnOffOwnTools = true)
        val edit = steps.single() as ConnectStep.EditFile
        assertEquals(before, edit.before)
        connect.apply(steps)
        val after = Files.readString(config)
        assertTrue(after.startsWith(before), after)
        assertTrue(after.contains("[mcp_servers.wave]\ncommand = \"${attach.node}\""), after)
        assertTrue(after.endsWith("[features]\nshell_tool = false\n"), after)
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(config)))
        val again = connect.plan(AgentKind.CODEX, turnOffOwnTools = true).single() as ConnectStep.EditFile
        assertEquals(again.before, again.after)
    }

    @Test
    fun `Gemini - Apply merges the server into settings json, keeps other servers, and can turn off Gemini's own tools`() {
        val settings = home.resolve(".gemini/settings.json")
        Files.createDirectories(settings.parent)
        Files.writeString(settings, """{"mcpServers": {"github": {"httpUrl": "https://api.githubcopilot.com/mcp/"}}, "tools": {"exclude": ["web_fetch"]}}""")
        connect.apply(connect.plan(AgentKind.GEMINI, turnOffOwnTools = true))
        val after = JsonParser.parseString(Files.readString(settings)).asJsonObject
        assertEquals(listOf("github", "wave"), after.getAsJsonObject("mcpServers").keySet().toList())
        assertEquals(listOf("web_fetch", "run_shell_command", "write_file", "replace"), after.getAsJsonObject("tools").getAsJsonArray("exclude").map { it.asString })
    }

    @Test
    fun `Apply refuses a file that changed since the preview and writes through a symbolic link`() {
        val settings = home.resolve(".gemini/settings.json")
        Files.createDirectories(settings.parent)
        Files.writeString(settings, "{}\n")
        val steps = connect.plan(AgentKind.GEMINI, turnOffOwnTools = false)
        Files.writeString(settings, "{\"ui\": {}}\n")
        val e = assertThrows<ConnectException> { connect.apply(steps) }
        assertTrue(e.message!!.contains("changed since the preview"), e.message)
        assertEquals("{\"ui\": {}}\n", Files.readString(settings))

        // Dotfiles kept elsewhere and linked: the link stays, its target is updated.
        val real = Files.createDirectories(home.resolve("dotfiles")).resolve("gemini.json")
        Files.writeString(real, "{}\n")
        Files.delete(settings)
        Files.createSymbolicLink(settings, real)
        connect.apply(connect.plan(AgentKind.GEMINI, turnOffOwnTools = false))
        assertTrue(Files.isSymbolicLink(settings))
        assertTrue(Files.readString(real).contains("\"wave\""))
    }

    @Test
    fun `Claude Code - Apply runs the real claude CLI and pre-allows Wave, then claude mcp list reports the server connected to a listening core`() {
        val settings = home.resolve(".claude/settings.json")
        Files.createDirectories(settings.parent)
        Files.writeString(settings, "{\n  \"permissions\": {\n    \"allow\": [\"Bash(git status)\"]\n  }\n}\n")
        val steps = connect.plan(AgentKind.CLAUDE_CODE, turnOffOwnTools = true)
        assertEquals(listOf("RunCommand", "RunCommand", "EditFile"), steps.map { it.javaClass.simpleName })
        connect.apply(steps)
        // Applying twice works too (the earlier server is replaced).
        connect.apply(connect.plan(AgentKind.CLAUDE_CODE, turnOffOwnTools = true))

        val claudeJson = JsonParser.parseString(Files.readString(home.resolve(".claude.json"))).asJsonObject
        val server = claudeJson.getAsJsonObject("mcpServers").getAsJsonObject("wave")
        assertEquals(attach.node, server.get("command").asString)
        assertEquals(attach.args, server.getAsJsonArray("args").map { it.asString })
        val permissions = JsonParser.parseString(Files.readString(settings)).asJsonObject.getAsJsonObject("permissions")
        assertEquals(listOf("Bash(git status)", "mcp__wave"), permissions.getAsJsonArray("allow").map { it.asString })
        assertEquals(listOf("Bash", "Edit", "Write", "NotebookEdit"), permissions.getAsJsonArray("deny").map { it.asString })

        // A core listening for agents, as the plugin starts it, and Claude Code's own health check.
        val project = TestSupport.workspace()
        val stateDir = Files.createTempDirectory("wave-state-")
        val core = CoreProcess.start(
            TestSupport.launchWithoutProbe(project, mapOf("WAVE_STATE_DIR" to stateDir.toString())).copy(extraArgs = listOf("--listen", "127.0.0.1:0")),
            RecordingLog(),
            TestSupport.scheduler,
        ).also { cores += it }
        TestSupport.eventually(message = { "no lock file in $stateDir" }) { Files.isRegularFile(stateDir.resolve("ide").resolve("${core.pid}.json")) }
        val list = ProcessBuilder(agentBin.resolve("claude").toString(), "mcp", "list").directory(project.toFile()).redirectErrorStream(true).apply {
            environment().putAll(env + mapOf("WAVE_STATE_DIR" to stateDir.toString(), "DISABLE_AUTOUPDATER" to "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC" to "1"))
        }.start()
        list.outputStream.close()
        val output = list.inputStream.bufferedReader().readText()
        assertTrue(list.waitFor(90, TimeUnit.SECONDS))
        assertTrue(Regex("wave: .*wave-core\\.js mcp --attach - ✔ Connected").containsMatchIn(output), output)
        TestSupport.deleteTree(project)
        TestSupport.deleteTree(stateDir)
    }
}
