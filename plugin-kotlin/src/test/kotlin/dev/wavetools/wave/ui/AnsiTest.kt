package dev.wavetools.wave.ui

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.awt.Color
import javax.swing.text.StyleConstants

/** BASH-FG-4: output keeps its ANSI sequences; the tool window renders them as colours. */
class AnsiTest {
    private val E = "\u001b"

    @Test
    fun `16 colours, bright colours and reset`() {
        val runs = AnsiParser.parse("a${E}[31mred${E}[0m b${E}[92mgreen${E}[39m c")
        assertEquals(listOf("a", "red", " b", "green", " c"), runs.map { it.text })
        assertEquals(AnsiColor.Indexed(1), runs[1].style.foreground)
        assertEquals(AnsiStyle.PLAIN, runs[2].style)
        assertEquals(AnsiColor.Indexed(10), runs[3].style.foreground)
        assertNull(runs[4].style.foreground)
    }

    @Test
    fun `256 colours and truecolour, foreground and background`() {
        val runs = AnsiParser.parse("${E}[38;5;208morange${E}[48;2;10;20;30mbg${E}[49;39m")
        assertEquals(AnsiColor.Indexed(208), runs[0].style.foreground)
        assertEquals(AnsiColor.Rgb(10, 20, 30), runs[1].style.background)
        assertEquals(AnsiColor.Indexed(208), runs[1].style.foreground)
        val palette = AnsiPalette(Theme.LIGHT_ANSI)
        assertEquals(Color(255, 135, 0), palette.color(AnsiColor.Indexed(208)))
        assertEquals(Color(88, 88, 88), palette.color(AnsiColor.Indexed(240)))
        assertEquals(Color(10, 20, 30), palette.color(AnsiColor.Rgb(10, 20, 30)))
    }

    @Test
    fun `bold, dim, italic, underline and their resets`() {
        val runs = AnsiParser.parse("${E}[1;4mbu${E}[22mu${E}[24m${E}[3mi${E}[23m${E}[2md")
        assertTrue(runs[0].style.bold && runs[0].style.underline)
        assertTrue(!runs[1].style.bold && runs[1].style.underline)
        assertTrue(runs[2].style.italic && !runs[2].style.underline)
        assertTrue(runs[3].style.dim && !runs[3].style.italic)
    }

    @Test
    fun `non-colour sequences are dropped and carriage returns keep the last state`() {
        assertEquals("done\nnext", AnsiParser.strip("${E}[2K${E}]0;title\u0007 10%\r 50%\rdone\r\nnext"))
        assertEquals("link", AnsiParser.strip("${E}]8;;https://x.y${E}\\link${E}]8;;${E}\\"))
        assertEquals("a", AnsiParser.strip("a${E}[")) // cut-off sequence at the end
    }

    @Test
    fun `the output pane shows colours and bold at the right places`() {
        val pane = OutputPane("ok ${E}[1;31mFAIL${E}[0m ${E}[38;2;1;2;3mrgb${E}[0m")
        assertEquals("ok FAIL rgb", pane.plainText)
        val doc = pane.styledDocument
        val fail = doc.getCharacterElement(4).attributes
        assertEquals(WaveTheme.current.ansi[1], StyleConstants.getForeground(fail), "colour 1 is the colour scheme's console red")
        assertTrue(StyleConstants.isBold(fail))
        val plain = doc.getCharacterElement(0).attributes
        assertFalse(StyleConstants.isBold(plain))
        assertEquals(WaveTheme.current.outputForeground, StyleConstants.getForeground(plain), "no colour: the console's text colour")
        assertEquals(Color(1, 2, 3), StyleConstants.getForeground(doc.getCharacterElement(9).attributes))
    }
}
