package dev.wavetools.wave.bridge

import com.google.gson.JsonArray
import com.google.gson.JsonObject
import com.google.gson.JsonPrimitive
import java.io.IOException
import java.nio.charset.StandardCharsets
import java.nio.file.AtomicMoveNotSupportedException
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.nio.file.StandardCopyOption
import java.nio.file.attribute.PosixFilePermission
import java.util.concurrent.TimeUnit

/**
 * What an agent runs to reach the IDE's core: `mcp --attach` (docs/user/agents.md), through
 * Wave's stable [launcher] when there is one (it survives IDE upgrades and uninstalls and is the
 * same for every IDE: [WaveLauncher]), else this installation's node and bundled core. It needs no
 * port or token, so it stays valid across core restarts.
 */
data class AttachCommand(val node: String, val coreScript: String, val launcher: String? = null) {
    val command: String get() = launcher ?: node
    val args: List<String> get() = (if (launcher == null) listOf(coreScript) else emptyList()) + listOf("mcp", "--attach")
    val argv: List<String> get() = listOf(command) + args
}

enum class AgentKind { CLAUDE_CODE, CODEX, GEMINI, OTHER }

/** One step of connecting an agent; the dialog shows each before anything happens. */
sealed class ConnectStep {
    abstract val description: String

    /** Replace [path]'s text ([before], null when the file does not exist) with [after]. */
    data class EditFile(val path: Path, val before: String?, val after: String, override val description: String) : ConnectStep()

    /** Run [argv] (the agent's own CLI); [allowFailure] for a step that only clears the way. */
    data class RunCommand(val argv: List<String>, override val description: String, val allowFailure: Boolean = false) : ConnectStep()
}

/** A step could not be done. Steps before it were done; the message says which and what to do. */
class ConnectException(message: String) : Exception(message)

/** What the Connect an Agent dialog shows for one agent (the ui/ layer words it). */
data class AgentSetup(
    val kind: AgentKind,
    /** The exact configuration to copy: a command line, or the file's part. */
    val snippet: String,
    /** The file the configuration goes into; for Claude Code, its settings file (the pre-allow rule). */
    val file: Path?,
    /** Why Apply is not offered; null when it is. */
    val applyBlocker: ApplyBlocker? = null,
)

enum class ApplyBlocker {
    /** The agent's CLI, which Apply runs, is not on the IDE's PATH. */
    CLI_NOT_ON_PATH,
    /** Nothing to apply to: the configuration goes into the client's own settings. */
    CLIENT_SETTINGS,
}

/**
 * Builds each agent's configuration for this installation, and the steps that apply it: config
 * files merged without losing the user's other entries, or the agent's own CLI. Formats were
 * checked against each agent's documentation or source (the dialog names them; docs/user/agents.md, "Per agent").
 */
