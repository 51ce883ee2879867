package dev.wavetools.wave.bridge

import com.google.gson.GsonBuilder
import com.google.gson.JsonParser
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.nio.file.StandardCopyOption
import java.nio.file.attribute.PosixFilePermissions
import java.security.MessageDigest
import java.time.Clock

/** One IDE's installation of the plugin: the node it runs the core with and its bundled core. */
data class CoreInstall(
    val node: String = "",
    val coreScript: String = "",
    val pluginVersion: String = "",
    /** The IDE that registered it ("IntelliJ IDEA 2025.3"), for people reading the launcher. */
    val ide: String = "",
    /** When that IDE last started with it (ISO-8601). */
    val registeredAt: String = "",
)

/**
 * The command Connect an Agent writes into agents' configurations: `<state>/bin/wave-core` (`.cmd`
 * on Windows) in Wave's own state directory (`$WAVE_STATE_DIR`, else `~/.wave`). It is the same path
 * for every IDE, so IntelliJ IDEA and WebStorm no longer overwrite each other's entry with their own,
 * and it survives IDE upgrades and uninstalls: every IDE that starts registers its installation in
 * `<state>/installs/` and rewrites the launcher, which tries the installations newest first (plugin
 * version, then the last to start) and runs the first whose node and core still exist.
 */
class WaveLauncher(val stateDir: Path, private val os: OsFamily = OsFamily.current(), private val clock: Clock = Clock.systemUTC()) {
    val binDir: Path = stateDir.resolve("bin")
    val installsDir: Path = stateDir.resolve("installs")
    val path: Path = binDir.resolve(if (os == OsFamily.WINDOWS) "wave-core.cmd" else "wave-core")

    /** Records [install] (replacing this installation's earlier record) and rewrites the launcher; returns its path. */
    fun register(install: CoreInstall): Path {
        ensureDir(stateDir)
        ensureDir(installsDir)
        val record = install.copy(registeredAt = install.registeredAt.ifEmpty { clock.instant().toString() })
        writeAtomically(installsDir.resolve("${keyOf(record.coreScript)}.json"), GSON.toJson(record) + "\n", executable = false)
        refresh()
        return path
    }

    /** Rewrites the launcher from the installations that still exist, forgetting the others. */
    fun refresh() {
        ensureDir(binDir)
        writeAtomically(path, render(installs()), executable = true)
    }

    /** The registered installations whose core is still there, newest first. */
    fun installs(): List<CoreInstall> {
        if (!Files.isDirectory(installsDir)) return emptyList()
        val found = Files.list(installsDir).use { s -> s.filter { it.fileName.toString().endsWith(".json") }.toList() }.mapNotNull { f ->
            val install = try {
                GSON.fromJson(Files.readString(f), CoreInstall::class.java)
            } catch (e: Exception) {
                null
            }
            if (install == null || install.coreScript.isEmpty() || !Files.isRegularFile(Paths.get(install.coreScript))) {
                // An uninstalled plugin (or a damaged record): forget it.
                Files.deleteIfExists(f)
                null
            } else {
                install
            }
        }
        return found.sortedWith(compareByDescending<CoreInstall, List<Int>>(VERSION_ORDER) { versionKey(it.pluginVersion) }.thenByDescending { it.registeredAt })
    }

    fun render(installs: List<CoreInstall>): String = if (os == OsFamily.WINDOWS) renderCmd(installs) else renderSh(installs)

    private fun renderSh(installs: List<CoreInstall>): String = buildString {
        append("#!/bin/sh\n")
        append("# Wave Tools: runs the newest installed wave-core. Written by the Wave Tools plugin whenever an IDE\n")
        append("# with it starts (${installsDir}); do not edit. Installations, newest first:\n")
        append("try_core() {\n")
        append("  node=\$1; core=\$2; shift 2\n")
        append("  if [ -f \"\$core\" ] && { [ -x \"\$node\" ] || command -v \"\$node\" >/dev/null 2>&1; }; then exec \"\$node\" \"\$core\" \"\$@\"; fi\n")
        append("}\n")
        for (i in installs) append("try_core ${sh(i.node)} ${sh(i.coreScript)} \"\$@\"  # ${oneLine(i.ide)} ${oneLine(i.pluginVersion)}\n")
        append("echo \"Wave Tools: no installed wave-core was found. Start an IDE with the Wave Tools plugin: it registers its core here again.\" >&2\n")
        append("exit 127\n")
    }

    private fun renderCmd(installs: List<CoreInstall>): String = buildString {
        append("@echo off\r\n")
        append("rem Wave Tools: runs the newest installed wave-core. Written by the Wave Tools plugin whenever an IDE\r\n")
        append("rem with it starts; do not edit. Installations, newest first.\r\n")
        installs.forEachIndexed { n, i -> append("if exist \"${i.node}\" if exist \"${i.coreScript}\" goto core$n\r\n") }
        append("echo Wave Tools: no installed wave-core was found. Start an IDE with the Wave Tools plugin: it registers its core here again. 1>&2\r\n")
        append("exit /b 127\r\n")
        installs.forEachIndexed { n, i ->
            append(":core$n\r\n")
            append("\"${i.node}\" \"${i.coreScript}\" %*\r\n")
            append("exit /b %ERRORLEVEL%\r\n")
        }
    }

    private fun sh(s: String) = "'" + s.replace("'", "'\\''") + "'"

    private fun oneLine(s: String) = s.replace(Regex("[\\r\\n]"), " ")

    private fun ensureDir(dir: Path) {
        if (Files.isDirectory(dir)) return
        Files.createDirectories(dir)
        // Wave's state directory is the user's alone (the core's lock files live there too).
        if (os != OsFamily.WINDOWS) Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"))
    }

