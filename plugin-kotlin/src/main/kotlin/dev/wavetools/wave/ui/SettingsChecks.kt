package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.OsFamily
import java.nio.file.Files
import java.nio.file.InvalidPathException
import java.nio.file.Path
import java.nio.file.Paths

/**
 * What the settings page says about a value while it is typed: null when it is fine (empty means
 * "find it yourself"), otherwise the problem in words, which the page shows as the platform shows
 * validation errors. Only quick file checks: the core's own start says more, and nothing here runs.
 */
object SettingsChecks {
    /** The Node.js path: an executable file, or a directory with `node` in it. */
    fun nodePath(text: String, os: OsFamily = OsFamily.current()): String? {
        val p = path(text) ?: return if (text.isBlank()) null else WaveBundle.message("settings.error.notAPath")
        val exe = if (os == OsFamily.WINDOWS) "node.exe" else "node"
        return when {
            Files.isDirectory(p) -> if (isExecutableFile(p.resolve(exe), os)) null else WaveBundle.message("settings.error.noNodeInDirectory", exe)
            !Files.exists(p) -> WaveBundle.message("settings.error.missing")
            !isExecutableFile(p, os) -> WaveBundle.message("settings.error.notExecutable")
            else -> null
        }
    }

    /** The shell: bash or zsh, by name or by path. */
    fun shell(text: String, os: OsFamily = OsFamily.current()): String? {
        val t = text.trim()
        if (t.isEmpty()) return null
        val name = t.substringAfterLast('/').substringAfterLast('\\').removeSuffix(".exe")
        if (name != "bash" && name != "zsh") return WaveBundle.message("settings.error.shell")
        if ('/' !in t && '\\' !in t) return null
        val p = path(t) ?: return WaveBundle.message("settings.error.notAPath")
        return when {
            !Files.exists(p) -> WaveBundle.message("settings.error.missing")
            !isExecutableFile(p, os) -> WaveBundle.message("settings.error.notExecutable")
            else -> null
        }
    }

    /** A file that must exist (Git Bash's bash.exe). */
    fun existingFile(text: String): String? {
        val p = path(text) ?: return if (text.isBlank()) null else WaveBundle.message("settings.error.notAPath")
        return if (Files.isRegularFile(p)) null else WaveBundle.message("settings.error.missing")
    }

    private fun path(text: String): Path? = text.trim().takeIf { it.isNotEmpty() }?.let {
        try {
            Paths.get(it)
        } catch (e: InvalidPathException) {
            null
        }
    }

    // Windows has no executable bit: a file is enough there.
    private fun isExecutableFile(p: Path, os: OsFamily): Boolean = Files.isRegularFile(p) && (os == OsFamily.WINDOWS || Files.isExecutable(p))
}
