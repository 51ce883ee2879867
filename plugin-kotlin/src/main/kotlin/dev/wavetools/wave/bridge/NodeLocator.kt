package dev.wavetools.wave.bridge

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.time.Duration
import java.util.concurrent.TimeUnit

enum class OsFamily {
    LINUX, MAC, WINDOWS;

    companion object {
        fun current(osName: String = System.getProperty("os.name") ?: ""): OsFamily = when {
            osName.startsWith("Windows", ignoreCase = true) -> WINDOWS
            osName.startsWith("Mac", ignoreCase = true) || osName.startsWith("Darwin", ignoreCase = true) -> MAC
            else -> LINUX
        }
    }
}

data class NodeVersion(val major: Int, val minor: Int, val patch: Int) : Comparable<NodeVersion> {
    override fun compareTo(other: NodeVersion) = compareValuesBy(this, other, { it.major }, { it.minor }, { it.patch })
    override fun toString() = "v$major.$minor.$patch"

    companion object {
        private val PATTERN = Regex("""^v?(\d+)\.(\d+)\.(\d+)""")

        /** Parses `v20.11.1` (what `node --version` prints) or a version directory name like `20.11.1`. */
        fun parse(text: String): NodeVersion? =
            PATTERN.find(text.trim())?.destructured?.let { (a, b, c) -> NodeVersion(a.toInt(), b.toInt(), c.toInt()) }
    }
}

/** One place the locator looked, and what it found there. */
data class NodeAttempt(val path: String, val source: String, val outcome: String) {
    /** `/usr/bin/node (PATH): not found` — one line of what was tried. */
    fun describe(): String = "$path ($source): $outcome"
}

sealed class NodeLookup {
    data class Found(val path: Path, val version: NodeVersion, val source: String, val attempts: List<NodeAttempt>) : NodeLookup() {
        /** `Node.js v22.3.0 (PATH): /usr/bin/node` — what the log and the settings page show. */
        fun describe(): String = "Node.js $version ($source): $path"
    }

    data class NotFound(val attempts: List<NodeAttempt>, val minimumMajor: Int) : NodeLookup() {
        /** What the fallback panel and the notification say: what was tried and how to fix it. */
        fun message(): String = buildString {
            append(summary())
            if (attempts.isNotEmpty()) {
                append("\nTried:")
                for (a in attempts) append("\n  • ${a.describe()}")
            }
            append("\nDownload Node.js ${PinnedNode.VERSION.major} LTS for Wave Tools (the Download link in the Wave tool window; it is kept in the IDE's ")
            append("system folder and shared by all projects), install Node.js $minimumMajor or newer from https://nodejs.org, ")
            append("or set its path in Settings | Tools | Wave Tools | Node.js path.")
        }

        /** Why the core cannot start, as the tool window shows it: the summary, then each attempt under Details. */
        fun launchException(): CoreLaunchException = CoreLaunchException(summary(), attempts.map { it.describe() }, FailureKind.NODE_NOT_FOUND)

        private fun summary() = "Node.js $minimumMajor or newer was not found."
    }
}

/** Reads the version an executable reports; returns the text or throws with the reason it could not. */
fun interface VersionProbe {
    fun versionOf(executable: String): String
}

/** Runs `<node> --version` with a deadline. */
class ProcessVersionProbe(
    private val timeout: Duration = Duration.ofSeconds(5),
    private val environment: Map<String, String>? = null,
) : VersionProbe {
    override fun versionOf(executable: String): String {
        val builder = ProcessBuilder(executable, "--version").redirectErrorStream(true)
        if (environment != null) builder.environment().apply { clear(); putAll(environment) }
        val process = builder.start()
        process.outputStream.close()
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly()
            throw IllegalStateException("`--version` did not answer within ${timeout.toSeconds()} s")
        }
        val out = process.inputStream.readAllBytes().toString(StandardCharsets.UTF_8).trim()
        if (process.exitValue() != 0) throw IllegalStateException("`--version` exited with ${process.exitValue()}: ${out.take(200)}")
        return out
    }
}

