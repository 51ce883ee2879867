package dev.wavetools.wave.bridge

import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonObject

// Readers that turn a tool's MCP-shaped result into what the tool window shows. The Bash result
// is decoded strictly by its documented shape (README "The Bash tool", Result fields); the Edit
// diff is still read tolerantly (see EditDiffAdapter) until its shape is settled.

internal fun JsonObject.str(vararg names: String): String? {
    for (n in names) {
        val v = get(n) ?: continue
        if (v.isJsonPrimitive) return v.asString
    }
    return null
}

internal fun JsonObject.int(vararg names: String): Int? {
    for (n in names) {
        val v = get(n) ?: continue
        if (v.isJsonPrimitive && v.asJsonPrimitive.isNumber) return v.asNumber.toInt()
    }
    return null
}

internal fun JsonObject.obj(name: String): JsonObject? = get(name)?.takeIf { it.isJsonObject }?.asJsonObject

internal fun JsonObject.arr(name: String): JsonArray? = get(name)?.takeIf { it.isJsonArray }?.asJsonArray

/**
 * The Bash tool's result: its `structuredContent` fields (README "The Bash tool", Result fields)
 * plus the cwd notice, which the core puts in the content text only.
 */
data class BashResult(
    /** Exit code 0; also true for backgrounded commands and a `sleep` stopped at its timeout. */
    val success: Boolean = false,
    /** Null when killed by a signal, backgrounded, or not started. */
    val exitCode: Int? = null,
    val signal: String? = null,
    /** At most 30,000 characters: head and tail when [truncated]. */
    val output: String = "",
    val truncated: Boolean = false,
    /** The output file when the core kept it: truncated output, survivors still writing, background tasks. */
    val outputPath: String? = null,
    /** Size of the whole output. */
    val outputBytes: Long = 0,
    val backgroundTaskId: String? = null,
    val backgroundedByUser: Boolean = false,
    val assistantAutoBackgrounded: Boolean = false,
    /** It ran past its timeout (then backgrounded, or stopped if it was a `sleep`). */
    val timedOut: Boolean = false,
    /** Cancelled; [output] is what it printed until then. */
    val interrupted: Boolean = false,
    /** Where the next command starts. */
    val cwd: String = "",
    /** A `cd` inside the allowed directories was kept. */
    val cwdChanged: Boolean = false,
    /** The session went back to its original directory. */
    val cwdReset: Boolean = false,
    /** Descendants still alive when the shell exited. */
    val survivors: List<Survivor> = emptyList(),
    val durationMs: Long = 0,
    /** Only on failures to start (no shell, unwritable output directory) and calls the core aborted. */
    val error: String? = null,
    val isError: Boolean = false,
    /**
     * `Shell working directory changed to <dir>` and/or `Shell cwd was reset to <dir> …`, as the core
     * wrote them (a reset before the command started and a kept `cd` can both happen in one call).
     */
    val cwdNotices: List<String> = emptyList(),
) {
    val movedToBackground: Boolean get() = backgroundTaskId != null

    companion object {
        const val CWD_CHANGED_PREFIX = "Shell working directory changed to "
        const val CWD_RESET_PREFIX = "Shell cwd was reset to "

        fun from(result: CallToolResult): BashResult {
            val decoded = result.structuredContent?.let { Json.decode<BashResult>(it) } ?: BashResult(error = result.text.ifBlank { null })
            return decoded.copy(isError = result.isError, cwdNotices = cwdNotices(result.text, decoded))
        }

        /**
         * The notice lines of the content text; the booleans say which there are. The notes follow
         * the command's output, so the last matching line is the core's, not something it printed.
         */
        private fun cwdNotices(text: String, r: BashResult): List<String> {
            val lines = text.lines()
            fun notice(prefix: String, fallback: String) = lines.lastOrNull { it.startsWith(prefix) } ?: fallback
            return buildList {
                if (r.cwdReset) add(notice(CWD_RESET_PREFIX, CWD_RESET_PREFIX + r.cwd))
                if (r.cwdChanged) add(notice(CWD_CHANGED_PREFIX, CWD_CHANGED_PREFIX + r.cwd))
            }
        }
    }
}

/** A process `run_shell_command` found still running after its shell exited. */
data class BackgroundProcess(val pid: Long = 0, val command: String = "")

