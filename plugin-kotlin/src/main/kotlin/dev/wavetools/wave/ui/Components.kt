package dev.wavetools.wave.ui

import java.awt.BorderLayout
import java.awt.Color
import java.awt.Cursor
import java.awt.Dimension
import java.awt.Font
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.RenderingHints
import java.awt.event.MouseAdapter
import java.awt.event.MouseEvent
import javax.swing.BorderFactory
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JTextPane
import javax.swing.JViewport
import javax.swing.text.DefaultStyledDocument

/** A label that looks and acts like a hyperlink. */
class LinkLabel(text: String, private val onClick: () -> Unit) : JLabel(text) {
    init {
        foreground = WaveTheme.link
        cursor = Cursor.getPredefinedCursor(Cursor.HAND_CURSOR)
        addMouseListener(object : MouseAdapter() {
            override fun mouseClicked(e: MouseEvent) = onClick()
        })
    }

    /** For tests and keyboard activation. */
    fun click() = onClick()
}

/** A small round status marker. */
class StatusDot(var color: Color) : JComponent() {
    init {
        preferredSize = Dimension(10, 10)
        minimumSize = preferredSize
    }

    override fun paintComponent(g: Graphics) {
        val g2 = g as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        g2.color = color
        val d = minOf(width, height) - 2
        g2.fillOval((width - d) / 2, (height - d) / 2, d, d)
    }
}

/** Read-only text with ANSI colours rendered, in the editor font. */
class OutputPane(text: String) : JTextPane(DefaultStyledDocument()) {
    init {
        isEditable = false
        font = WaveTheme.monospace
        background = WaveTheme.cardBackground
        border = BorderFactory.createEmptyBorder(4, 6, 4, 6)
        AnsiRenderer.render(text, styledDocument, defaultBg = background)
        caretPosition = 0
    }

    /** The visible text (without escape sequences). */
    val plainText: String get() = document.getText(0, document.length)

    /** Shows [range] of the text as a note rather than output (secondary colour, italic). */
    fun markAsNote(range: IntRange) {
        val attrs = javax.swing.text.SimpleAttributeSet()
        javax.swing.text.StyleConstants.setForeground(attrs, WaveTheme.secondary)
        javax.swing.text.StyleConstants.setItalic(attrs, true)
        styledDocument.setCharacterAttributes(range.first, range.last - range.first + 1, attrs, false)
    }

    /** Lines are never wrapped, as in a terminal: wider text scrolls sideways. */
    override fun getScrollableTracksViewportWidth(): Boolean = parent !is JViewport || ui.getPreferredSize(this).width <= parent.width
}

/**
 * Output in a frame at most [maxLines] lines tall (plus a horizontal scrollbar when a line is
 * wider than the card). Output taller than that starts scrolled to its end when [showEnd] — the
 * end is where a command's summary and errors are — and the rest is a scroll away.
 */
class OutputScroll(val pane: OutputPane, private val maxLines: Int, private val showEnd: Boolean) :
    JScrollPane(pane, VERTICAL_SCROLLBAR_AS_NEEDED, HORIZONTAL_SCROLLBAR_AS_NEEDED) {
    /** Where this frame last scrolled the view to, while the person has not scrolled it elsewhere. */
    private var placedAt: Int? = null
    private var sizedForWidth = -1

    init {
        border = BorderFactory.createLineBorder(WaveTheme.border)
        alignmentX = LEFT_ALIGNMENT
    }

    private val capHeight: Int get() = maxLines * pane.getFontMetrics(pane.font).height + pane.insets.top + pane.insets.bottom

    override fun getPreferredSize(): Dimension {
        val view = pane.preferredSize
        val frame = insets
        val tall = view.height > capHeight
        // Whether a horizontal bar shows depends on the width the card gives; until laid out, assume none.
        val room = width - frame.left - frame.right - (if (tall) verticalScrollBar.preferredSize.width else 0)
        val wide = width > 0 && view.width > room
        val height = minOf(view.height, capHeight) + frame.top + frame.bottom + (if (wide) horizontalScrollBar.preferredSize.height else 0)
        return Dimension(200, height)
    }

    override fun getMaximumSize(): Dimension = Dimension(Int.MAX_VALUE, preferredSize.height)

    override fun doLayout() {
        super.doLayout()
        // The height depends on the width (a horizontal bar or not): once the width is known, let
        // the card ask again — after this layout pass, so the invalidation reaches the feed. A
        // JScrollPane is its own validate root, so it is the parent that is revalidated.
        if (width > 0 && width != sizedForWidth) {
            sizedForWidth = width
            if (preferredSize.height != height) javax.swing.SwingUtilities.invokeLater { (parent as? JComponent)?.revalidate() }
        }
        val extent = viewport.extentSize.height
        val full = pane.preferredSize.height
        val position = viewport.viewPosition
        if (showEnd && extent > 0 && (placedAt == null || placedAt == position.y)) {
            val y = maxOf(0, full - extent)
            if (y != position.y) viewport.viewPosition = java.awt.Point(position.x, y)
            placedAt = y
        }
    }
}

fun smallButton(text: String, tooltip: String? = null, action: () -> Unit): JButton = JButton(text).apply {
    isFocusable = true
    toolTipText = tooltip
    font = WaveTheme.font.deriveFont(WaveTheme.font.size2D - 1f)
    margin = java.awt.Insets(1, 8, 1, 8)
    addActionListener { action() }
}

fun secondaryLabel(text: String): JLabel = JLabel(text).apply {
    foreground = WaveTheme.secondary
    font = WaveTheme.font.deriveFont(WaveTheme.font.size2D - 1f)
}

fun monoLabel(text: String, bold: Boolean = false): JLabel = JLabel(text).apply {
    font = WaveTheme.monospace.deriveFont(if (bold) Font.BOLD else Font.PLAIN)
    foreground = WaveTheme.foreground
}

/** A panel with a rounded border in the theme's colours; the frame of every card. */
open class CardPanel : JPanel(BorderLayout()) {
    /** Full width, own height: in the feed's vertical box a card never stretches. */
    override fun getMaximumSize(): Dimension = Dimension(Int.MAX_VALUE, preferredSize.height)

    init {
        isOpaque = false
        border = BorderFactory.createEmptyBorder(6, 8, 6, 8)
    }

    override fun paintComponent(g: Graphics) {
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        g2.color = WaveTheme.cardBackground
        g2.fillRoundRect(0, 0, width - 1, height - 1, 10, 10)
        g2.color = WaveTheme.border
        g2.drawRoundRect(0, 0, width - 1, height - 1, 10, 10)
        g2.dispose()
        super.paintComponent(g)
    }
}