    private fun writeAtomically(file: Path, text: String, executable: Boolean) {
        val tmp = Files.createTempFile(file.parent, ".${file.fileName}", ".tmp")
        try {
            Files.writeString(tmp, text)
            if (os != OsFamily.WINDOWS) Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(if (executable) "rwx------" else "rw-------"))
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
        } finally {
            Files.deleteIfExists(tmp)
        }
    }

    companion object {
        private val GSON = GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create()

        /** `$WAVE_STATE_DIR`, else `~/.wave`: where the core keeps its discovery files too. */
        fun stateDir(environment: Map<String, String>, home: Path): Path =
            environment["WAVE_STATE_DIR"]?.takeIf { it.isNotBlank() }?.let { Paths.get(it) } ?: home.resolve(".wave")

        private fun keyOf(coreScript: String): String =
            MessageDigest.getInstance("SHA-256").digest(coreScript.toByteArray()).joinToString("") { "%02x".format(it) }.take(16)

        private fun versionKey(v: String): List<Int> = v.split('.', '-', '+').map { it.toIntOrNull() ?: -1 }

        private val VERSION_ORDER = Comparator<List<Int>> { a, b ->
            for (i in 0 until maxOf(a.size, b.size)) {
                val c = (a.getOrNull(i) ?: 0).compareTo(b.getOrNull(i) ?: 0)
                if (c != 0) return@Comparator c
            }
            0
        }
    }
}

/** An agent's "wave" server entry that Connect an Agent wrote, as it reads now. */
data class ConfiguredEntry(val kind: AgentKind, val file: Path, val command: String, val args: List<String>)

/** Why an entry needs repair, said for people. */
data class StaleEntry(val entry: ConfiguredEntry, val reason: String)

/**
 * Checks the entries Connect an Agent wrote (Claude Code's user-scope server in `~/.claude.json`,
 * Codex's `[mcp_servers.wave]`, Gemini CLI's `mcpServers.wave`): one whose command or core no longer
 * exists is broken; one that runs a single IDE installation's core directly (as Connect wrote before
 * the launcher) breaks with the next upgrade or uninstall. Entries Wave did not write are left alone.
 */
class AgentEntries(private val connect: AgentConnect, private val home: Path, private val environment: Map<String, String>) {
    private val claudeUserConfig: Path get() = environment["CLAUDE_CONFIG_DIR"]?.takeIf { it.isNotBlank() }?.let { Paths.get(it).resolve(".claude.json") } ?: home.resolve(".claude.json")

    fun configured(): List<ConfiguredEntry> = listOfNotNull(
        jsonEntry(AgentKind.CLAUDE_CODE, claudeUserConfig),
        tomlEntry(connect.codexConfigFile),
        jsonEntry(AgentKind.GEMINI, connect.geminiSettingsFile),
    ).filter { "mcp" in it.args && "--attach" in it.args }

    fun stale(launcher: Path): List<StaleEntry> = configured().mapNotNull { e ->
        val missing = (listOf(e.command) + e.args.take(1).filter { it.endsWith(".js") }).firstOrNull { p -> Paths.get(p).isAbsolute && !Files.exists(Paths.get(p)) }
        when {
            missing != null -> StaleEntry(e, "it runs $missing, which no longer exists")
            e.command != launcher.toString() -> StaleEntry(e, "it runs one IDE installation's core (${e.args.firstOrNull() ?: e.command}), which stops working when that IDE is upgraded or uninstalled")
            else -> null
        }
    }

    private fun jsonEntry(kind: AgentKind, file: Path): ConfiguredEntry? {
        val text = read(file) ?: return null
        val server = try {
            JsonParser.parseString(text).asJsonObject.getAsJsonObject("mcpServers")?.getAsJsonObject(AgentConnect.SERVER_NAME)
        } catch (e: Exception) {
            null
        } ?: return null
        val command = server.get("command")?.takeIf { it.isJsonPrimitive }?.asString ?: return null
        val args = server.getAsJsonArray("args")?.mapNotNull { it.takeIf { a -> a.isJsonPrimitive }?.asString } ?: emptyList()
        return ConfiguredEntry(kind, file, command, args)
    }

    /** The `command` and one-line `args` of `[mcp_servers.wave]`, as Connect writes them; anything else reads as no entry. */
    private fun tomlEntry(file: Path): ConfiguredEntry? {
        val lines = read(file)?.lines() ?: return null
        val start = lines.indexOfFirst { it.trim() == "[mcp_servers.${AgentConnect.SERVER_NAME}]" }
        if (start < 0) return null
        val body = lines.drop(start + 1).takeWhile { !it.trimStart().startsWith("[") }
        fun value(key: String) = body.firstOrNull { Regex("^\\s*$key\\s*=").containsMatchIn(it) }?.substringAfter('=')?.trim()
        val strings = Regex("\"((?:[^\"\\\\]|\\\\.)*)\"|'([^']*)'")
        fun unquote(m: MatchResult) = if (m.groups[2] != null) m.groupValues[2] else m.groupValues[1].replace("\\\"", "\"").replace("\\\\", "\\")
        val command = value("command")?.let { strings.find(it) }?.let(::unquote) ?: return null
        val args = value("args")?.let { strings.findAll(it).map(::unquote).toList() } ?: emptyList()
        return ConfiguredEntry(AgentKind.CODEX, file, command, args)
    }

    private fun read(file: Path): String? = try {
        if (Files.isRegularFile(file)) Files.readString(file) else null
    } catch (e: Exception) {
        null
    }
}
