package dev.wavetools.wave.ui

import com.google.gson.JsonObject
import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.EditDiffAdapter
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.BorderLayout
import java.awt.FlowLayout
import java.time.Clock
import java.time.Duration
import java.time.Instant
import javax.swing.Box
import javax.swing.BoxLayout
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.Timer

/** One tool call in the session feed, built from `tool/started` and completed by `tool/finished`. */
abstract class ToolCallCard(val started: ToolStarted, protected val actions: CallActions, protected val clock: Clock) : CardPanel() {
    val callId: String get() = started.callId
    var finished: ToolFinished? = null
        private set

    val isRunning: Boolean get() = finished == null

    protected val startedAt: Instant = try {
        Instant.parse(started.startedAt)
    } catch (e: Exception) {
        clock.instant()
    }

    protected fun arg(name: String): String? = started.arguments?.get(name)?.takeIf { it.isJsonPrimitive }?.asString

    fun finish(event: ToolFinished) {
        finished = event
        onFinished(event)
        revalidate()
        repaint()
    }

    protected abstract fun onFinished(event: ToolFinished)

    /** Called every second while running (and once by tests). */
    open fun tick() {}

    /** `$ command` over a secondary line on the left; the status and the controls on the right. */
    protected fun commandHeader(command: String, subtitle: String?, statusDot: StatusDot, statusLabel: JLabel, controls: JComponent): JPanel {
        val header = JPanel(BorderLayout(8, 0)).apply { isOpaque = false }
        val left = JPanel().apply { isOpaque = false; layout = BoxLayout(this, BoxLayout.Y_AXIS) }
        left.add(monoLabel("$ $command", bold = true).apply { toolTipText = command })
        if (!subtitle.isNullOrBlank()) left.add(secondaryLabel(subtitle))
        val right = JPanel(FlowLayout(FlowLayout.RIGHT, 6, 0)).apply { isOpaque = false }
        right.add(statusDot)
        right.add(statusLabel)
        right.add(controls)
        header.add(left, BorderLayout.CENTER)
        header.add(right, BorderLayout.EAST)
        return header
    }

    /** "Running 12s" while the call runs. */
    protected fun showElapsed(statusLabel: JLabel) {
        if (!isRunning) return
        statusLabel.text = "Running ${Format.elapsed(Duration.between(startedAt, clock.instant()))}"
        statusLabel.foreground = WaveTheme.running
    }

    /** Stops timers; the card is leaving the feed. */
    open fun dispose() {}
}

/**
 * A Bash call: the command line, its description and a running state with elapsed time while it
 * runs — never partial output (BASH-FG-3) — then the output once, with ANSI colours, the exit code
 * or signal, the duration, cwd notices and "Open full output" when the result was truncated.
 */
class BashCard(started: ToolStarted, actions: CallActions, clock: Clock = Clock.systemUTC()) : ToolCallCard(started, actions, clock) {
    val command: String = arg("command") ?: ""
    val description: String? = arg("description")

    val statusLabel = JLabel()
    val statusDot = StatusDot(WaveTheme.running)
    val moveButton: JButton = smallButton("Move to background", "Keep it running as a background task (Ctrl+B)") { requestMove() }
    val stopButton: JButton = smallButton("Stop", "Stop the command and its child processes") { requestStop() }
    private val buttons = JPanel(FlowLayout(FlowLayout.RIGHT, 4, 0)).apply { isOpaque = false; add(moveButton); add(stopButton) }
    private val body = JPanel().apply { isOpaque = false; layout = BoxLayout(this, BoxLayout.Y_AXIS) }
    private val timer = Timer(1000) { tick() }

    var result: BashResult? = null
        private set
    var output: OutputPane? = null
        private set
    val footerLabels = mutableListOf<JComponent>()
    var notice: String? = null
        private set

    /** An approval card for this call is open: the command has not started and cannot be moved yet. */
    var waitingForPermission = false
        set(value) {
            field = value
            refreshButtons()
        }

    init {
        add(commandHeader(command, description, statusDot, statusLabel, buttons), BorderLayout.NORTH)
        add(body, BorderLayout.CENTER)
        refreshButtons()
        tick()
        timer.start()
    }