/**
 * The `run_shell_command` result's `structuredContent` (README "run_shell_command"; the text's
 * fields, Command … Process Group PGID, and more).
 */
data class ShellCommandResult(
    val command: String = "",
    /** Relative to the project root, or "(root)". */
    val directory: String = "",
    val stdout: String = "",
    val stderr: String = "",
    val error: String? = null,
    val errorKind: String? = null,
    val exitCode: Int? = null,
    /** The number of the signal that killed the shell. */
    val signal: Int? = null,
    val signalName: String? = null,
    val backgroundPids: List<Long> = emptyList(),
    val backgroundProcesses: List<BackgroundProcess> = emptyList(),
    val pgid: Long? = null,
    val timedOut: Boolean = false,
    val interrupted: Boolean = false,
    val timeoutMs: Long = 0,
    val stdoutTruncated: Boolean = false,
    val stderrTruncated: Boolean = false,
    val stdoutBytes: Long = 0,
    val stderrBytes: Long = 0,
    val stdoutPath: String? = null,
    val stderrPath: String? = null,
    val durationMs: Long = 0,
) {
    /** The result text's fields, in its order and with its words for "nothing" (RSC-2). */
    fun fields(): List<Pair<String, String>> = listOf(
        "Command" to command,
        "Directory" to directory,
        "Stdout" to stdout.removeSuffix("\n").ifEmpty { "(empty)" },
        "Stderr" to stderr.removeSuffix("\n").ifEmpty { "(empty)" },
        "Error" to (error?.ifEmpty { null } ?: "(none)"),
        "Exit Code" to (exitCode?.toString() ?: "(none)"),
        "Signal" to (signal?.let { n -> signalName?.let { "$n ($it)" } ?: "$n" } ?: "(none)"),
        "Background PIDs" to backgroundPids.ifEmpty { null }?.joinToString(", ").orEmpty().ifEmpty { "(none)" },
        "Process Group PGID" to (pgid?.toString() ?: "(none)"),
    )

    companion object {
        fun from(result: CallToolResult): ShellCommandResult =
            result.structuredContent?.let { Json.decode<ShellCommandResult>(it) } ?: ShellCommandResult(error = result.text.ifBlank { "(no result)" })
    }
}

/** One line of an edit's diff, with the character ranges the core marked as changed words (FS-EDIT-3). */
data class DiffLine(
    val kind: Kind,
    val text: String,
    val oldNumber: Int?,
    val newNumber: Int?,
    /** Half-open [start, end) character ranges within [text]. */
    val highlights: List<IntRange> = emptyList(),
) {
    enum class Kind { CONTEXT, ADDED, REMOVED }
}

data class DiffHunk(val oldStart: Int, val newStart: Int, val lines: List<DiffLine>)

data class DiffModel(val filePath: String?, val hunks: List<DiffHunk>) {
    val added: Int get() = hunks.sumOf { h -> h.lines.count { it.kind == DiffLine.Kind.ADDED } }
    val removed: Int get() = hunks.sumOf { h -> h.lines.count { it.kind == DiffLine.Kind.REMOVED } }
}

/**
 * Reads an Edit/Write result's diff. The exact shape is still being settled on the core side, so this
 * adapter is the one place to align. It accepts, in structuredContent:
 *  - `diff: {hunks: [...]}`, `hunks: [...]` or `structuredPatch: [...]`, each hunk
 *    `{oldStart, newStart, lines: [...]}`; a line is either a string prefixed with `+`, `-` or a space,
 *    or an object `{type|kind|op, text|content|value, highlights|ranges|words|changes}` where the
 *    ranges are `[start, end]` pairs or `{start, end}` / `{start, length}` objects;
 *  - `diff` or `patch` as unified-diff text;
 * and falls back to unified-diff text in the result's content.
 */
object EditDiffAdapter {
    fun from(result: CallToolResult): DiffModel? {
        val s = result.structuredContent
        val path = s?.str("filePath", "file_path", "path")
        if (s != null) {
            val hunks = s.obj("diff")?.arr("hunks") ?: s.arr("hunks") ?: s.arr("structuredPatch")
            if (hunks != null) return DiffModel(path, hunks.mapNotNull { hunk(it) })
            val text = s.str("diff", "patch", "unifiedDiff")
            if (text != null) return parseUnified(text, path)
        }
        val text = result.text
        return if (text.lines().any { it.startsWith("@@") }) parseUnified(text, path) else null
    }

