package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.concurrent.TimeUnit

/**
 * An attached agent's cards get their content from the whole result: the core's `tool/finished`
 * carries only a summary, and this window never sees the agent's `tools/call` answer, so the
 * controller fetches `calls/result`. The real core listening for agents, a real `mcp --attach` agent.
 */
class AgentResultsTest {
    private val window = AgentWindow()

    @AfterEach
    fun cleanup() = window.close()

    private inline fun <reified T : ToolCallCard> finishedCard(tab: AgentTab, name: String): T {
        waitForUi({ "no finished $name card: ${tab.feed.cards().map { "${it.started.name} running=${it.isRunning}" }}" }) {
            tab.feed.cards().any { it.started.name == name && !it.isRunning }
        }
        return onEdt { tab.feed.cards().last { it.started.name == name } as T }
    }

    @Test
    fun `an agent's Bash card shows its whole output and its Edit card the whole diff, fetched with calls-result`() {
        window.controller.startAndAwaitReady(window.supervisor)
        val a = window.agent()
        val tab = window.tab()

        // 13,893 characters of output: far more than the summary's 2,000-character preview.
        val expected = (1..3000).joinToString("\n")
        val answer = a.callTool("Bash", mapOf("command" to "seq 1 3000")).get(60, TimeUnit.SECONDS)
        assertEquals(expected + "\n", answer.getAsJsonObject("structuredContent").get("output").asString)
        val bash = finishedCard<BashCard>(tab, "Bash")
        onEdt {
            val finished = bash.finished!!
            assertNull(finished.resultUnavailable, finished.resultUnavailable)
            assertTrue(finished.summary!!.preview.length < expected.length, "the summary alone could not show it")
            assertEquals(expected + "\n", bash.result!!.output, "the card has the whole output (Show All opens it)")
            val shown = bash.output!!.plainText.lines()
            assertEquals(expected.lines().take(BashCard.HEAD_LINES) + "⋯ 2,977 lines not shown ⋯" + expected.lines().takeLast(BashCard.TAIL_LINES), shown)
            assertEquals("Show All", bash.footer.find<LinkLabel>().single().text)
            assertEquals(WaveBundle.message("card.status.exit", 0), bash.statusLabel.text)
        }

        assertFalse(a.callTool("Read", mapOf("file_path" to "notes.txt")).get(60, TimeUnit.SECONDS).get("isError").asBoolean)
        val edited = a.callTool("Edit", mapOf("file_path" to "notes.txt", "old_string" to "second line", "new_string" to "second line, edited by the agent")).get(60, TimeUnit.SECONDS)
        assertFalse(edited.get("isError").asBoolean, edited.toString())
        val edit = finishedCard<EditCard>(tab, "Edit")
        onEdt {
            assertNull(edit.finished!!.resultUnavailable)
            assertEquals("+1 −1", edit.statusLabel.text)
            val lines = edit.diffView!!.model.hunks.flatMap { it.lines }
            assertTrue(lines.any { it.text == "second line, edited by the agent" }, lines.toString())
            assertNotNull(edit.showDiffLink, "Show Diff needs the hunks, which only the whole result has")
        }
    }

    @Test
    fun `a call whose result the core no longer keeps shows the summary and says so`() {
        window.controller.startAndAwaitReady(window.supervisor)
        val marker = window.supervisor.process()!!.launch.instanceMarker
        val a = window.agent()
        val tab = window.tab()
        a.callTool("Bash", mapOf("command" to "sleep 300"))
        waitForUi({ "no running sleep card" }) { tab.feed.cards().any { it.started.name == "Bash" } }
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(marker)}" }) { TestSupport.commandProcesses(marker).isNotEmpty() }

        // The agent leaves: its session ends and cuts the call short; a session's results go with it.
        a.close()
        val card = finishedCard<BashCard>(tab, "Bash")
        onEdt {
            val finished = card.finished!!
            assertNotNull(finished.resultUnavailable, "calls/result should have failed")
            assertTrue(finished.resultUnavailable!!.contains("no longer kept"), finished.resultUnavailable)
            // The header comes from the summary's fields.
            assertEquals(WaveBundle.message("card.status.interrupted"), card.statusLabel.text)
            val note = card.body.find<TextBlock> { it.plainText == WaveBundle.message("card.resultUnavailable.text") }.single()
            assertEquals(finished.resultUnavailable, note.toolTipText)
        }
    }
}
