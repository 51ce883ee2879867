package dev.wavetools.wave.ui

import java.awt.Color
import javax.swing.text.SimpleAttributeSet
import javax.swing.text.StyleConstants
import javax.swing.text.StyledDocument

/** A terminal colour: one of the 256 indexed colours, or a 24-bit one. */
sealed class AnsiColor {
    data class Indexed(val index: Int) : AnsiColor()
    data class Rgb(val r: Int, val g: Int, val b: Int) : AnsiColor()
}

data class AnsiStyle(
    val foreground: AnsiColor? = null,
    val background: AnsiColor? = null,
    val bold: Boolean = false,
    val dim: Boolean = false,
    val italic: Boolean = false,
    val underline: Boolean = false,
    val inverse: Boolean = false,
    val strike: Boolean = false,
) {
    companion object {
        val PLAIN = AnsiStyle()
    }
}

data class StyledRun(val text: String, val style: AnsiStyle)

/**
 * Turns command output with ANSI escape sequences into styled runs: SGR colours (16, 256 and
 * 24-bit), bold, dim, italic, underline, inverse, strike and their resets. Other control sequences
 * (cursor movement, erase, OSC titles and hyperlinks) are dropped; a carriage return starts the
 * line over, the way a terminal shows a progress bar's last state.
 */
object AnsiParser {
    private const val ESC = '\u001b'

    fun parse(input: String): List<StyledRun> {
        val runs = mutableListOf<StyledRun>()
        var style = AnsiStyle.PLAIN
        val text = StringBuilder()
        fun flush() {
            if (text.isNotEmpty()) {
                if (runs.isNotEmpty() && runs.last().style == style) runs[runs.size - 1] = StyledRun(runs.last().text + text, style)
                else runs += StyledRun(text.toString(), style)
                text.setLength(0)
            }
        }
        val s = applyCarriageReturns(input)
        var i = 0
        while (i < s.length) {
            val c = s[i]
            if (c != ESC) {
                if (c == '\t' || c == '\n' || c >= ' ') text.append(c)
                i++
                continue
            }
            if (i + 1 >= s.length) break
            when (s[i + 1]) {
                '[' -> {
                    var j = i + 2
                    while (j < s.length && s[j] !in '\u0040'..'\u007e') j++
                    if (j >= s.length) { i = s.length; continue }
                    if (s[j] == 'm') {
                        flush()
                        style = applySgr(style, s.substring(i + 2, j))
                    }
                    i = j + 1
                }
                ']' -> {
                    // OSC: ends with BEL or ESC \
                    var j = i + 2
                    while (j < s.length && s[j] != '\u0007' && !(s[j] == ESC && j + 1 < s.length && s[j + 1] == '\\')) j++
                    i = if (j < s.length && s[j] == '\u0007') j + 1 else j + 2
                }
                else -> i += 2
            }
        }
        flush()
        return runs
    }

    /** Text after the last `\r` of each line wins (progress bars, spinners). `\r\n` is a plain newline. */
    fun applyCarriageReturns(s: String): String {
        if ('\r' !in s) return s
        return s.split('\n').joinToString("\n") { line ->
            val l = line.removeSuffix("\r")
            val cut = l.lastIndexOf('\r')
            if (cut < 0) l else l.substring(cut + 1)
        }
    }

    fun applySgr(start: AnsiStyle, params: String): AnsiStyle {
        val codes = if (params.isEmpty()) listOf(0) else params.split(';', ':').map { it.toIntOrNull() ?: 0 }
        var st = start
        var k = 0
        while (k < codes.size) {
            val code = codes[k]
            when (code) {
                0 -> st = AnsiStyle.PLAIN
                1 -> st = st.copy(bold = true)
                2 -> st = st.copy(dim = true)
                3 -> st = st.copy(italic = true)
                4 -> st = st.copy(underline = true)
                7 -> st = st.copy(inverse = true)
                9 -> st = st.copy(strike = true)
                21, 22 -> st = st.copy(bold = false, dim = false)
                23 -> st = st.copy(italic = false)
                24 -> st = st.copy(underline = false)
                27 -> st = st.copy(inverse = false)
                29 -> st = st.copy(strike = false)
                in 30..37 -> st = st.copy(foreground = AnsiColor.Indexed(code - 30))
                in 90..97 -> st = st.copy(foreground = AnsiColor.Indexed(code - 90 + 8))
                39 -> st = st.copy(foreground = null)
                in 40..47 -> st = st.copy(background = AnsiColor.Indexed(code - 40))
                in 100..107 -> st = st.copy(background = AnsiColor.Indexed(code - 100 + 8))
                49 -> st = st.copy(background = null)
                38, 48 -> {
                    val mode = codes.getOrNull(k + 1)
                    val color = when (mode) {
                        5 -> codes.getOrNull(k + 2)?.let { AnsiColor.Indexed(it.coerceIn(0, 255)) }.also { k += 2 }
                        2 -> if (k + 4 < codes.size) AnsiColor.Rgb(codes[k + 2].coerceIn(0, 255), codes[k + 3].coerceIn(0, 255), codes[k + 4].coerceIn(0, 255)).also { k += 4 } else null.also { k = codes.size }
                        else -> null
                    }
                    if (color != null) st = if (code == 38) st.copy(foreground = color) else st.copy(background = color)
                }
            }
            k++
        }
        return st
    }

    fun strip(input: String): String = parse(input).joinToString("") { it.text }
}

/** Maps ANSI colours to screen colours: 0–15 from the colour scheme's console colours, the 256-colour cube and 24-bit as they are. */
class AnsiPalette(private val base16: List<Color>) {
    fun color(c: AnsiColor): Color = when (c) {
        is AnsiColor.Rgb -> Color(c.r, c.g, c.b)
        is AnsiColor.Indexed -> indexed(c.index)
    }

    private fun indexed(i: Int): Color = when {
        i < 16 -> base16[i]
        i < 232 -> {
            val n = i - 16
            val steps = intArrayOf(0, 95, 135, 175, 215, 255)
            Color(steps[n / 36], steps[(n / 6) % 6], steps[n % 6])
        }
        else -> (8 + (i - 232) * 10).let { Color(it, it, it) }
    }
}

/** Writes styled runs into a Swing document, with the theme's console colours for "no colour". */
object AnsiRenderer {
    fun attributes(style: AnsiStyle, palette: AnsiPalette, defaultFg: Color, defaultBg: Color): SimpleAttributeSet {
        val a = SimpleAttributeSet()
        var fg = style.foreground?.let { palette.color(it) } ?: defaultFg
        var bg = style.background?.let { palette.color(it) }
        if (style.inverse) {
            val f = fg
            fg = bg ?: defaultBg
            bg = f
        }
        if (style.dim) fg = Theme.mix(fg, defaultBg, 0.4)
        StyleConstants.setForeground(a, fg)
        if (bg != null) StyleConstants.setBackground(a, bg)
        StyleConstants.setBold(a, style.bold)
        StyleConstants.setItalic(a, style.italic)
        StyleConstants.setUnderline(a, style.underline)
        StyleConstants.setStrikeThrough(a, style.strike)
        return a
    }

    fun render(text: String, doc: StyledDocument, theme: Theme) {
        val palette = AnsiPalette(theme.ansi)
        doc.remove(0, doc.length)
        for (run in AnsiParser.parse(text)) {
            doc.insertString(doc.length, run.text, attributes(run.style, palette, theme.outputForeground, theme.outputBackground))
        }
    }
}