    override fun tick() = showElapsed(statusLabel)

    /** Re-reads whether this host can still control the call (it may have been started elsewhere). */
    fun refreshButtons() {
        val controllable = isRunning && actions.canControl(callId)
        buttons.isVisible = isRunning
        moveButton.isEnabled = controllable && notice == null && !waitingForPermission
        stopButton.isEnabled = controllable
    }

    fun requestMove() {
        if (!moveButton.isEnabled) return
        moveButton.isEnabled = false
        moveButton.text = "Moving…"
        actions.moveToBackground(callId)
    }

    fun requestStop() {
        if (!stopButton.isEnabled) return
        stopButton.isEnabled = false
        moveButton.isEnabled = false
        stopButton.text = "Stopping…"
        actions.stop(callId)
    }

    /** The core declined to background the call (it already ended, or cannot): say why, keep Stop. */
    fun moveRefused(reason: String) {
        notice = reason
        moveButton.text = "Move to background"
        body.add(secondaryLabel(reason).apply { foreground = WaveTheme.warning })
        refreshButtons()
        revalidate()
    }

    override fun onFinished(event: ToolFinished) {
        timer.stop()
        val r = BashResult.from(event.result)
        result = r
        buttons.isVisible = false
        body.removeAll()
        val (text, color) = status(r)
        statusLabel.text = text
        statusLabel.foreground = color
        statusDot.color = color
        if (r.output.isNotEmpty() && !r.movedToBackground) {
            val pane = OutputPane(r.output.trimEnd('\n'))
            // The core's "[… N bytes omitted. Full output …]" line between head and tail is for the
            // model; here it reads as a note, and the footer links the file.
            if (r.truncated) OMISSION_MARKER.find(pane.plainText)?.let { pane.markAsNote(it.range) }
            output = pane
            body.add(Box.createVerticalStrut(4))
            body.add(OutputScroll(pane, MAX_OUTPUT_LINES, showEnd = true))
        }
        // A command that never ran (no shell, unwritable output directory) or that the core aborted says why.
        if (r.error != null && r.output.isEmpty()) {
            body.add(secondaryLabel(Format.firstLine(r.error, 300)).apply { foreground = WaveTheme.error; toolTipText = r.error; alignmentX = LEFT_ALIGNMENT })
        }
        val footer = JPanel(FlowLayout(FlowLayout.LEFT, 10, 2)).apply { isOpaque = false; alignmentX = LEFT_ALIGNMENT }
        footerLabels.clear()
        val parts = mutableListOf<JComponent>()
        parts += secondaryLabel(Format.duration(if (r.durationMs > 0) r.durationMs else event.durationMs))
        if (r.movedToBackground) {
            val how = when {
                r.backgroundedByUser -> "Moved to the background"
                r.assistantAutoBackgrounded -> "Still running after its timeout; continued in the background"
                else -> "Running in the background"
            }
            parts += secondaryLabel("$how as task ${r.backgroundTaskId}")
        }
        r.cwdNotices.forEach { parts += secondaryLabel(it) }
        if (r.survivors.isNotEmpty()) {
            parts += secondaryLabel("Left running: " + r.survivors.joinToString { "${it.command} (pid ${it.pid})" }).apply { foreground = WaveTheme.warning }
        }
        val file = r.outputPath
        if (file != null && !r.movedToBackground) {
            // Truncated: the file has what the card could not show. Survivors: they are still writing to it.
            val label = if (r.truncated) "Open full output (${Format.bytes(r.outputBytes)})" else "Open output file"
            parts += LinkLabel(label) { actions.openFile(file, null) }.apply { toolTipText = file }
        }
        parts.forEach { footer.add(it); footerLabels += it }
        body.add(footer)
    }

