package dev.wavetools.wave.ui

import java.awt.Dimension
import java.awt.Point
import java.awt.event.MouseWheelEvent
import javax.swing.BorderFactory
import javax.swing.JComponent
import javax.swing.JScrollPane
import javax.swing.JTextPane
import javax.swing.JViewport
import javax.swing.SwingUtilities
import javax.swing.text.DefaultStyledDocument
import javax.swing.text.SimpleAttributeSet
import javax.swing.text.StyleConstants

/**
 * Whether output areas wrap long lines: one setting for the tool window (its toolbar's Soft-Wrap),
 * on by default so the feed never scrolls sideways inside a card.
 */
class SoftWrapSetting(initial: Boolean = true) {
    private val listeners = mutableListOf<(Boolean) -> Unit>()

    var enabled: Boolean = initial
        set(value) {
            if (field == value) return
            field = value
            listeners.toList().forEach { it(value) }
        }

    fun onChange(listener: (Boolean) -> Unit): AutoCloseable {
        listeners += listener
        return AutoCloseable { listeners -= listener }
    }
}

/**
 * Read-only command output with its ANSI colours, in the colour scheme's console font and colours.
 * [notes] are texts in it shown as remarks rather than output (secondary, italic). Lines wrap when
 * [softWrap] is on; otherwise a wide line scrolls sideways, as in a terminal.
 */
class OutputPane(text: String, private val notes: List<String> = emptyList()) : JTextPane(DefaultStyledDocument()), Themed {
    /** The text before ANSI rendering, kept so a theme change can render it again in the new colours. */
    var source: String = text
        private set

    var softWrap: Boolean = false
        set(value) {
            field = value
            revalidate()
        }

    init {
        editorKit = WrapAnywhereKit()
        isEditable = false
        // Setting the text must not scroll the area (it starts at the end); the person's own clicks still move the caret.
        (caret as? javax.swing.text.DefaultCaret)?.updatePolicy = javax.swing.text.DefaultCaret.NEVER_UPDATE
        // No vertical insets: in a frame of whole lines the first visible line is never cut.
        border = BorderFactory.createEmptyBorder()
        render(WaveTheme.current)
    }

    /** The visible text (without escape sequences). */
    val plainText: String get() = document.getText(0, document.length)

    /** New text for the same pane (a log that grew): its area keeps where the person scrolled to. */
    fun update(text: String) {
        if (text == source) return
        source = text
        render(WaveTheme.current)
        revalidate()
    }

    override fun themeChanged(theme: Theme) = render(theme)

    private fun render(t: Theme) {
        font = t.monoFont
        background = t.outputBackground
        foreground = t.outputForeground
        caretColor = t.outputForeground
        AnsiRenderer.render(source, styledDocument, t)
        // Found in the rendered text: escape sequences before a note would shift offsets taken from the source.
        val shown = plainText
        for (note in notes) {
            val at = shown.indexOf(note).takeIf { it >= 0 } ?: continue
            val attrs = SimpleAttributeSet()
            StyleConstants.setForeground(attrs, t.secondary)
            StyleConstants.setItalic(attrs, true)
            styledDocument.setCharacterAttributes(at, note.length, attrs, false)
        }
        caretPosition = 0
    }

    /** The height of one line of output. */
    val lineHeight: Int get() = getFontMetrics(font).height

    override fun getScrollableTracksViewportWidth(): Boolean =
        softWrap || parent !is JViewport || ui.getPreferredSize(this).width <= parent.width
}

/**
 * A log that follows a file, outside the feed (a background task's log below the task list): [pane]
 * at most [maxLines] lines tall with its own scrollbar, starting scrolled to its end when [showEnd].
 * The viewport is a whole number of lines tall, so the first visible line is never cut in half. The
 * mouse wheel goes on to what is around it once the log is at its end.
 */
