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
            // Lines the core left out of a hunk show as a separator where they were.
            h.lines.forEachIndexed { j, line ->
                add(Row(line, false))
                if (line.omittedAfter > 0 && j < h.lines.size - 1) add(Row(null, true))
            }
        }
    }

    /** Character ranges highlighted per row, with their colour: what FS-EDIT-3 shows a person. */
    data class Span(val row: Int, val range: IntRange, val color: Color)

    fun highlightSpans(): List<Span> = rows.flatMapIndexed { i, r ->
        val l = r.line ?: return@flatMapIndexed emptyList()
        l.highlights.map { Span(i, it, wordColor(l.kind)) }
    }

    /** The colour scheme's diff colour behind a whole line. */
    fun lineBackground(kind: DiffLine.Kind, t: Theme = WaveTheme.current): Color? = when (kind) {
        DiffLine.Kind.ADDED -> t.diffAddedLine
        DiffLine.Kind.REMOVED -> t.diffRemovedLine
        DiffLine.Kind.CONTEXT -> null
    }

    private fun wordColor(kind: DiffLine.Kind, t: Theme = WaveTheme.current) = if (kind == DiffLine.Kind.ADDED) t.diffAddedWord else t.diffRemovedWord

    init {
        isOpaque = true
        styled { t -> font = t.monoFont }
    }

    val lineHeight: Int get() = getFontMetrics(font).height

    private val gutterDigits = maxOf(2, rows.maxOfOrNull { maxOf(it.line?.oldNumber ?: 0, it.line?.newNumber ?: 0) }?.toString()?.length ?: 2)

    override fun getPreferredSize(): Dimension {
        val fm = getFontMetrics(font)
        val widest = rows.maxOfOrNull { fm.stringWidth((it.line?.text ?: "") + if (it.line?.cut == true) " ⋯" else "") } ?: 0
        return Dimension(gutterWidth() + widest + WaveTheme.current.px(12), rows.size * fm.height)
    }

    private fun gutterWidth(): Int = getFontMetrics(font).charWidth('0') * (gutterDigits * 2 + 3) + WaveTheme.current.px(8)

    override fun paintComponent(g: Graphics) {
        val t = WaveTheme.current
        val g2 = g as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON)
        g2.font = font
        val fm = g2.fontMetrics
        val h = fm.height
        g2.color = t.outputBackground
        g2.fillRect(0, 0, width, height)
        val gutter = gutterWidth()
        val cw = fm.charWidth('0')
        rows.forEachIndexed { i, row ->
            val y = i * h
            val line = row.line
            if (row.separator || line == null) {
                g2.color = t.secondary
                g2.drawString("⋯", gutter, y + fm.ascent)
                return@forEachIndexed
            }
            lineBackground(line.kind, t)?.let { g2.color = it; g2.fillRect(0, y, width, h) }
            g2.color = t.secondary
            val old = line.oldNumber?.toString()?.padStart(gutterDigits) ?: " ".repeat(gutterDigits)
            val new = line.newNumber?.toString()?.padStart(gutterDigits) ?: " ".repeat(gutterDigits)
            g2.drawString("$old $new", 4, y + fm.ascent)
            val sign = when (line.kind) { DiffLine.Kind.ADDED -> "+"; DiffLine.Kind.REMOVED -> "−"; else -> " " }
            g2.drawString(sign, gutter - cw - 2, y + fm.ascent)
            for (r in line.highlights) {
                val x0 = gutter + fm.stringWidth(line.text.substring(0, r.first))
                val x1 = gutter + fm.stringWidth(line.text.substring(0, r.last + 1))
                g2.color = wordColor(line.kind, t)
                g2.fillRoundRect(x0, y + 1, x1 - x0, h - 2, 4, 4)
            }
            g2.color = t.outputForeground
            g2.drawString(line.text, gutter, y + fm.ascent)
            if (line.cut) {
                g2.color = t.secondary
                g2.drawString(" ⋯", gutter + fm.stringWidth(line.text), y + fm.ascent)
            }
        }
    }
}