class AgentConnect(
    private val attach: AttachCommand,
    /** The user's home directory. */
    private val home: Path,
    /** The IDE's environment (PATH to find the agents' CLIs, CODEX_HOME, CLAUDE_CONFIG_DIR). */
    private val environment: Map<String, String>,
    private val os: OsFamily = OsFamily.current(),
) {
    /** Wave's stable launcher the entries run, when there is one ([WaveLauncher]). */
    val launcher: String? get() = attach.launcher

    val claudeSettingsFile: Path get() = environment["CLAUDE_CONFIG_DIR"]?.takeIf { it.isNotBlank() }?.let { Paths.get(it) }?.resolve("settings.json") ?: home.resolve(".claude").resolve("settings.json")
    val codexConfigFile: Path get() = (environment["CODEX_HOME"]?.takeIf { it.isNotBlank() }?.let { Paths.get(it) } ?: home.resolve(".codex")).resolve("config.toml")
    val geminiSettingsFile: Path get() = home.resolve(".gemini").resolve("settings.json")

    fun setup(kind: AgentKind): AgentSetup = when (kind) {
        AgentKind.CLAUDE_CODE -> AgentSetup(
            kind,
            snippet = commandLine(claudeAddArgv("claude")),
            file = claudeSettingsFile,
            applyBlocker = if (onPathForDisplay("claude") == null) ApplyBlocker.CLI_NOT_ON_PATH else null,
        )
        AgentKind.CODEX -> AgentSetup(kind, snippet = codexTable(), file = codexConfigFile)
        AgentKind.GEMINI -> AgentSetup(
            kind,
            snippet = JsonConfigEdit.parse(null, "settings").set(listOf("mcpServers", SERVER_NAME), geminiServer()).render(),
            file = geminiSettingsFile,
        )
        AgentKind.OTHER -> AgentSetup(
            kind,
            snippet = JsonConfigEdit.parse(null, "mcp.json").set(listOf("mcpServers", SERVER_NAME), stdioServer()).render(),
            file = null,
            applyBlocker = ApplyBlocker.CLIENT_SETTINGS,
        )
    }

    /** The steps Apply would take. [turnOffOwnTools] also turns off the agent's own shell and edit tools. */
    fun plan(kind: AgentKind, turnOffOwnTools: Boolean): List<ConnectStep> = when (kind) {
        AgentKind.CLAUDE_CODE -> {
            val claude = findOnPath("claude") ?: throw ConnectException("The claude command is not on the IDE's PATH. Run this in a terminal:\n${commandLine(claudeAddArgv("claude"))}")
            val before = read(claudeSettingsFile)
            val settings = JsonConfigEdit.parse(before, claudeSettingsFile.toString()).addToArray(listOf("permissions", "allow"), listOf(CLAUDE_ALLOW_RULE))
            if (turnOffOwnTools) settings.addToArray(listOf("permissions", "deny"), CLAUDE_OWN_TOOLS)
            listOf(
                ConnectStep.RunCommand(listOf(claude, "mcp", "remove", "--scope", "user", SERVER_NAME), "Remove an earlier \"$SERVER_NAME\" server, if any", allowFailure = true),
                ConnectStep.RunCommand(claudeAddArgv(claude), "Add the \"$SERVER_NAME\" server for all your projects"),
                ConnectStep.EditFile(claudeSettingsFile, before, settings.render(), if (turnOffOwnTools) "Pre-allow Wave's tools and turn off Claude's own shell and edit tools" else "Pre-allow Wave's tools"),
            )
        }
        AgentKind.CODEX -> {
            val before = read(codexConfigFile)
            var after = TomlTableEdit.upsert(before, listOf("mcp_servers", SERVER_NAME), codexEntries(), codexConfigFile.toString())
            if (turnOffOwnTools) after = TomlTableEdit.upsert(after, listOf("features"), listOf("shell_tool" to TomlValue.Bool(false)), codexConfigFile.toString())
            listOf(ConnectStep.EditFile(codexConfigFile, before, after, if (turnOffOwnTools) "Add the \"$SERVER_NAME\" server and turn off Codex's own shell" else "Add the \"$SERVER_NAME\" server"))
        }
        AgentKind.GEMINI -> {
            val before = read(geminiSettingsFile)
            val settings = JsonConfigEdit.parse(before, geminiSettingsFile.toString()).set(listOf("mcpServers", SERVER_NAME), geminiServer())
            if (turnOffOwnTools) settings.addToArray(listOf("tools", "exclude"), GEMINI_OWN_TOOLS)
            listOf(ConnectStep.EditFile(geminiSettingsFile, before, settings.render(), if (turnOffOwnTools) "Add the \"$SERVER_NAME\" server and turn off Gemini's own shell and edit tools" else "Add the \"$SERVER_NAME\" server"))
        }
        AgentKind.OTHER -> throw ConnectException("Add the server in your client's MCP settings.")
    }

    /**
     * Carries out [steps] in order. A file is replaced atomically, keeping its permissions, and only
     * if it still holds what the plan was made from (else nothing more is done and the user is told
     * to look again).
     */
    fun apply(steps: List<ConnectStep>, timeoutSeconds: Long = 60) {
        for (step in steps) {
            when (step) {
                is ConnectStep.EditFile -> {
                    if (read(step.path) != step.before) throw ConnectException("${step.path} changed since the preview; open Connect an Agent again to see the new diff.")
                    writeAtomically(step.path, step.after)
                }
                is ConnectStep.RunCommand -> {
                    val (code, output) = run(step.argv, timeoutSeconds)
                    if (code != 0 && !step.allowFailure) throw ConnectException("${commandLine(step.argv)} failed (exit $code): ${output.trim().take(2000)}")
                }
            }
        }
    }

    private fun claudeAddArgv(claude: String) = listOf(claude, "mcp", "add", "--scope", "user", SERVER_NAME, "--") + attach.argv

    private fun codexEntries() = listOf(
        "command" to TomlValue.Str(attach.command),
        "args" to TomlValue.Strs(attach.args),
        "tool_timeout_sec" to TomlValue.Integer(CODEX_TOOL_TIMEOUT_SEC),
        "default_tools_approval_mode" to TomlValue.Str("approve"),
    )

    private fun codexTable(): String = TomlTableEdit.upsert(null, listOf("mcp_servers", SERVER_NAME), codexEntries())

    private fun stdioServer() = JsonObject().apply {
        addProperty("command", attach.command)
        add("args", JsonArray().apply { attach.args.forEach { add(JsonPrimitive(it)) } })
    }

    private fun geminiServer() = stdioServer().apply { addProperty("trust", true) }

    /** A command line to show and copy, quoted for the user's shell. */
    fun commandLine(argv: List<String>): String = argv.joinToString(" ") { quote(it) }

    private fun quote(arg: String): String = when {
        arg.isNotEmpty() && arg.all { it.isLetterOrDigit() || it in "_@%+=:,./-\\" } && (os == OsFamily.WINDOWS || '\\' !in arg) -> arg
        os == OsFamily.WINDOWS -> "\"" + arg.replace("\"", "\\\"") + "\""
        else -> "'" + arg.replace("'", "'\\''") + "'"
    }

    /** PATH look-ups for what the dialog shows: made once, by [prepare], off the UI thread. */
    private val shownOnPath = java.util.concurrent.ConcurrentHashMap<String, java.util.Optional<String>>()

    private fun onPathForDisplay(name: String): String? = shownOnPath.computeIfAbsent(name) { java.util.Optional.ofNullable(findOnPath(it)) }.orElse(null)

    /**
     * Does the slow part of [setup] for every agent (PATH scans) so that switching tabs in the dialog
     * reads only memory; call it off the UI thread before the dialog opens. [plan] looks again.
     */
    fun prepare(): AgentConnect = apply { AgentKind.values().forEach { setup(it) } }

    /** An executable named [name] on the IDE's PATH (with the Windows extensions). */
    fun findOnPath(name: String): String? {
        val path = environment["PATH"] ?: environment["Path"] ?: return null
        val extensions = if (os == OsFamily.WINDOWS) listOf(".exe", ".cmd", ".bat", "") else listOf("")
        for (dir in path.split(if (os == OsFamily.WINDOWS) ';' else ':')) {
            if (dir.isBlank()) continue
            for (ext in extensions) {
                val candidate = Paths.get(dir, name + ext)
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return candidate.toString()
            }
        }
        return null
    }

    private fun run(argv: List<String>, timeoutSeconds: Long): Pair<Int, String> {
        val process = try {
            ProcessBuilder(argv).redirectErrorStream(true).apply {
                environment().clear()
                environment().putAll(this@AgentConnect.environment)
                environment()["HOME"] = home.toString()
            }.start()
        } catch (e: IOException) {
            throw ConnectException("Could not run ${argv.first()}: ${e.message}")
        }
        process.outputStream.close()
        var output = ""
        val reader = Thread { output = process.inputStream.bufferedReader().readText() }.apply { isDaemon = true; start() }
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.descendants().forEach { it.destroyForcibly() }
            process.destroyForcibly()
            throw ConnectException("${commandLine(argv)} did not finish within $timeoutSeconds s; it was stopped.")
        }
        reader.join(2000)
        return process.exitValue() to output
    }

    companion object {
        const val SERVER_NAME = "wave"
        const val CLAUDE_ALLOW_RULE = "mcp__wave"
        val CLAUDE_OWN_TOOLS = listOf("Bash", "Edit", "Write", "NotebookEdit")
        val GEMINI_OWN_TOOLS = listOf("run_shell_command", "write_file", "replace")
        const val CODEX_TOOL_TIMEOUT_SEC = 660L

        fun read(path: Path): String? = try {
            String(Files.readAllBytes(path), StandardCharsets.UTF_8)
        } catch (_: java.nio.file.NoSuchFileException) {
            null
        }

        /** Writes beside the file, then renames over it: a reader sees the old text or the new, never a part. */
        fun writeAtomically(file: Path, text: String) {
            // A config file kept elsewhere and linked (dotfiles): update its target, keep the link.
            val path = if (Files.isSymbolicLink(file)) file.toRealPath() else file
            val dir = path.toAbsolutePath().parent
            Files.createDirectories(dir)
            val permissions = try {
                Files.getPosixFilePermissions(path)
            } catch (_: Exception) {
                null
            }
            val tmp = Files.createTempFile(dir, ".${path.fileName}.", ".tmp")
            try {
                Files.write(tmp, text.toByteArray(StandardCharsets.UTF_8))
                val keep = permissions ?: setOf(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)
                try {
                    Files.setPosixFilePermissions(tmp, keep)
                } catch (_: UnsupportedOperationException) {
                    // not a POSIX file system (Windows)
                }
                try {
                    Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING)
                } catch (_: AtomicMoveNotSupportedException) {
                    Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING)
                }
            } finally {
                Files.deleteIfExists(tmp)
            }
        }
    }
}
