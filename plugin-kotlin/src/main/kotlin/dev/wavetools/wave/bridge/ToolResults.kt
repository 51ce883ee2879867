package dev.wavetools.wave.bridge

import com.google.gson.JsonObject
import com.google.gson.annotations.JsonAdapter

// Readers that turn a tool's MCP-shaped result into what the tool window shows, each decoded
// strictly by the shape the core documents (docs/user/bash.md, docs/user/file-tools.md).

internal fun JsonObject.str(vararg names: String): String? {
    for (n in names) {
        val v = get(n) ?: continue
        if (v.isJsonPrimitive) return v.asString
    }
    return null
}

internal fun JsonObject.obj(name: String): JsonObject? = get(name)?.takeIf { it.isJsonObject }?.asJsonObject

/**
 * Why a tool call failed: the `structuredContent.errorKind` every `isError` result carries
 * (node-core/PROTOCOL.md, "Error kinds"). The plugin decides from it, never from the text. A kind
 * this plugin does not know (a newer core) reads as [UNKNOWN], never as a crash.
 */
enum class ToolErrorKind(val wire: String) {
    /** An argument breaks the schema or a rule of the tool (nothing ran). */
    INVALID_ARGUMENT("invalid_argument"),
    /** A permission rule, the permission mode, or the lack of anyone to ask refused the call (nothing ran). */
    DENIED_BY_POLICY("denied_by_policy"),
    /** The person asked did not allow the call: declined, no answer in time, or the question could not be shown (nothing ran). */
    DENIED_BY_USER("denied_by_user"),
    /** The call was cancelled (by the caller, the host's Stop, the session's end or shutdown) before it finished. */
    ABORTED("aborted"),
    /** The command ran past its timeout and was stopped with everything it started. */
    TIMEOUT("timeout"),
    /** A bug in wave-core: the tool threw where it should have answered. */
    INTERNAL_ERROR("internal_error"),
    /** The file, directory or path does not exist. */
    NOT_FOUND("not_found"),
    /** A file was expected but the path is a directory. */
    IS_DIRECTORY("is_directory"),
    /** A directory was expected but the path is a file. */
    NOT_A_DIRECTORY("not_a_directory"),
    /** The path is not a regular file (a named pipe, socket or device). */
    NOT_A_FILE("not_a_file"),
    /** The path cannot name a file: a symbolic-link loop, a file used as a directory, or too long. */
    INVALID_PATH("invalid_path"),
    /** The operating system refused access (EACCES, EPERM, a read-only file system). */
    PERMISSION_DENIED("permission_denied"),
    /** The path leads outside the project root, where the tool may not go. */
    OUTSIDE_WORKSPACE("outside_workspace"),
    /** The file must be read (Read) in this conversation before it is changed. */
    NOT_READ("not_read"),
    /** The file changed since it was read, or appeared while it was being written (nothing was changed). */
    STALE("stale"),
    /** The path was swapped (a link or directory replaced) between the permission check and the write; the write was undone. */
    PATH_CHANGED("path_changed"),
    /** Edit's old_string is not in the file. */
    NO_MATCH("no_match"),
    /** Edit's old_string is in the file more than once and replace_all is not set. */
    NOT_UNIQUE("not_unique"),
    /** The file, image or requested window is over the tool's limit. */
    TOO_LARGE("too_large"),
    /** The file is binary or a format the tool does not handle. */
    BINARY("binary"),
    /** The file's content cannot be decoded (a damaged image header, a notebook that is not valid JSON). */
    DAMAGED("damaged"),
    /** Sandbox mode on and no OS sandbox works here, or the call asked to leave the sandbox in that mode (nothing ran). */
    SANDBOX_UNAVAILABLE("sandbox_unavailable"),
    /** No usable bash or zsh (WAVE_SHELL or the system's) was found (nothing ran). */
    SHELL_NOT_FOUND("shell_not_found"),
    /** A program the tool needs (ripgrep for Grep) is not installed. */
    DEPENDENCY_MISSING("dependency_missing"),
    /** The shell, ripgrep or an output file could not be started or created. */
    SPAWN_FAILED("spawn_failed"),
    /** Memory, processes, open files or disk space ran out (ENOMEM, EAGAIN, EMFILE, ENOSPC, SIGXFSZ, ...). */
    OUT_OF_RESOURCES("out_of_resources"),
    /** Bash cannot parse the command. */
    SYNTAX_ERROR("syntax_error"),
    /** TaskStop: no background task has that id in this session's tree. */
    UNKNOWN_TASK("unknown_task"),
    /** Any other operating-system or search failure; the text says which. */
    IO_ERROR("io_error"),
    /** The command ran and exited with a non-zero code. */
    COMMAND_FAILED("command_failed"),
    /** The command ran and exited 127: bash could not find a program it named. */
    COMMAND_NOT_FOUND("command_not_found"),
    /** The command ran and exited 126: a program it named is not executable. */
    NOT_EXECUTABLE("not_executable"),
    /** The command's shell was killed by a signal. */
    COMMAND_KILLED("command_killed"),

