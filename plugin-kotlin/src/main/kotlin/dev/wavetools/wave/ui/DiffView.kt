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
 * and added lines, and darker boxes behind the words the core marked as changed. At most [maxRows]
 * rows (the last says how many more Show Diff has); with [softWrap] a long line continues on the
 * rows under it, its numbers on its first.
 */
class DiffView(val model: DiffModel, val maxRows: Int = Int.MAX_VALUE) : JComponent() {
    /** What gets painted, line by line; the tests read it. [more]: the lines left out after the last row. */
    data class Row(val line: DiffLine?, val separator: Boolean, val more: Int = 0)

    private val allRows: List<Row> = buildList {
        model.hunks.forEachIndexed { i, h ->
            if (i > 0) add(Row(null, true))
            // Lines the core left out of a hunk show as a separator where they were.
            h.lines.forEachIndexed { j, line ->
                add(Row(line, false))
                if (line.omittedAfter > 0 && j < h.lines.size - 1) add(Row(null, true))
            }
        }
    }

    val rows: List<Row> = if (allRows.size <= maxRows) allRows else allRows.take(maxRows - 1) + Row(null, true, allRows.size - maxRows + 1)

    var softWrap: Boolean = false
        set(value) {
            field = value
            revalidate()
            repaint()
        }

    /** The width lines wrap at while [softWrap] is on (the area sets it from its own). */
    var wrapWidth: Int = 0
        set(value) {
            if (field == value) return
            field = value
            revalidate()
        }

    /** How many characters of a line fit beside the gutter; a line longer than that wraps. */
    private fun charsPerRow(): Int {
        if (!softWrap || wrapWidth <= 0) return Int.MAX_VALUE
        val fm = getFontMetrics(font)
        return ((wrapWidth - gutterWidth() - WaveTheme.current.px(12)) / fm.charWidth('0')).coerceAtLeast(8)
    }

    /** The painted rows of [row]'s line: one, or more when it wraps. */
    private fun pieces(row: Row): List<IntRange> {
        val text = row.line?.text ?: return listOf(0 until 0)
        val per = charsPerRow()
        if (text.length <= per) return listOf(text.indices)
        return (text.indices step per).map { it until minOf(text.length, it + per) }
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
        if (softWrap && wrapWidth > 0) return Dimension(wrapWidth, rows.sumOf { pieces(it).size } * fm.height)
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
        var y = 0
        for (row in rows) {
            val line = row.line
            if (row.separator || line == null) {
                g2.color = t.secondary
                g2.drawString(if (row.more > 0) WaveBundle.message("diff.moreLines", row.more) else "⋯", gutter, y + fm.ascent)
                y += h
                continue
            }
            val parts = pieces(row)
            lineBackground(line.kind, t)?.let { g2.color = it; g2.fillRect(0, y, width, h * parts.size) }
            g2.color = t.secondary
            val old = line.oldNumber?.toString()?.padStart(gutterDigits) ?: " ".repeat(gutterDigits)
            val new = line.newNumber?.toString()?.padStart(gutterDigits) ?: " ".repeat(gutterDigits)
            g2.drawString("$old $new", 4, y + fm.ascent)
            val sign = when (line.kind) { DiffLine.Kind.ADDED -> "+"; DiffLine.Kind.REMOVED -> "−"; else -> " " }
            g2.drawString(sign, gutter - cw - 2, y + fm.ascent)
            for ((k, part) in parts.withIndex()) {
                val rowY = y + k * h
                val text = if (part.isEmpty()) "" else line.text.substring(part.first, part.last + 1)
                for (r in line.highlights) {
                    // The part of the changed word on this row.
                    val from = maxOf(r.first, part.first)
                    val to = minOf(r.last, part.last)
                    if (from > to) continue
                    val x0 = gutter + fm.stringWidth(line.text.substring(part.first, from))
                    val x1 = gutter + fm.stringWidth(line.text.substring(part.first, to + 1))
                    g2.color = wordColor(line.kind, t)
                    g2.fillRoundRect(x0, rowY + 1, x1 - x0, h - 2, 4, 4)
                }
                g2.color = t.outputForeground
                g2.drawString(text, gutter, rowY + fm.ascent)
                if (line.cut && k == parts.size - 1) {
                    g2.color = t.secondary
                    g2.drawString(" ⋯", gutter + fm.stringWidth(text), rowY + fm.ascent)
                }
            }
            y += h * parts.size
        }
    }
}