class ScrollingOutput(val pane: OutputPane, private val maxLines: Int, private val showEnd: Boolean, softWrap: SoftWrapSetting? = null) :
    JScrollPane(pane, VERTICAL_SCROLLBAR_AS_NEEDED, HORIZONTAL_SCROLLBAR_AS_NEEDED), Themed {
    /** The person scrolled this area themselves (wheel, scrollbar, keys): from then on it stays where they left it. */
    private var scrolledByPerson = false
    private var sizedForWidth = -1
    private val wrapSubscription: AutoCloseable?

    init {
        alignmentX = LEFT_ALIGNMENT
        isWheelScrollingEnabled = true
        wrapSubscription = softWrap?.let { s ->
            pane.softWrap = s.enabled
            s.onChange { pane.softWrap = it; horizontalScrollBarPolicy = policy(it); relayout() }
        }
        horizontalScrollBarPolicy = policy(pane.softWrap)
        verticalScrollBar.addMouseListener(object : java.awt.event.MouseAdapter() {
            override fun mousePressed(e: java.awt.event.MouseEvent) { scrolledByPerson = true }
        })
        pane.addKeyListener(object : java.awt.event.KeyAdapter() {
            override fun keyPressed(e: java.awt.event.KeyEvent) { scrolledByPerson = true }
        })
        themeChanged(WaveTheme.current)
    }

    private fun policy(wrap: Boolean) = if (wrap) HORIZONTAL_SCROLLBAR_NEVER else HORIZONTAL_SCROLLBAR_AS_NEEDED

    override fun themeChanged(theme: Theme) {
        val pad = theme.px(6)
        border = BorderFactory.createMatteBorder(theme.px(4), pad, theme.px(4), pad, theme.outputBackground)
        viewport.background = theme.outputBackground
        background = theme.outputBackground
        verticalScrollBar.unitIncrement = pane.lineHeight
        relayout()
    }

    private fun relayout() {
        sizedForWidth = -1
        revalidate()
        (parent as? JComponent)?.revalidate()
    }

    private val capHeight: Int get() = maxLines * pane.lineHeight

    override fun getPreferredSize(): Dimension {
        val frame = insets
        val room = width - frame.left - frame.right
        // The height depends on the width (wrapped lines, a sideways bar): before the first layout, assume one line each.
        if (pane.softWrap && room > 0) pane.setSize(room, Short.MAX_VALUE.toInt())
        val view = pane.preferredSize
        val tall = view.height > capHeight
        val usable = room - (if (tall) verticalScrollBar.preferredSize.width else 0)
        val wide = !pane.softWrap && width > 0 && view.width > usable
        val height = minOf(view.height, capHeight) + frame.top + frame.bottom + (if (wide) horizontalScrollBar.preferredSize.height else 0)
        return Dimension(WaveTheme.current.px(120), height)
    }

    override fun getMaximumSize(): Dimension = Dimension(Int.MAX_VALUE, preferredSize.height)
    override fun getMinimumSize(): Dimension = Dimension(0, preferredSize.height)

    override fun doLayout() {
        super.doLayout()
        // Given a height that is not whole lines (the log tail fills what is left of its panel), the
        // extra pixels go above the text, so the first visible line is never cut in half.
        val vb = viewport.bounds
        val extra = if (pane.lineHeight > 0) vb.height % pane.lineHeight else 0
        if (extra > 0 && vb.height > pane.lineHeight) viewport.setBounds(vb.x, vb.y + extra, vb.width, vb.height - extra)
        // Once the width is known the height may change (a sideways bar, wrapped lines): let the card
        // ask again after this pass. A JScrollPane is its own validate root, so the parent revalidates.
        if (width > 0 && width != sizedForWidth) {
            sizedForWidth = width
            if (preferredSize.height != height) SwingUtilities.invokeLater { (parent as? JComponent)?.revalidate() }
        }
        val extent = viewport.extentSize.height
        val full = pane.preferredSize.height
        val position = viewport.viewPosition
        if (showEnd && extent > 0 && !scrolledByPerson) {
            val y = maxOf(0, full - extent)
            if (y != position.y) viewport.viewPosition = Point(position.x, y)
        }
    }

    override fun processMouseWheelEvent(e: MouseWheelEvent) {
        scrolledByPerson = true
        val bar = verticalScrollBar
        val atEnd = if (e.wheelRotation > 0) bar.value + bar.visibleAmount >= bar.maximum else bar.value <= bar.minimum
        if (!bar.isVisible || atEnd) {
            // Nothing more to scroll here: hand the wheel to the feed.
            val outer = SwingUtilities.getAncestorOfClass(JScrollPane::class.java, parent)
            if (outer != null) {
                outer.dispatchEvent(SwingUtilities.convertMouseEvent(this, e, outer))
                return
            }
        }
        super.processMouseWheelEvent(e)
    }

    fun dispose() {
        wrapSubscription?.close()
    }
}

/**
 * What a card shows of a long text: its first [head] and last [tail] lines with a note of how many
 * are left out between them ("Show All" opens the whole), each line cut at [maxLineChars] so a
 * single huge line cannot make the card huge either.
 */
data class BoundedText(val text: String, val hiddenLines: Int, val cutLines: Int, val marker: String?) {
    val isPartial: Boolean get() = hiddenLines > 0 || cutLines > 0