    private fun hunk(el: JsonElement): DiffHunk? {
        val h = el.takeIf { it.isJsonObject }?.asJsonObject ?: return null
        var old = h.int("oldStart", "old_start") ?: 1
        var new = h.int("newStart", "new_start") ?: 1
        val hunkStartOld = old
        val hunkStartNew = new
        val lines = (h.arr("lines") ?: JsonArray()).mapNotNull { raw ->
            val line = line(raw) ?: return@mapNotNull null
            when (line.kind) {
                DiffLine.Kind.CONTEXT -> line.copy(oldNumber = old++, newNumber = new++)
                DiffLine.Kind.REMOVED -> line.copy(oldNumber = old++)
                DiffLine.Kind.ADDED -> line.copy(newNumber = new++)
            }
        }
        return DiffHunk(hunkStartOld, hunkStartNew, lines)
    }

    private fun line(raw: JsonElement): DiffLine? {
        if (raw.isJsonPrimitive) return prefixed(raw.asString)
        val o = raw.takeIf { it.isJsonObject }?.asJsonObject ?: return null
        val kind = when (o.str("type", "kind", "op")?.lowercase()) {
            "add", "added", "insert", "+" -> DiffLine.Kind.ADDED
            "del", "delete", "deleted", "remove", "removed", "-" -> DiffLine.Kind.REMOVED
            else -> DiffLine.Kind.CONTEXT
        }
        val text = o.str("text", "content", "value", "line") ?: ""
        val ranges = (o.arr("highlights") ?: o.arr("ranges") ?: o.arr("words") ?: o.arr("changes"))
            ?.mapNotNull { range(it, text.length) } ?: emptyList()
        return DiffLine(kind, text, null, null, ranges)
    }

    private fun range(el: JsonElement, length: Int): IntRange? {
        val (start, end) = when {
            el.isJsonArray && el.asJsonArray.size() >= 2 -> el.asJsonArray[0].asInt to el.asJsonArray[1].asInt
            el.isJsonObject -> {
                val o = el.asJsonObject
                val s = o.int("start", "from") ?: return null
                val e = o.int("end", "to") ?: o.int("length", "len")?.let { s + it } ?: return null
                s to e
            }
            else -> return null
        }
        val a = start.coerceIn(0, length)
        val b = end.coerceIn(a, length)
        return if (b > a) a until b else null
    }

    private fun prefixed(s: String): DiffLine? = when {
        s.startsWith("+") -> DiffLine(DiffLine.Kind.ADDED, s.substring(1), null, null)
        s.startsWith("-") -> DiffLine(DiffLine.Kind.REMOVED, s.substring(1), null, null)
        s.startsWith(" ") -> DiffLine(DiffLine.Kind.CONTEXT, s.substring(1), null, null)
        s.startsWith("\\") -> null // "\ No newline at end of file"
        else -> DiffLine(DiffLine.Kind.CONTEXT, s, null, null)
    }

    private val HUNK_HEADER = Regex("""^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@""")

    fun parseUnified(text: String, path: String?): DiffModel {
        val hunks = mutableListOf<DiffHunk>()
        var current: MutableList<DiffLine>? = null
        var oldStart = 0
        var newStart = 0
        var old = 0
        var new = 0
        var file = path
        fun flush() {
            current?.let { hunks += DiffHunk(oldStart, newStart, it) }
        }
        for (l in text.lines()) {
            val header = HUNK_HEADER.find(l)
            when {
                header != null -> {
                    flush()
                    oldStart = header.groupValues[1].toInt(); newStart = header.groupValues[2].toInt()
                    old = oldStart; new = newStart
                    current = mutableListOf()
                }
                l.startsWith("+++ ") -> if (file == null) file = l.removePrefix("+++ ").removePrefix("b/")
                l.startsWith("--- ") && current == null -> {}
                current != null -> {
                    val d = prefixed(l) ?: continue
                    current!! += when (d.kind) {
                        DiffLine.Kind.CONTEXT -> d.copy(oldNumber = old++, newNumber = new++)
                        DiffLine.Kind.REMOVED -> d.copy(oldNumber = old++)
                        DiffLine.Kind.ADDED -> d.copy(newNumber = new++)
                    }
                }
            }
        }
        flush()
        return DiffModel(file, hunks)
    }
}