    private fun status(r: BashResult): Pair<String, java.awt.Color> = when {
        r.movedToBackground -> "In background" to WaveTheme.running
        r.interrupted -> "Interrupted" to WaveTheme.warning
        r.timedOut -> "Stopped at its timeout" to WaveTheme.warning
        r.signal != null -> "Killed by ${r.signal}" to WaveTheme.error
        r.exitCode != null -> "Exit ${r.exitCode}" to (if (r.exitCode == 0) WaveTheme.success else WaveTheme.error)
        r.error != null -> "Not run" to WaveTheme.error
        r.isError -> "Failed" to WaveTheme.error
        else -> "Done" to WaveTheme.success
    }

    override fun dispose() = timer.stop()

    companion object {
        const val MAX_OUTPUT_LINES = 24
        private val OMISSION_MARKER = Regex("""\[… [\d,]+ bytes omitted\.[^\n]*]""")
    }
}

/** An Edit call: the file, the diff with changed words highlighted where the core marked them (FS-EDIT-3). */
class EditCard(started: ToolStarted, actions: CallActions, clock: Clock = Clock.systemUTC(), private val root: String? = null) :
    ToolCallCard(started, actions, clock) {
    private var path = Format.absolute(arg("file_path") ?: arg("path") ?: "", root)
    val statusLabel = secondaryLabel("Editing…")
    var diffView: DiffView? = null
        private set
    private val body = JPanel(BorderLayout()).apply { isOpaque = false }

    init {
        val header = JPanel(BorderLayout(8, 0)).apply { isOpaque = false }
        val title = JPanel(FlowLayout(FlowLayout.LEFT, 6, 0)).apply { isOpaque = false }
        title.add(JLabel(started.name).apply { font = font.deriveFont(java.awt.Font.BOLD) })
        title.add(LinkLabel(Format.relative(path, root)) { actions.openFile(path, firstChangedLine()) })
        header.add(title, BorderLayout.CENTER)
        header.add(statusLabel, BorderLayout.EAST)
        add(header, BorderLayout.NORTH)
        add(body, BorderLayout.CENTER)
    }

    private fun firstChangedLine(): Int? = diffView?.model?.hunks?.firstOrNull()?.lines
        ?.firstOrNull { it.kind != dev.wavetools.wave.bridge.DiffLine.Kind.CONTEXT }?.let { it.newNumber ?: it.oldNumber }

    override fun onFinished(event: ToolFinished) {
        if (event.result.isError) {
            statusLabel.text = "Failed"
            statusLabel.foreground = WaveTheme.error
            body.add(OutputPane(event.result.text), BorderLayout.CENTER)
            return
        }
        val model = EditDiffAdapter.from(event.result)
        model?.filePath?.let { path = it }
        if (model == null) {
            statusLabel.text = "Done"
            body.add(secondaryLabel(Format.firstLine(event.result.text)), BorderLayout.CENTER)
            return
        }
        statusLabel.text = "+${model.linesAdded} −${model.linesRemoved}" + if (model.truncated) " (diff shortened)" else ""
        val view = DiffView(model)
        diffView = view
        body.add(view, BorderLayout.CENTER)
    }
}

