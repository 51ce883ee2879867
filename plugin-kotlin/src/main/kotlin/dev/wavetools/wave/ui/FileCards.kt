package dev.wavetools.wave.ui

import com.google.gson.JsonObject
import dev.wavetools.wave.bridge.DiffLine
import dev.wavetools.wave.bridge.EditDiffAdapter
import dev.wavetools.wave.bridge.ToolErrorKind
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.Dimension
import java.awt.event.MouseAdapter
import java.awt.event.MouseEvent
import javax.swing.BorderFactory
import javax.swing.JComponent
import javax.swing.JScrollPane
import javax.swing.SwingUtilities

/**
 * An Edit or Write: the file (a link to it, at the first changed line) and `+added −removed`, the
 * compact inline diff with the changed words highlighted where the core marked them (FS-EDIT-3),
 * and Show Diff, which opens the IDE's own diff viewer on the change.
 */
class EditCard(started: ToolStarted, context: CardContext) : ToolCallCard(started, context) {
    private var path = Format.absolute(arg("file_path") ?: arg("path") ?: "", context.root)
    val statusLabel = ToneLabel(WaveBundle.message(if (started.name == "Write") "card.edit.writing" else "card.edit.editing"), Tone.SECONDARY, small = true)
    val pathLink = LinkLabel(Format.relative(path, context.root), isData = true) { actions.openFile(path, firstChangedLine()) }.apply { toolTipText = path }
    var diffView: DiffView? = null
        private set
    var showDiffLink: LinkLabel? = null
        private set

    val header = CardHeader(statusIcon, pathLink, statusLabel, chevron = chevron, prefix = listOf(ToneLabel(started.name)))

    init {
        setHeader(header)
    }

    /** While the person is asked about the write, the whole path, wrapped; afterwards the link. */
    override fun approvalChanged() {
        header.title = if (waitingForApproval) TextBlock(path, mono = true) else pathLink
        if (isRunning) {
            statusLabel.text = if (waitingForApproval) WaveBundle.message("card.status.waitingForApproval") else WaveBundle.message(if (started.name == "Write") "card.edit.writing" else "card.edit.editing")
            statusLabel.tone = if (waitingForApproval) Tone.WARNING else Tone.SECONDARY
            statusIcon.state = if (waitingForApproval) CallState.WAITING else CallState.RUNNING
        }
    }

    private fun firstChangedLine(): Int? = diffView?.model?.hunks?.firstOrNull()?.lines
        ?.firstOrNull { it.kind != DiffLine.Kind.CONTEXT }?.let { it.newNumber ?: it.oldNumber }

    override fun onFinished(event: ToolFinished) {
        body.removeAll()
        footer.clear()
        statusIcon.state = if (event.shown.isError) CallState.FAILED else CallState.PASSED
        addStandingNotes()
        if (event.shown.isError) {
            statusLabel.text = (ToolErrorKind.of(event.shown) ?: ToolErrorKind.UNKNOWN).headline()
            statusLabel.tone = Tone.ERROR
            body.addRow(TextBlock(Format.firstLines(event.shown.text, 6), Tone.ERROR, small = true))
            return
        }
        val model = EditDiffAdapter.from(event.shown)
        model?.filePath?.let { path = it; pathLink.toolTipText = it }
        if (event.resultUnavailable != null) {
            // The summary has the counts, not the hunks: no diff to show or open.
            statusLabel.text = model?.let { "+${it.linesAdded} −${it.linesRemoved}" } ?: WaveBundle.message("card.status.done")
            return
        }
        if (model == null || model.hunks.isEmpty() && !model.truncated) {
            statusLabel.text = WaveBundle.message(if (model == null) "card.status.done" else "card.edit.noChanges")
            return
        }
        statusLabel.text = "+${model.linesAdded} −${model.linesRemoved}"
        statusLabel.tone = Tone.SECONDARY
        if (model.hunks.isNotEmpty()) {
            val view = DiffView(model, MAX_DIFF_LINES)
            diffView = view
            val area = DiffArea(view, context.softWrap)
            track(AutoCloseable { area.dispose() })
            body.addRow(area)
        }
        if (model.truncated) footer.add(secondaryLabel(WaveBundle.message("card.edit.diffShortened.text")))
        val link = LinkLabel(WaveBundle.message("card.showDiff.link")) { actions.showDiff(path, model) }
        showDiffLink = link
        footer.add(link)
    }

    companion object {
        const val MAX_DIFF_LINES = 16
    }
}

/**
 * The inline diff at its whole height (the view shows at most [DiffView.maxRows] rows; Show Diff
 * has the rest), in the console colours. Lines wrap while the tool window's soft-wrap is on;
 * off, a wide line scrolls sideways in this area alone, and up and down stay the feed's.
 */
