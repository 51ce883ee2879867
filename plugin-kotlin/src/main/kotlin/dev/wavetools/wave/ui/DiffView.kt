package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.DiffLine
import dev.wavetools.wave.bridge.DiffModel
import java.awt.Color
import java.awt.Dimension
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.RenderingHints
import javax.swing.JComponent

/**
 * Paints an edit's diff: a gutter with old and new line numbers, full-width backgrounds for removed
 * and added lines, and darker boxes behind the words the core marked as changed.
 */
class DiffView(val model: DiffModel) : JComponent() {
    /** What gets painted, line by line; the tests read it. */
    data class Row(val line: DiffLine?, val separator: Boolean)

    val rows: List<Row> = buildList {
        model.hunks.forEachIndexed { i, h ->
            if (i > 0) add(Row(null, true))
            h.lines.forEach { add(Row(it, false)) }
        }
    }

    /** Character ranges highlighted per row, with their colour: what FS-EDIT-3 shows a person. */
    data class Span(val row: Int, val range: IntRange, val color: Color)

    fun highlightSpans(): List<Span> = rows.flatMapIndexed { i, r ->
        val l = r.line ?: return@flatMapIndexed emptyList()
        l.highlights.map { Span(i, it, wordColor(l.kind)) }
    }

    fun lineBackground(kind: DiffLine.Kind): Color? = when (kind) {
        DiffLine.Kind.ADDED -> WaveTheme.addedBackground
        DiffLine.Kind.REMOVED -> WaveTheme.removedBackground
        DiffLine.Kind.CONTEXT -> null
    }

    private fun wordColor(kind: DiffLine.Kind) = if (kind == DiffLine.Kind.ADDED) WaveTheme.addedWord else WaveTheme.removedWord

    init {
        font = WaveTheme.monospace
        isOpaque = true
    }

    private val gutterDigits = maxOf(2, rows.maxOfOrNull { maxOf(it.line?.oldNumber ?: 0, it.line?.newNumber ?: 0) }?.toString()?.length ?: 2)

    override fun getPreferredSize(): Dimension {
        val fm = getFontMetrics(font)
        val widest = rows.maxOfOrNull { fm.stringWidth(it.line?.text ?: "") } ?: 0
        return Dimension(gutterWidth() + widest + 24, rows.size * fm.height + 4)
    }

    private fun gutterWidth(): Int = getFontMetrics(font).charWidth('0') * (gutterDigits * 2 + 3) + 8

    override fun paintComponent(g: Graphics) {
        val g2 = g as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON)
        g2.font = font
        val fm = g2.fontMetrics
        val h = fm.height
        g2.color = WaveTheme.cardBackground
        g2.fillRect(0, 0, width, height)
        val gutter = gutterWidth()
        val cw = fm.charWidth('0')
        rows.forEachIndexed { i, row ->
            val y = 2 + i * h
            val line = row.line
            if (row.separator || line == null) {
                g2.color = WaveTheme.secondary
                g2.drawString("⋯", gutter, y + fm.ascent)
                return@forEachIndexed
            }
            lineBackground(line.kind)?.let { g2.color = it; g2.fillRect(0, y, width, h) }
            g2.color = WaveTheme.secondary
            val old = line.oldNumber?.toString()?.padStart(gutterDigits) ?: " ".repeat(gutterDigits)
            val new = line.newNumber?.toString()?.padStart(gutterDigits) ?: " ".repeat(gutterDigits)
            g2.drawString("$old $new", 4, y + fm.ascent)
            val sign = when (line.kind) { DiffLine.Kind.ADDED -> "+"; DiffLine.Kind.REMOVED -> "−"; else -> " " }
            g2.drawString(sign, gutter - cw - 2, y + fm.ascent)
            for (r in line.highlights) {
                val x0 = gutter + fm.stringWidth(line.text.substring(0, r.first))
                val x1 = gutter + fm.stringWidth(line.text.substring(0, r.last + 1))
                g2.color = wordColor(line.kind)
                g2.fillRoundRect(x0, y + 1, x1 - x0, h - 2, 4, 4)
            }
            g2.color = WaveTheme.foreground
            g2.drawString(line.text, gutter, y + fm.ascent)
        }
    }
}