/** Read, Write, Glob, Grep and any other tool: a one-line summary that expands to the full text. */
class CompactCard(started: ToolStarted, actions: CallActions, clock: Clock = Clock.systemUTC(), private val root: String? = null) :
    ToolCallCard(started, actions, clock) {
    val summaryLabel = JLabel()
    val toggle = LinkLabel("▸") { setExpanded(!expanded) }
    var expanded = false
        private set
    private var detail: JComponent? = null

    init {
        val header = JPanel(BorderLayout(8, 0)).apply { isOpaque = false }
        val left = JPanel(FlowLayout(FlowLayout.LEFT, 6, 0)).apply { isOpaque = false }
        left.add(toggle)
        left.add(JLabel(started.name).apply { font = font.deriveFont(java.awt.Font.BOLD) })
        left.add(summaryLabel)
        header.add(left, BorderLayout.CENTER)
        add(header, BorderLayout.NORTH)
        toggle.isVisible = false
        summaryLabel.text = subject() + "  …"
        summaryLabel.foreground = WaveTheme.secondary
    }

    private fun subject(): String {
        val a = started.arguments ?: JsonObject()
        fun s(n: String) = a.get(n)?.takeIf { it.isJsonPrimitive }?.asString
        return when (started.name) {
            "Read", "Write" -> Format.relative(s("file_path") ?: "", root)
            "Glob" -> s("pattern") ?: ""
            "TaskStop" -> "task ${s("task_id") ?: "?"}"
            "Grep" -> "\"${s("pattern") ?: ""}\"" + (s("path")?.let { " in ${Format.relative(it, root)}" } ?: "")
            else -> Format.firstLine(a.toString(), 80)
        }
    }

    override fun onFinished(event: ToolFinished) {
        val r = event.result
        val s = r.structuredContent
        val text = r.text
        val detailText = when {
            r.isError -> Format.firstLine(text)
            started.name == "Read" && s != null && s.has("numLines") ->
                if (s.get("numLines").asInt == 0) "empty file"
                else "lines ${s.get("startLine")?.asInt ?: 1}–${(s.get("startLine")?.asInt ?: 1) + s.get("numLines").asInt - 1} of ${s.get("totalLines")?.asInt}"
            started.name == "Glob" -> "${text.lines().count { it.isNotBlank() }} files"
            started.name == "Grep" -> "${text.lines().count { it.isNotBlank() }} lines"
            started.name == "Write" -> "written"
            else -> Format.firstLine(text, 80)
        }
        summaryLabel.text = "${subject()}  ·  $detailText"
        summaryLabel.foreground = if (r.isError) WaveTheme.error else WaveTheme.secondary
        toggle.isVisible = text.isNotBlank()
    }

    fun setExpanded(value: Boolean) {
        expanded = value
        toggle.text = if (value) "▾" else "▸"
        detail?.let { remove(it) }
        detail = null
        if (value) {
            val pane = OutputPane(finished?.result?.text ?: "")
            pane.addMouseListener(object : java.awt.event.MouseAdapter() {
                override fun mouseClicked(e: java.awt.event.MouseEvent) {
                    val offset = pane.viewToModel2D(e.point)
                    val doc = pane.document.getText(0, pane.document.length)
                    val start = doc.lastIndexOf('\n', offset - 1) + 1
                    val end = doc.indexOf('\n', offset).let { if (it < 0) doc.length else it }
                    linkFor(doc.substring(start, end))?.let { (p, l) -> actions.openFile(p, l) }
                }
            })
            val scroll = OutputScroll(pane, MAX_EXPANDED_LINES, showEnd = false)
            detail = scroll
            add(scroll, BorderLayout.CENTER)
        }
        revalidate()
        repaint()
    }

    /** A clicked line of the expanded text that names a file: Read's numbered lines, Grep's `path:line:`, Glob's paths. */
    fun linkFor(line: String): Pair<String, Int?>? {
        val args = started.arguments
        if (started.name == "Read") {
            val n = Regex("""^\s*(\d+)\t""").find(line)?.groupValues?.get(1)?.toIntOrNull() ?: return null
            // The core reports the absolute path it read; the argument may be relative to the session's cwd.
            val read = finished?.result?.structuredContent?.get("filePath")?.takeIf { it.isJsonPrimitive }?.asString
                ?: Format.absolute(args?.get("file_path")?.asString ?: return null, root)
            return read to n
        }
        val ref = PathLinks.find(line) ?: return null
        val base = args?.get("path")?.takeIf { it.isJsonPrimitive }?.asString ?: root
        val p = if (ref.path.startsWith("/") || Regex("^[A-Za-z]:").containsMatchIn(ref.path) || base == null) ref.path else "$base/${ref.path}"
        return p to ref.line
    }
}

private const val MAX_EXPANDED_LINES = 20

object Cards {
    fun create(started: ToolStarted, actions: CallActions, clock: Clock = Clock.systemUTC(), root: String? = null): ToolCallCard = when (started.name) {
        "Bash" -> BashCard(started, actions, clock)
        "run_shell_command" -> ShellCommandCard(started, actions, clock)
        "Edit", "MultiEdit" -> EditCard(started, actions, clock, root)
        else -> CompactCard(started, actions, clock, root)
    }
}