class DiffArea(val view: DiffView, softWrap: SoftWrapSetting? = null) : JScrollPane(view, VERTICAL_SCROLLBAR_NEVER, HORIZONTAL_SCROLLBAR_NEVER), Themed {
    private val subscription: AutoCloseable?

    init {
        alignmentX = LEFT_ALIGNMENT
        subscription = softWrap?.let { s ->
            view.softWrap = s.enabled
            s.onChange { view.softWrap = it; horizontalScrollBarPolicy = policy(it); sizedForWidth = -1; revalidate(); (parent as? JComponent)?.revalidate() }
        }
        horizontalScrollBarPolicy = policy(view.softWrap)
        themeChanged(WaveTheme.current)
    }

    private fun policy(wrap: Boolean) = if (wrap) HORIZONTAL_SCROLLBAR_NEVER else HORIZONTAL_SCROLLBAR_AS_NEEDED

    override fun themeChanged(theme: Theme) {
        border = BorderFactory.createMatteBorder(theme.px(4), 0, theme.px(4), 0, theme.outputBackground)
        viewport.background = theme.outputBackground
    }

    override fun getPreferredSize(): Dimension {
        val frame = insets
        val room = width - frame.left - frame.right
        if (view.softWrap && room > 0) view.wrapWidth = room
        val viewSize = view.preferredSize
        val wide = !view.softWrap && width > 0 && viewSize.width > room
        return Dimension(WaveTheme.current.px(120), viewSize.height + frame.top + frame.bottom + if (wide) horizontalScrollBar.preferredSize.height else 0)
    }

    override fun getMaximumSize(): Dimension = Dimension(Int.MAX_VALUE, preferredSize.height)
    override fun getMinimumSize(): Dimension = Dimension(0, preferredSize.height)

    private var sizedForWidth = -1

    override fun doLayout() {
        super.doLayout()
        if (width > 0 && width != sizedForWidth) {
            sizedForWidth = width
            if (preferredSize.height != height) SwingUtilities.invokeLater { (parent as? JComponent)?.revalidate() }
        }
    }

    /** Up and down belong to the feed; only a sideways scroll (Shift+wheel) moves this area. */
    override fun processMouseWheelEvent(e: java.awt.event.MouseWheelEvent) {
        val outer = SwingUtilities.getAncestorOfClass(JScrollPane::class.java, parent)
        if (!(e.isShiftDown && horizontalScrollBar.isVisible) && outer != null) {
            outer.dispatchEvent(SwingUtilities.convertMouseEvent(this, e, outer))
            return
        }
        super.processMouseWheelEvent(e)
    }

    fun dispose() {
        subscription?.close()
    }
}

/**
 * Read, Glob, Grep, TaskStop and any other tool: a one-line summary, folded; unfolded, the text
 * (its first lines, Show All for the rest), in which a line that names a file opens it.
 */
class CompactCard(started: ToolStarted, context: CardContext) : ToolCallCard(started, context) {
    val summaryLabel = ToneLabel("", Tone.SECONDARY)
    /** The fold toggle: the card's chevron. */
    val toggle: IconButton get() = chevron
    private var detail: OutputArea? = null
    private var showAllRow: JComponent? = null

    /** "Show All" under an unfolded text the card shows only part of. */
    var showAll: LinkLabel? = null
        private set

    private val header = CardHeader(statusIcon, summaryLabel, chevron = chevron, prefix = listOf(ToneLabel(started.name)))

    override fun approvalChanged() {
        header.title = if (waitingForApproval) TextBlock(subject(), mono = true) else summaryLabel
        if (isRunning) statusIcon.state = if (waitingForApproval) CallState.WAITING else CallState.RUNNING
    }

    init {
        setHeader(header)
        summaryLabel.text = subject() + "  …"
        summaryLabel.toolTipText = subject()
        bodyChanged(expand = false)
    }

    override val foldsLazily: Boolean get() = finished?.shown?.text?.isNotBlank() == true

    private fun subject(): String {
        val a = started.arguments ?: JsonObject()
        fun s(n: String) = a.get(n)?.takeIf { it.isJsonPrimitive }?.asString
        return when (started.name) {
            "Read" -> Format.relative(s("file_path") ?: "", context.root)
            "Glob" -> s("pattern") ?: ""
            "TaskStop" -> WaveBundle.message("card.compact.taskStop.subject")
            "Grep" -> "\"${s("pattern") ?: ""}\"" + (s("path")?.let { " " + WaveBundle.message("card.compact.in", Format.relative(it, context.root)) } ?: "")
            else -> Format.firstLine(a.toString(), 80)
        }
    }

