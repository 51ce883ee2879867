package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.util.concurrent.TimeUnit

/**
 * The one-line summary of Glob and Grep cards counts what the real core found — not the lines of
 * its text, which may be a sentence ("No files match …") or start with a header ("Found 2 files:").
 */
class SearchCardsTest {
    private val root = TestSupport.workspace()
    private val live = LiveRecorder(root, TestSupport.launchWithoutProbe(root))

    @AfterEach
    fun cleanup() {
        live.close()
        TestSupport.deleteTree(root)
    }

    private fun call(name: String, arguments: Map<String, Any?>): CallToolResult =
        live.api.callTool(name, arguments).result.get(60, TimeUnit.SECONDS).also { assertFalse(it.isError, it.text) }

    /** Each compact card's summary, in call order, as the tool window would show the recorded session. */
    private fun summaries(): List<String> {
        val panel = onEdt { WavePanel(object : HostServices {}, FakeActions(), onRun = {}, onRetry = {}) }
        RecordedSession.play(panel, live.recording())
        return onEdt { panel.feed.cards().filterIsInstance<CompactCard>().map { it.summaryLabel.text.substringAfterLast("  ·  ") } }
    }

    @Test
    fun `Glob and Grep cards count files, lines and matches as the core reports them, none included`() {
        Files.createDirectories(root.resolve("found"))
        Files.writeString(root.resolve("found/a.ts"), "// TODO one\nconst a = 1;\n// TODO two\n")
        Files.writeString(root.resolve("found/b.ts"), "// TODO three\n")
        call("Glob", mapOf("pattern" to "**/*.nothing"))
        call("Glob", mapOf("pattern" to "found/*.ts"))
        call("Grep", mapOf("pattern" to "nowhere-to-be-found"))
        call("Grep", mapOf("pattern" to "TODO"))
        call("Grep", mapOf("pattern" to "TODO", "output_mode" to "content"))
        call("Grep", mapOf("pattern" to "TODO", "output_mode" to "count"))
        assertEquals(listOf("0 files", "2 files", "0 files", "2 files", "3 lines", "3 lines"), summaries())
    }
}
