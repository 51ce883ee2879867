package dev.wavetools.wave.ui

import com.google.gson.JsonObject
import dev.wavetools.wave.bridge.EditDiffAdapter
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.BorderLayout
import java.awt.FlowLayout
import java.time.Clock
import java.time.Duration
import java.time.Instant
import javax.swing.BoxLayout
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel

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