    override fun onFinished(event: ToolFinished) {
        val r = event.shown
        val s = r.structuredContent
        val text = r.text
        val detailText = when {
            r.isError -> (ToolErrorKind.of(r) ?: ToolErrorKind.UNKNOWN).headline()
            started.name == "Read" && s != null && s.has("numLines") -> {
                val start = s.get("startLine")?.asInt ?: 1
                val lines = s.get("numLines").asInt
                if (lines == 0) WaveBundle.message("card.compact.read.empty") else WaveBundle.message("card.compact.read.lines", start, start + lines - 1, s.get("totalLines")?.asInt ?: 0)
            }
            // The counts the core reports: the text may say "No files match …" (one line, no file),
            // or be only a preview when the card was built from the call's summary.
            started.name == "Glob" -> count(s?.get("numFiles")?.asInt ?: text.lines().count { it.isNotBlank() }, "card.compact.glob.file", "card.compact.glob.files")
            started.name == "Grep" -> when (s?.get("mode")?.asString) {
                "content" -> count(s.get("numLines")?.asInt ?: 0, "card.compact.grep.line", "card.compact.grep.lines")
                "count" -> count(s.get("numMatches")?.asInt ?: 0, "card.compact.grep.line", "card.compact.grep.lines")
                "files_with_matches" -> count(s.get("numFiles")?.asInt ?: 0, "card.compact.glob.file", "card.compact.glob.files")
                else -> count(text.lines().count { it.isNotBlank() }, "card.compact.grep.line", "card.compact.grep.lines")
            }
            else -> Format.firstLine(text, 80)
        }
        summaryLabel.text = "${subject()}  ·  $detailText"
        summaryLabel.tone = if (r.isError) Tone.ERROR else Tone.SECONDARY
        summaryLabel.toolTipText = if (r.isError) Format.firstLines(text, 10) else subject()
        statusIcon.state = if (r.isError) CallState.FAILED else CallState.PASSED
        bodyChanged(expand = false)
    }

    /** Expanded, this card shows its text: from a summary, that is the preview. */
    override val showsPreview: Boolean get() = false

    private fun count(n: Int, one: String, many: String) = if (n == 1) WaveBundle.message(one) else WaveBundle.message(many, n)

    override fun setExpanded(value: Boolean) {
        detail?.let { body.remove(it); it.dispose() }
        showAllRow?.let { body.remove(it) }
        detail = null
        showAll = null
        showAllRow = null
        if (value) {
            val full = finished?.shown?.text ?: ""
            val bounded = BoundedText.of(full.trimEnd('\n'), MAX_EXPANDED_LINES - 1, 0)
            val pane = OutputPane(bounded.text, listOfNotNull(bounded.marker))
            pane.addMouseListener(object : MouseAdapter() {
                override fun mouseClicked(e: MouseEvent) {
                    val offset = pane.viewToModel2D(e.point)
                    val doc = pane.plainText
                    val start = doc.lastIndexOf('\n', offset - 1) + 1
                    val end = doc.indexOf('\n', offset).let { if (it < 0) doc.length else it }
                    linkFor(doc.substring(start, end))?.let { (p, l) -> actions.openFile(p, l) }
                }
            })
            val area = outputArea(pane)
            detail = area
            body.addRow(area)
            if (bounded.isPartial) {
                val link = if (started.name == "Read") {
                    val file = linkFor(full.lineSequence().firstOrNull { it.isNotBlank() } ?: "")?.first
                    LinkLabel(WaveBundle.message("card.showAll.link")) { file?.let { actions.openFile(it, null) } }.apply { toolTipText = file }
                } else {
                    showAllLink("${started.name} ${subject()}", full, null)
                }
                showAll = link
                showAllRow = wrapRow(link).apply { styled { t -> border = BorderFactory.createEmptyBorder(t.px(4), 0, 0, 0) } }.also { body.addRow(it) }
            }
        }
        super.setExpanded(value)
    }

    /** A clicked line of the expanded text that names a file: Read's numbered lines, Grep's `path:line:`, Glob's paths. */
    fun linkFor(line: String): Pair<String, Int?>? {
        val args = started.arguments
        if (started.name == "Read") {
            val n = Regex("""^\s*(\d+)\t""").find(line)?.groupValues?.get(1)?.toIntOrNull() ?: return null
            // The core reports the absolute path it read; the argument may be relative to the session's cwd.
            val read = finished?.shown?.structuredContent?.get("filePath")?.takeIf { it.isJsonPrimitive }?.asString
                ?: Format.absolute(args?.get("file_path")?.asString ?: return null, context.root)
            return read to n
        }
        val ref = PathLinks.find(line) ?: return null
        val base = args?.get("path")?.takeIf { it.isJsonPrimitive }?.asString ?: context.root
        val p = if (ref.path.startsWith("/") || Regex("^[A-Za-z]:").containsMatchIn(ref.path) || base == null) ref.path else "$base/${ref.path}"
        return p to ref.line
    }

    companion object {
        const val MAX_EXPANDED_LINES = 20
    }
}
