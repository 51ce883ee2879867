package dev.wavetools.wave.ui

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The message bundle: every control's text in Title Case, every message readable and formattable. */
class WaveBundleTest {
    private fun isControl(key: String) =
        key.endsWith(".button") || key.endsWith(".link") || key.endsWith(".action") || (key.startsWith("action.") && key.endsWith(".text"))

    @Test
    fun `the title case rule itself - minor words stay lower case inside, everything else is capitalised`() {
        assertTrue(TextRules.isTitleCase("Move to Background"))
        assertTrue(TextRules.isTitleCase("Always Allow…"))
        assertTrue(TextRules.isTitleCase("Download Node.js for Wave Tools"))
        assertTrue(TextRules.isTitleCase("Open Full Output (41.2 KB)"))
        assertEquals(listOf("background"), TextRules.titleCaseViolations("Move to background"))
        assertEquals(listOf("To"), TextRules.titleCaseViolations("Move To Background"))
        assertEquals(listOf("once"), TextRules.titleCaseViolations("Allow once"))
        assertFalse(TextRules.isTitleCase("restart Wave Tools"))
    }

    @Test
    fun `every button, link and action text in the bundle is in Title Case`() {
        val controls = WaveBundle.keys().filter(::isControl)
        assertTrue(controls.size >= 5, "the bundle has controls: $controls")
        val wrong = controls.associateWith { TextRules.titleCaseViolations(WaveBundle.message(it)) }.filterValues { it.isNotEmpty() }
        assertEquals(emptyMap<String, List<String>>(), wrong)
    }

    @Test
    fun `every message formats with placeholders filled, and none is blank`() {
        for (key in WaveBundle.keys()) {
            val raw = WaveBundle.message(key)
            assertTrue(raw.isNotBlank(), key)
            val count = Regex("""\{(\d+)""").findAll(raw).map { it.groupValues[1].toInt() + 1 }.maxOrNull() ?: 0
            if (count > 0) {
                val formatted = WaveBundle.message(key, *Array<Any>(count) { "<$it>" })
                assertFalse(formatted.contains(Regex("""\{\d""")), "$key left a placeholder: $formatted")
                // A single quote in a message with parameters would swallow text (MessageFormat quoting).
                assertFalse(raw.replace("''", "").contains('\''), "$key: write quotes twice ('') in a message with parameters")
            }
        }
    }
}
