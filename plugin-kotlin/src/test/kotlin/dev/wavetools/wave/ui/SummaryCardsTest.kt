package dev.wavetools.wave.ui

import com.google.gson.JsonParser
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.ToolCallSummary
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Cards of calls whose whole result could not be had (the core no longer kept it): built from
 * `tool/finished`'s summary, as the core sends it, and saying so.
 */
class SummaryCardsTest {
    private val feed = onEdt { SessionFeed(FakeActions()) }

    private fun summary(json: String): ToolCallSummary = Json.decode(JsonParser.parseString(json))

    private fun finish(id: String, name: String, args: String, summary: ToolCallSummary, isError: Boolean = false) = onEdt {
        feed.toolStarted(ToolStarted(id, "mcp-1", name, JsonParser.parseString(args).asJsonObject, "2026-05-04T10:00:00Z"))
        feed.toolFinished(ToolFinished(id, "mcp-1", name, isError, 12, result = null, summary = summary, resultUnavailable = "calls/result failed (-32003): no longer kept"))
        feed.card(id)!!
    }

    private fun note(card: ToolCallCard) = card.body.find<TextBlock> { it.plainText == WaveBundle.message("card.resultUnavailable.text") }

    @Test
    fun `a Bash card shows the exit code from the fields, the preview as its output, and the note`() {
        val card = finish("b1", "Bash", """{"command":"seq 1 3000"}""", summary("""{"preview":"1\n2\n3... [13887 more characters]","textChars":13893,"resultBytes":27900,"fields":{"exitCode":0,"interrupted":false}}""")) as BashCard
        onEdt {
            assertEquals(WaveBundle.message("card.status.exit", 0), card.statusLabel.text)
            assertEquals(1, note(card).size)
            assertEquals("calls/result failed (-32003): no longer kept", note(card).single().toolTipText)
            assertTrue(card.body.find<OutputPane> { it.plainText == "1\n2\n3... [13887 more characters]" }.isNotEmpty())
        }
    }

    @Test
    fun `an Edit card shows the counts but no diff it does not have`() {
        val card = finish("e1", "Edit", """{"file_path":"/w/a.txt","old_string":"a","new_string":"b"}""", summary("""{"preview":"Edited /w/a.txt","textChars":15,"resultBytes":900,"fields":{"filePath":"/w/a.txt","diff":{"linesAdded":3,"linesRemoved":1,"truncated":false}}}""")) as EditCard
        onEdt {
            assertEquals("+3 −1", card.statusLabel.text)
            assertNull(card.diffView)
            assertNull(card.showDiffLink, "Show Diff would open an empty diff")
            assertEquals(1, note(card).size)
        }
    }

    @Test
    fun `a Read card's summary line comes from the fields, and its expanded text is the preview, shown once`() {
        val card = finish("r1", "Read", """{"file_path":"/w/a.txt"}""", summary("""{"preview":"     1\thello","textChars":11,"resultBytes":300,"fields":{"filePath":"/w/a.txt","startLine":1,"numLines":1,"totalLines":1}}""")) as CompactCard
        onEdt {
            assertTrue(card.summaryLabel.text.endsWith(WaveBundle.message("card.compact.read.lines", 1, 1, 1)), card.summaryLabel.text)
            assertEquals(1, note(card).size)
            assertTrue(card.body.find<OutputPane>().isEmpty(), "the preview is the expandable text, not a second output")
            card.setExpanded(true)
            assertEquals("     1\thello", card.body.find<OutputPane>().single().plainText)
        }
    }
}
