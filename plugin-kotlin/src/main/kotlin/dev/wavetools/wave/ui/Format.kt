package dev.wavetools.wave.ui

import java.time.Duration

/** Small text helpers shared by the cards and the task list. */
object Format {
    /** A finished duration: `340 ms`, `12.4 s`, `2 min 05 s`, `1 h 02 min`. */
    fun duration(ms: Long): String = when {
        ms < 1000 -> "$ms ms"
        ms < 60_000 -> String.format("%.1f s", ms / 1000.0)
        ms < 3_600_000 -> String.format("%d min %02d s", ms / 60_000, (ms / 1000) % 60)
        else -> String.format("%d h %02d min", ms / 3_600_000, (ms / 60_000) % 60)
    }

    /** A size: `812 B`, `48.2 KB`, `1.3 MB`, `2.0 GB` (powers of 1024). */
    fun bytes(n: Long): String = when {
        n < 1024 -> "$n B"
        n < 1024L * 1024 -> String.format("%.1f KB", n / 1024.0)
        n < 1024L * 1024 * 1024 -> String.format("%.1f MB", n / (1024.0 * 1024))
        else -> String.format("%.1f GB", n / (1024.0 * 1024 * 1024))
    }

    /** How long something ran, in a table's few characters: `47 s`, `18 min`, `1 h 02 min`. */
    fun shortDuration(d: Duration): String {
        val s = d.seconds.coerceAtLeast(0)
        return when {
            s < 60 -> "$s s"
            s < 3600 -> "${s / 60} min"
            else -> String.format("%d h %02d min", s / 3600, (s / 60) % 60)
        }
    }

    /** A running clock: `0:07`, `12:30`, `1:02:03`. */
    fun elapsed(d: Duration): String {
        val s = d.seconds.coerceAtLeast(0)
        return if (s >= 3600) String.format("%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60) else String.format("%d:%02d", s / 60, s % 60)
    }

    /** [path] shown relative to [root] when it is inside it. */
    fun relative(path: String, root: String?): String {
        if (root.isNullOrEmpty()) return path
        val r = root.trimEnd('/', '\\')
        return if (path.startsWith("$r/") || path.startsWith("$r\\")) path.substring(r.length + 1) else path
    }

    /** [path] made absolute against [root] when it is relative (tool arguments may be). */
    fun absolute(path: String, root: String?): String {
        if (root.isNullOrEmpty() || path.isEmpty() || path.startsWith("/") || path.startsWith("\\") || Regex("^[A-Za-z]:").containsMatchIn(path)) return path
        return root.trimEnd('/', '\\') + "/" + path
    }

    fun firstLine(s: String, max: Int = 160): String {
        val line = s.lineSequence().firstOrNull { it.isNotBlank() }?.trim() ?: ""
        return if (line.length > max) line.take(max - 1) + "…" else line
    }

    /** The first [max] lines of [s] (a long error stays readable in a card; the tooltip or file has the rest). */
    fun firstLines(s: String, max: Int): String {
        val lines = s.trimEnd().lines()
        return if (lines.size <= max) lines.joinToString("\n") else lines.take(max).joinToString("\n") + "\n…"
    }

    /** [s] on one line: line breaks shown as ⏎, so a multi-line command stays one line in a header. */
    fun oneLine(s: String): String = s.trim().replace(Regex("""\s*\r?\n\s*"""), " ⏎ ")
}

/** `path:line[:col]` references in tool output (grep results, compiler errors). */
object PathLinks {
    data class Ref(val path: String, val line: Int?)

    private val PATTERN = Regex("""^((?:[A-Za-z]:)?[^\s:]*[/\\]?[^\s:]+\.[A-Za-z0-9]+)(?::(\d+))?""")

    fun find(line: String): Ref? {
        val m = PATTERN.find(line.trim()) ?: return null
        return Ref(m.groupValues[1], m.groupValues[2].toIntOrNull())
    }
}
