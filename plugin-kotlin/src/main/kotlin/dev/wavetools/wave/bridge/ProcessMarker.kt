package dev.wavetools.wave.bridge

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths

/**
 * Every core the plugin starts carries `WAVE_HOST_INSTANCE=<id>` in its environment, and every
 * process the core starts inherits it. On Linux that lets the host find a core's whole family in
 * /proc even after a child has left the process tree (double fork, setsid), so stopping a core
 * can sweep what the tree walk missed. Elsewhere [isSupported] is false and the sweep is skipped.
 */
object ProcessMarker {
    const val ENV_NAME = "WAVE_HOST_INSTANCE"

    fun isSupported(procRoot: Path = Paths.get("/proc")): Boolean = Files.isDirectory(procRoot.resolve("self"))

    /** Pids of live processes whose initial environment has `WAVE_HOST_INSTANCE=<marker>`. */
    fun pidsWith(marker: String, procRoot: Path = Paths.get("/proc")): List<Long> {
        if (!isSupported(procRoot)) return emptyList()
        val needle = "$ENV_NAME=$marker".toByteArray()
        val self = ProcessHandle.current().pid()
        val found = mutableListOf<Long>()
        val entries = try {
            Files.newDirectoryStream(procRoot).use { it.toList() }
        } catch (e: Exception) {
            return emptyList()
        }
        for (dir in entries) {
            val pid = dir.fileName.toString().toLongOrNull() ?: continue
            if (pid == self) continue
            val environ = try {
                Files.readAllBytes(dir.resolve("environ"))
            } catch (e: Exception) {
                continue // gone, or not ours to read
            }
            if (containsEntry(environ, needle)) found += pid
        }
        return found
    }

    /**
     * Whether [handle] is a running process. [ProcessHandle.isAlive] also says true for a zombie (dead,
     * not yet reaped by its parent), which no signal can affect; on Linux /proc tells them apart.
     */
    fun isRunning(handle: ProcessHandle, procRoot: Path = Paths.get("/proc")): Boolean {
        if (!handle.isAlive) return false
        if (!isSupported(procRoot)) return true
        val stat = try {
            Files.readString(procRoot.resolve(handle.pid().toString()).resolve("stat"))
        } catch (e: Exception) {
            return false // gone between the two looks
        }
        // "pid (comm) S ...": the state follows the last ')' (comm may contain parentheses).
        val state = stat.substringAfterLast(')').trim().firstOrNull()
        return state != 'Z' && state != 'X'
    }

    /** True when [environ] (NUL-separated `NAME=value` entries) has exactly the entry [needle]. */
    internal fun containsEntry(environ: ByteArray, needle: ByteArray): Boolean {
        var start = 0
        while (start < environ.size) {
            var end = start
            while (end < environ.size && environ[end] != 0.toByte()) end++
            if (end - start == needle.size && (0 until needle.size).all { environ[start + it] == needle[it] }) return true
            start = end + 1
        }
        return false
    }
}