    companion object {
        const val MAX_LINE_CHARS = 400

        /**
         * [omission]: a line in [full] that already stands for text left out (the core's cut of a
         * long output, as "⋯ 40.4 KB omitted ⋯"); when it falls among the hidden lines, the note
         * says both.
         */
        fun of(full: String, head: Int, tail: Int, maxLineChars: Int = MAX_LINE_CHARS, omission: Pair<String, String>? = null): BoundedText {
            val lines = full.split('\n')
            var cut = 0
            fun shown(line: String): String = if (line.length <= maxLineChars) line else { cut++; line.take(maxLineChars - 1) + "…" }
            if (lines.size <= head + tail + 1) return BoundedText(lines.joinToString("\n") { shown(it) }, 0, cut, null)
            val hidden = lines.size - head - tail
            val omittedHidden = omission != null && lines.subList(head, lines.size - tail).any { it.trim() == omission.first }
            val marker = if (omittedHidden) WaveBundle.message("output.hiddenLinesAndBytes.marker", String.format("%,d", hidden - 1), omission!!.second)
            else WaveBundle.message("output.hiddenLines.marker", String.format("%,d", hidden))
            val text = (lines.take(head).map { shown(it) } + marker + lines.takeLast(tail).map { shown(it) }).joinToString("\n")
            return BoundedText(text, hidden, cut, marker)
        }
    }
}

/**
 * Output in a card: [pane] at its whole height — the text is already bounded ([BoundedText]) — so
 * the feed is the only thing that scrolls up and down and the wheel is never trapped. Long lines
 * wrap while the tool window's soft-wrap is on; off, they scroll sideways in this area alone.
 */
class OutputArea(val pane: OutputPane, softWrap: SoftWrapSetting? = null) :
    JScrollPane(pane, VERTICAL_SCROLLBAR_NEVER, HORIZONTAL_SCROLLBAR_NEVER), Themed {
    private var sizedForWidth = -1
    private val wrapSubscription: AutoCloseable?

    init {
        alignmentX = LEFT_ALIGNMENT
        wrapSubscription = softWrap?.let { s ->
            pane.softWrap = s.enabled
            s.onChange { pane.softWrap = it; horizontalScrollBarPolicy = policy(it); relayout() }
        }
        horizontalScrollBarPolicy = policy(pane.softWrap)
        themeChanged(WaveTheme.current)
    }

    private fun policy(wrap: Boolean) = if (wrap) HORIZONTAL_SCROLLBAR_NEVER else HORIZONTAL_SCROLLBAR_AS_NEEDED

    override fun themeChanged(theme: Theme) {
        val pad = theme.px(6)
        border = BorderFactory.createMatteBorder(theme.px(4), pad, theme.px(4), pad, theme.outputBackground)
        viewport.background = theme.outputBackground
        background = theme.outputBackground
        relayout()
    }

    private fun relayout() {
        sizedForWidth = -1
        revalidate()
        (parent as? JComponent)?.revalidate()
    }

    override fun getPreferredSize(): Dimension {
        val frame = insets
        val room = width - frame.left - frame.right
        // The height depends on the width (wrapped lines, a sideways bar): before the first layout, assume one line each.
        if (pane.softWrap && room > 0) pane.setSize(room, Short.MAX_VALUE.toInt())
        val view = pane.preferredSize
        val wide = !pane.softWrap && width > 0 && view.width > room
        return Dimension(WaveTheme.current.px(120), view.height + frame.top + frame.bottom + (if (wide) horizontalScrollBar.preferredSize.height else 0))
    }

    override fun getMaximumSize(): Dimension = Dimension(Int.MAX_VALUE, preferredSize.height)
    override fun getMinimumSize(): Dimension = Dimension(0, preferredSize.height)

    override fun doLayout() {
        super.doLayout()
        // A JScrollPane is its own validate root: once the width is known the height may change
        // (wrapped lines, a sideways bar), so the card asks again after this pass.
        if (width > 0 && width != sizedForWidth) {
            sizedForWidth = width
            if (preferredSize.height != height) SwingUtilities.invokeLater { (parent as? JComponent)?.revalidate() }
        }
    }

    /** Up and down belong to the feed; only a sideways scroll (Shift+wheel) moves this area. */
    override fun processMouseWheelEvent(e: MouseWheelEvent) {
        val sideways = e.isShiftDown && horizontalScrollBar.isVisible
        val outer = SwingUtilities.getAncestorOfClass(JScrollPane::class.java, parent)
        if (!sideways && outer != null) {
            outer.dispatchEvent(SwingUtilities.convertMouseEvent(this, e, outer))
            return
        }
        super.processMouseWheelEvent(e)
    }

    fun dispose() {
        wrapSubscription?.close()
    }
}