    /** A kind this plugin does not know, or an error result without one. */
    UNKNOWN("");

    /** The command ran and failed on its own terms (its exit code, a signal): not a failure of the tool. */
    val isCommandOutcome: Boolean get() = this == COMMAND_FAILED || this == COMMAND_NOT_FOUND || this == NOT_EXECUTABLE || this == COMMAND_KILLED

    companion object {
        private val byWire = entries.filter { it != UNKNOWN }.associateBy { it.wire }

        /** The kind named on the wire; null when absent, [UNKNOWN] when not one this plugin knows. */
        fun fromWire(wire: String?): ToolErrorKind? = wire?.let { byWire[it] ?: UNKNOWN }

        /** The kind of a failed result ([UNKNOWN] when it names none); null for a result that is no error. */
        fun of(result: CallToolResult): ToolErrorKind? =
            if (!result.isError) null else fromWire(result.structuredContent?.str("errorKind")) ?: UNKNOWN
    }
}

/**
 * The Bash tool's result: its `structuredContent` fields (docs/user/bash.md, "Result fields")
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
    /** Why the call failed, when [isError]: a command's own outcome or a failure of the tool. */
    @Transient val errorKind: ToolErrorKind? = null,
    /**
     * `Shell working directory changed to <dir>` and/or `Shell cwd was reset to <dir> …`, as the core
     * wrote them (a reset before the command started and a kept `cd` can both happen in one call).
     */
    val cwdNotices: List<String> = emptyList(),
    /** Whether the command ran inside the OS sandbox; null when the core does not say. */
    @field:JsonAdapter(Lenient.BooleanReader::class)
    val sandboxed: Boolean? = null,
) {
    val movedToBackground: Boolean get() = backgroundTaskId != null

    companion object {
        const val CWD_CHANGED_PREFIX = "Shell working directory changed to "
        const val CWD_RESET_PREFIX = "Shell cwd was reset to "

        fun from(result: CallToolResult): BashResult {
            val decoded = result.structuredContent?.let { Json.decode<BashResult>(it) } ?: BashResult(error = result.text.ifBlank { null })
            return decoded.copy(isError = result.isError, errorKind = ToolErrorKind.of(result), cwdNotices = cwdNotices(result.text, decoded))
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
 * The `run_shell_command` result's `structuredContent` (docs/user/bash.md, "run_shell_command"; the text's
 * fields, Command … Process Group PGID, and more).
 */
data class ShellCommandResult(
    val command: String = "",
    /** Relative to the project root, or "(root)". */
    val directory: String = "",
    val stdout: String = "",
    val stderr: String = "",
    val error: String? = null,
    /** The kind of [error], on the wire (see [kind]). */
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
    /** Whether the command ran inside the OS sandbox; null when the core does not say. */
    @field:JsonAdapter(Lenient.BooleanReader::class)
    val sandboxed: Boolean? = null,
) {
    /** Why it failed, when [error] is set; [ToolErrorKind.UNKNOWN] for a kind this plugin does not know. */
    val kind: ToolErrorKind? get() = ToolErrorKind.fromWire(errorKind) ?: if (error != null) ToolErrorKind.UNKNOWN else null

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
    /** [start, end) ranges of UTF-16 code units within [text] — Kotlin string indices. */
    val highlights: List<IntRange> = emptyList(),
    /** The whole line's length when the core cut [text] to keep the result bounded; null when whole. */
    val fullLength: Int? = null,
    /** Lines of the hunk the core left out right after this one. */
    val omittedAfter: Int = 0,
) {
    enum class Kind { CONTEXT, ADDED, REMOVED }

    val cut: Boolean get() = fullLength != null
}

data class DiffHunk(
    val oldStart: Int,
    val oldLines: Int,
    val newStart: Int,
    val newLines: Int,
    val lines: List<DiffLine>,
    /** Lines of this hunk the core left out, in all; each gap follows a line with [DiffLine.omittedAfter]. */
    val linesOmitted: Int = 0,
)

data class DiffModel(
    val filePath: String?,
    val hunks: List<DiffHunk>,
    /** Over the whole change, including what was left out. */
    val linesAdded: Int,
    val linesRemoved: Int,
    /** Something was left out to keep the result bounded: hunks, lines of hunks, or ends of lines. */
    val truncated: Boolean,
    val hunksOmitted: Int = 0,
    val linesOmitted: Int = 0,
    val linesCut: Int = 0,
    /** A region's line diff gave up and shows its changed lines removed whole and added whole. */
    val coarse: Boolean = false,
)

/**
 * Reads the structured diff of an Edit or Write result, exactly as the core writes it
 * (node-core/src/fs/diff.ts, docs/user/file-tools.md): `structuredContent.diff` is
 * `{hunks: [{oldStart, oldLines, newStart, newLines, lines, linesOmitted?}], linesAdded, linesRemoved,
 * truncated, hunksOmitted, linesOmitted, linesCut, coarse}`, a line is
 * `{type: "context" | "removed" | "added", text, oldLine?, newLine?, changes?: [{start, end}], fullLength?}`
 * (node-core/PROTOCOL.md "Bounded results").
 */
object EditDiffAdapter {
    private data class WireRange(val start: Int = 0, val end: Int = 0)

    private data class WireLine(
        val type: String = "",
        val text: String = "",
        val oldLine: Int? = null,
        val newLine: Int? = null,
        val changes: List<WireRange>? = null,
        val fullLength: Int? = null,
        val omittedAfter: Int = 0,
    )

    private data class WireHunk(
        val oldStart: Int = 0,
        val oldLines: Int = 0,
        val newStart: Int = 0,
        val newLines: Int = 0,
        val lines: List<WireLine> = emptyList(),
        val linesOmitted: Int = 0,
    )

    private data class WireDiff(
        val hunks: List<WireHunk> = emptyList(),
        val linesAdded: Int = 0,
        val linesRemoved: Int = 0,
        val truncated: Boolean = false,
        val hunksOmitted: Int = 0,
        val linesOmitted: Int = 0,
        val linesCut: Int = 0,
        val coarse: Boolean = false,
    )

    /** The diff of a successful Edit/Write result; null when it carries none (an error, an older core). */
    fun from(result: CallToolResult): DiffModel? {
        val s = result.structuredContent ?: return null
        val diff = s.obj("diff") ?: return null
        val wire = Json.decode<WireDiff>(diff)
        return DiffModel(
            filePath = s.str("filePath"),
            hunks = wire.hunks.map { h -> DiffHunk(h.oldStart, h.oldLines, h.newStart, h.newLines, h.lines.map(::line), h.linesOmitted) },
            linesAdded = wire.linesAdded,
            linesRemoved = wire.linesRemoved,
            truncated = wire.truncated,
            hunksOmitted = wire.hunksOmitted,
            linesOmitted = wire.linesOmitted,
            linesCut = wire.linesCut,
            coarse = wire.coarse,
        )
    }

    private fun line(l: WireLine): DiffLine {
        val kind = when (l.type) {
            "added" -> DiffLine.Kind.ADDED
            "removed" -> DiffLine.Kind.REMOVED
            "context" -> DiffLine.Kind.CONTEXT
            else -> throw IllegalArgumentException("unknown diff line type \"${l.type}\"")
        }
        // Ranges outside the text would be a core bug; clamp them rather than fail painting.
        val ranges = l.changes.orEmpty().mapNotNull { r ->
            val a = r.start.coerceIn(0, l.text.length)
            val b = r.end.coerceIn(a, l.text.length)
            if (b > a) a until b else null
        }
        return DiffLine(kind, l.text, l.oldLine, l.newLine, ranges, l.fullLength?.takeIf { it > l.text.length }, l.omittedAfter.coerceAtLeast(0))
    }
}

/**
 * The two sides the IDE's diff viewer shows for an Edit or Write. The core reports hunks, not
 * whole files: with the file as it is now ([DiffTexts.of]'s `current`), undoing the hunks gives the
 * file as it was, so the viewer shows the whole file. When that cannot be trusted — the diff was
 * shortened, or the file changed since (the hunks' new lines are not where they say) — it shows the
 * changed regions only, [wholeFile] false.
 */
data class DiffTexts(val before: String, val after: String, val wholeFile: Boolean) {
    companion object {
        const val REGION_SEPARATOR = "⋯"

        fun of(model: DiffModel, current: String?): DiffTexts =
            current?.takeIf { !model.truncated }?.let { wholeFile(model, it) } ?: regionsOnly(model)

        private fun wholeFile(model: DiffModel, current: String): DiffTexts? {
            val lines = current.split("\n").map { it.removeSuffix("\r") }
            val endsWithNewline = current.endsWith("\n")
            val body = if (endsWithNewline) lines.dropLast(1) else lines
            val before = mutableListOf<String>()
            var next = 0
            for (h in model.hunks.sortedBy { it.newStart }) {
                val newSide = h.lines.filter { it.kind != DiffLine.Kind.REMOVED }.map { it.text }
                val oldSide = h.lines.filter { it.kind != DiffLine.Kind.ADDED }.map { it.text }
                // An empty side's start names the line before it (unified-diff convention).
                val start = if (newSide.isEmpty()) h.newStart else h.newStart - 1
                if (start < next || start + newSide.size > body.size) return null
                if (body.subList(start, start + newSide.size) != newSide) return null
                before += body.subList(next, start)
                before += oldSide
                next = start + newSide.size
            }
            before += body.subList(next, body.size)
            val text = before.joinToString("\n") + if (endsWithNewline && before.isNotEmpty()) "\n" else ""
            return DiffTexts(text, body.joinToString("\n") + if (endsWithNewline) "\n" else "", wholeFile = true)
        }

        private fun regionsOnly(model: DiffModel): DiffTexts {
            // Lines left out inside a hunk are set apart like hunks; a cut line ends with the separator.
            fun side(skip: DiffLine.Kind) = model.hunks.joinToString("\n$REGION_SEPARATOR\n") { h ->
                buildList {
                    var gap = false
                    for (l in h.lines) {
                        if (l.kind != skip) {
                            if (gap && isNotEmpty()) add(REGION_SEPARATOR)
                            gap = false
                            add(l.text + if (l.cut) " $REGION_SEPARATOR" else "")
                        }
                        if (l.omittedAfter > 0) gap = true
                    }
                }.joinToString("\n")
            }
            return DiffTexts(side(DiffLine.Kind.ADDED), side(DiffLine.Kind.REMOVED), wholeFile = false)
        }
    }
}