/** File-system questions the locator asks; injectable so the Windows and macOS branches are testable here. */
interface FileProbe {
    fun isExecutableFile(path: String): Boolean
    fun isDirectory(path: String): Boolean
    fun list(dir: String): List<String>

    object Real : FileProbe {
        override fun isExecutableFile(path: String): Boolean {
            val p = Paths.get(path)
            return Files.isRegularFile(p) && Files.isExecutable(p)
        }

        override fun isDirectory(path: String): Boolean = Files.isDirectory(Paths.get(path))

        override fun list(dir: String): List<String> = try {
            Files.newDirectoryStream(Paths.get(dir)).use { s -> s.map { it.fileName.toString() } }
        } catch (e: Exception) {
            emptyList()
        }
    }
}

/** The Node.js interpreter the IDE itself is configured with (WebStorm, IntelliJ IDEA Ultimate: Languages & Frameworks | Node.js). */
sealed class IdeNodeInterpreter {
    /** A `node` on this machine. */
    data class Local(val path: String) : IdeNodeInterpreter()

    /** One the core cannot be started with from here (WSL, remote, Docker): named in the attempts, then skipped. */
    data class Unusable(val name: String, val reason: String) : IdeNodeInterpreter()
}

/**
 * Finds a Node.js to run the core with, each candidate checked for a version of at least
 * [minimumMajor]: the configured path, then the IDE's own Node.js interpreter, then `node` on the
 * IDE's PATH, then the usual install places (nvm, fnm, volta, asdf, Homebrew, /usr/local/bin,
 * Program Files\nodejs), and last the runtime Wave Tools downloaded ([managedNode]).
 */
class NodeLocator(
    private val environment: Map<String, String>,
    private val os: OsFamily = OsFamily.current(),
    private val home: String? = environment["HOME"] ?: environment["USERPROFILE"] ?: System.getProperty("user.home"),
    private val probe: VersionProbe = ProcessVersionProbe(),
    private val files: FileProbe = FileProbe.Real,
    val minimumMajor: Int = MINIMUM_MAJOR,
    /** Asked at each [locate]; reading the IDE's settings may fail, which only skips it. */
    private val ideInterpreter: () -> IdeNodeInterpreter? = { null },
    /** The `node` of the runtime Wave Tools manages, where one is installed. */
    private val managedNode: () -> Path? = { null },
) {
    data class Candidate(val path: String, val source: String)

    fun locate(configuredPath: String? = null): NodeLookup {
        val attempts = mutableListOf<NodeAttempt>()
        val ide = try {
            ideInterpreter()
        } catch (e: Exception) {
            attempts += NodeAttempt("(not readable)", IDE_INTERPRETER, "could not read the IDE's Node.js setting: ${e.message}")
            null
        }
        if (ide is IdeNodeInterpreter.Unusable) attempts += NodeAttempt(ide.name, IDE_INTERPRETER, ide.reason)
        for (c in candidates(configuredPath, (ide as? IdeNodeInterpreter.Local)?.path)) {
            if (!files.isExecutableFile(c.path)) {
                attempts += NodeAttempt(c.path, c.source, if (c.source == SETTINGS) "no executable file there" else "not found")
                continue
            }
            val reported = try {
                probe.versionOf(c.path)
            } catch (e: Exception) {
                attempts += NodeAttempt(c.path, c.source, "did not run: ${e.message}")
                continue
            }
            val version = NodeVersion.parse(reported)
            if (version == null) {
                attempts += NodeAttempt(c.path, c.source, "reported \"${reported.take(80)}\", not a Node.js version")
                continue
            }
            if (version.major < minimumMajor) {
                attempts += NodeAttempt(c.path, c.source, "Node.js $version is too old ($minimumMajor or newer is needed)")
                continue
            }
            return NodeLookup.Found(Paths.get(c.path), version, c.source, attempts.toList())
        }
        return NodeLookup.NotFound(attempts.toList(), minimumMajor)
    }

    /** Every place to look, in order, without duplicates. Only [SETTINGS] and PATH entries are listed when absent. */
    fun candidates(configuredPath: String? = null, ideInterpreterPath: String? = null): List<Candidate> {
        val out = LinkedHashMap<String, Candidate>()
        fun add(path: String, source: String) {
            val key = if (os == OsFamily.WINDOWS) path.lowercase() else path
            out.putIfAbsent(key, Candidate(path, source))
        }
        configuredPath?.trim()?.takeIf { it.isNotEmpty() }?.let { p ->
            add(if (files.isDirectory(p)) join(p, exe) else p, SETTINGS)
        }
        ideInterpreterPath?.trim()?.takeIf { it.isNotEmpty() }?.let { add(it, IDE_INTERPRETER) }
        pathValue()?.split(if (os == OsFamily.WINDOWS) ';' else ':')
            ?.map { it.trim().trim('"') }?.filter { it.isNotEmpty() }
            ?.forEach { dir -> add(join(dir, exe), "PATH") }
        managedInstalls().forEach { add(it.path, it.source) }
        managedNode()?.let { add(it.toString(), MANAGED) }
        return out.values.toList()
    }

    private val exe get() = if (os == OsFamily.WINDOWS) "node.exe" else "node"

    private fun pathValue(): String? =
        if (os == OsFamily.WINDOWS) environment.entries.firstOrNull { it.key.equals("PATH", ignoreCase = true) }?.value
        else environment["PATH"]

    private fun env(name: String): String? =
        (if (os == OsFamily.WINDOWS) environment.entries.firstOrNull { it.key.equals(name, ignoreCase = true) }?.value else environment[name])
            ?.takeIf { it.isNotBlank() }

    private fun managedInstalls(): List<Candidate> {
        val list = mutableListOf<Candidate>()
        val h = home
        if (os == OsFamily.WINDOWS) {
            env("NVM_SYMLINK")?.let { list += Candidate(join(it, exe), "nvm-windows") }
            env("NVM_HOME")?.let { root -> versionDirs(root).forEach { list += Candidate(join(join(root, it), exe), "nvm-windows") } }
            val appData = env("APPDATA")
            val localAppData = env("LOCALAPPDATA")
            (env("FNM_DIR") ?: appData?.let { join(it, "fnm") })?.let { fnm -> fnmVersions(fnm).forEach { list += it } }
            env("VOLTA_HOME")?.let { list += Candidate(join(join(it, "bin"), exe), "volta") }
            localAppData?.let { list += Candidate(join(join(join(it, "Volta"), "bin"), exe), "volta") }
            (env("ASDF_DATA_DIR"))?.let { asdf -> asdfVersions(asdf).forEach { list += it } }
            for (pf in listOfNotNull(env("ProgramFiles"), env("ProgramW6432"), env("ProgramFiles(x86)"))) {
                list += Candidate(join(join(pf, "nodejs"), exe), "Program Files")
                list += Candidate(join(join(pf, "Volta"), exe), "volta")
            }
            localAppData?.let { list += Candidate(join(join(join(it, "Programs"), "nodejs"), exe), "user install") }
            return list
        }
        val nvmDir = env("NVM_DIR") ?: h?.let { join(it, ".nvm") }
        nvmDir?.let { root ->
            val versions = join(join(root, "versions"), "node")
            versionDirs(versions).forEach { list += Candidate(join(join(join(versions, it), "bin"), exe), "nvm") }
        }
        val fnmRoots = listOfNotNull(
            env("FNM_DIR"),
            env("XDG_DATA_HOME")?.let { join(it, "fnm") },
            h?.let { join(join(join(it, ".local"), "share"), "fnm") },
            h?.takeIf { os == OsFamily.MAC }?.let { join(join(join(it, "Library"), "Application Support"), "fnm") },
            h?.let { join(it, ".fnm") },
        )
        fnmRoots.forEach { fnm -> fnmVersions(fnm).forEach { list += it } }
        (env("VOLTA_HOME") ?: h?.let { join(it, ".volta") })?.let { list += Candidate(join(join(it, "bin"), exe), "volta") }
        (env("ASDF_DATA_DIR") ?: h?.let { join(it, ".asdf") })?.let { asdf -> asdfVersions(asdf).forEach { list += it } }
        if (os == OsFamily.MAC) {
            list += Candidate("/opt/homebrew/bin/node", "Homebrew")
            list += Candidate("/usr/local/bin/node", "Homebrew")
        } else {
            list += Candidate("/home/linuxbrew/.linuxbrew/bin/node", "Homebrew")
            h?.let { list += Candidate(join(join(join(it, ".linuxbrew"), "bin"), exe), "Homebrew") }
        }
        list += Candidate("/usr/local/bin/node", "/usr/local/bin")
        list += Candidate("/usr/bin/node", "/usr/bin")
        return list
    }

    private fun fnmVersions(root: String): List<Candidate> {
        val versions = join(root, "node-versions")
        val bin = if (os == OsFamily.WINDOWS) listOf("installation") else listOf("installation", "bin")
        val list = versionDirs(versions).map { v -> Candidate(join((listOf(versions, v) + bin).reduce(::join), exe), "fnm") }.toMutableList()
        val alias = if (os == OsFamily.WINDOWS) join(join(join(root, "aliases"), "default"), exe) else join(join(join(join(root, "aliases"), "default"), "bin"), exe)
        return listOf(Candidate(alias, "fnm")) + list
    }

    private fun asdfVersions(root: String): List<Candidate> {
        val installs = join(join(root, "installs"), "nodejs")
        val bin = if (os == OsFamily.WINDOWS) "" else "bin"
        return versionDirs(installs).map { v ->
            val dir = if (bin.isEmpty()) join(installs, v) else join(join(installs, v), bin)
            Candidate(join(dir, exe), "asdf")
        } + Candidate(join(join(root, "shims"), exe), "asdf")
    }

    /** Subdirectories named like versions, newest first. */
    private fun versionDirs(dir: String): List<String> {
        if (!files.isDirectory(dir)) return emptyList()
        return files.list(dir)
            .mapNotNull { name -> NodeVersion.parse(name)?.let { name to it } }
            .sortedByDescending { it.second }
            .map { it.first }
    }

    private fun join(a: String, b: String): String {
        val sep = if (os == OsFamily.WINDOWS) "\\" else "/"
        return a.trimEnd('/', '\\') + sep + b
    }

    companion object {
        const val SETTINGS = "settings"
        const val IDE_INTERPRETER = "the IDE's Node.js interpreter"
        const val MANAGED = "downloaded for Wave Tools"

        /**
         * The oldest Node.js the plugin starts the core with (the repository's `engines`). The bundle
         * itself still runs on 18, which is past its end of life; the plugin asks for a supported one.
         */
        const val MINIMUM_MAJOR = 20
    }
}

/** The bundled core: `wave-core.js` inside the plugin (or a repository checkout during development). */
object CoreScript {
    const val FILE_NAME = "wave-core.js"

    /** Returns [candidate] when it is a readable file; otherwise a [CoreLaunchException] saying how to fix it. */
    fun require(candidate: File?): Path {
        if (candidate != null && candidate.isFile && candidate.canRead()) return candidate.toPath()
        throw CoreLaunchException(
            "The bundled wave-core ($FILE_NAME) is missing" + (candidate?.let { " at ${it.path}" } ?: "") +
                ". Reinstall the Wave Tools plugin; when building from source, run `npm run build` before the Gradle build.",
            kind = FailureKind.CORE_MISSING,
        )
    }
}
