package dev.wavetools.wave.ui

import com.google.gson.JsonParser
import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.DiffLine
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.InitializeResult
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.ServerInfo
import dev.wavetools.wave.bridge.TaskInfo
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.time.Duration

/** Cards and panels built from a recorded session (feeds/session.jsonl), checked headless. */
class FeedTest {
    private val actions = FakeActions(mutableSetOf("c9"))
    private val panel = onEdt { WavePanel(object : HostServices {}, actions, fixedClock("2026-05-04T10:01:07Z"), onRun = {}, onRetry = {}) }

    init {
        RecordedSession.play(panel, RecordedSession.load("session.jsonl"))
    }

    private fun bash(id: String) = panel.feed.card(id) as BashCard

    @Test
    fun `one card per call, of the right kind, in order`() = onEdt {
        val cards = panel.feed.cards()
        assertEquals(listOf("c1", "c2", "c3", "c4", "c5", "c6", "c7", "c9"), cards.map { it.callId })
        assertEquals(listOf("Bash", "Edit", "Compact", "Compact", "Bash", "Bash", "Bash", "Bash"), cards.map {
            when (it) { is BashCard -> "Bash"; is EditCard -> "Edit"; else -> "Compact" }
        })
    }

    @Test
    fun `BASH-FG-3 a running command shows its line, description and elapsed time, and no output`() = onEdt {
        val card = bash("c9")
        assertTrue(card.isRunning)
        assertEquals("cargo build --release", card.command)
        assertEquals("Build the release binary", card.description)
        assertEquals("Running 0:07", card.statusLabel.text)
        assertNull(card.output, "no partial output while running")
        assertTrue(card.find<OutputPane>().isEmpty())
        assertTrue(card.moveButton.isEnabled && card.stopButton.isEnabled)
    }

    @Test
    fun `a finished failing command shows its output once, exit code, duration and the full-output link`() = onEdt {
        val card = bash("c1")
        assertFalse(card.isRunning)
        assertEquals("Exit 1", card.statusLabel.text)
        assertEquals(WaveTheme.error, card.statusLabel.foreground)
        val text = card.output!!.plainText
        assertTrue(text.contains("✗ src/math.test.ts (3 tests | 1 failed)"), text)
        assertFalse(text.contains("\u001b"), "escape sequences are rendered, not shown")
        assertFalse(card.moveButton.isShowing || card.moveButton.parent.isVisible)
        val labels = card.footerLabels.map { (it as javax.swing.JLabel).text }
        assertEquals(listOf("2.3 s", "Open full output (47.1 KB)"), labels)
        (card.footerLabels.last() as LinkLabel).click()
        assertEquals("open /tmp/wave-core-dev/48102-3fa9c1d2/run-1-1.log", actions.log.last())
    }

    @Test
    fun `a command moved to the background says so and shows no output`() = onEdt {
        val card = bash("c6")
        assertEquals("In background", card.statusLabel.text)
        assertNull(card.output)
        assertTrue(card.footerLabels.any { (it as javax.swing.JLabel).text == "Moved to the background as task b7k2q9d" })
        assertTrue(card.footerLabels.none { it is LinkLabel }, "the task's log is in the tasks view, not a link here")
    }

    @Test
    fun `BASH-CWD a change made by a command shows once on its card, any other change gets its own line`() = onEdt {
        val card = bash("c7")
        val notice = "Shell working directory changed to /home/dev/shop/packages/api"
        assertTrue(card.footerLabels.any { (it as javax.swing.JLabel).text == notice })
        assertEquals(1, panel.feed.find<javax.swing.JLabel> { it.text == notice }.size, "the session/cwdChanged during the command adds no second line")
        panel.feed.cwdChanged(dev.wavetools.wave.bridge.SessionCwdChanged("sub-1", "/home/dev/shop", "/home/dev/shop/packages/api", reset = true))
        assertEquals(1, panel.feed.find<javax.swing.JLabel> { it.text == "Shell cwd was reset to /home/dev/shop" }.size)
    }

    @Test
    fun `button states across a command's life - move, refusal, stop, finish`() = onEdt {
        val card = bash("c9")
        card.requestMove()
        assertEquals("move c9", actions.log.last())
        assertFalse(card.moveButton.isEnabled)
        assertEquals("Moving…", card.moveButton.text)
        card.moveRefused("The Bash call \"c9\" cannot be moved to the background.")
        assertFalse(card.moveButton.isEnabled, "a refused move is not offered again")
        assertTrue(card.stopButton.isEnabled)
        card.requestStop()
        assertEquals("stop c9", actions.log.last())
        assertFalse(card.stopButton.isEnabled)
        assertEquals("Stopping…", card.stopButton.text)
        val result = Json.decode<CallToolResult>(JsonParser.parseString("""{"content":[{"type":"text","text":"partial\n"}],"structuredContent":{"success":false,"exitCode":null,"signal":"SIGTERM","output":"partial\n","interrupted":true,"durationMs":9000},"isError":true}"""))
        panel.feed.toolFinished(ToolFinished("c9", "main", "Bash", true, 9000, result))
        assertEquals("Interrupted", card.statusLabel.text)
        assertFalse(card.moveButton.parent.isVisible, "no controls once it ended")
        assertEquals("partial", card.output!!.plainText)
    }

    @Test
    fun `a call this window cannot control offers no buttons`() = onEdt {
        panel.feed.toolStarted(ToolStarted("other-1", "main", "Bash", JsonParser.parseString("""{"command":"sleep 100"}""").asJsonObject, "2026-05-04T10:01:00Z"))
        val card = bash("other-1")
        assertFalse(card.moveButton.isEnabled)
        assertFalse(card.stopButton.isEnabled)
        assertEquals("c9", panel.feed.latestControllable(bashOnly = true)!!.callId, "Ctrl+B targets the newest call this window controls")
    }

    @Test
    fun `FS-EDIT-3 the edit card shows the diff with the core's word highlights`() = onEdt {
        val card = panel.feed.card("c2") as EditCard
        assertEquals("+1 −1", card.statusLabel.text)
        val view = card.diffView!!
        // The recording is a real core's Edit result (node-core/src/fs/diff.ts shape): the change is
        // a pure insertion, so the removed line has no changed words and the added line has two.
        val C = DiffLine.Kind.CONTEXT
        assertEquals(listOf(C, C, C, DiffLine.Kind.REMOVED, DiffLine.Kind.ADDED, C), view.rows.map { it.line!!.kind })
        assertEquals(listOf(10 to 10, 11 to 11, 12 to 12, 13 to null, null to 13, 14 to 14), view.rows.map { it.line!!.oldNumber to it.line!!.newNumber })
        val spans = view.highlightSpans()
        assertEquals(listOf(4 to 20..20, 4 to 23..40), spans.map { it.row to it.range })
        assertTrue(spans.all { it.color == WaveTheme.addedWord })
        assertEquals(listOf("(", "+ Number.EPSILON) "), spans.map { view.rows[4].line!!.text.substring(it.range) })
        card.find<LinkLabel>().single().click()
        assertEquals("open /home/dev/shop/src/math.ts:13", actions.log.last())
    }

    @Test
    fun `compact cards summarise and expand, and their paths open files at the line`() = onEdt {
        val read = panel.feed.card("c3") as CompactCard
        assertTrue(read.summaryLabel.text.endsWith("·  lines 1–3 of 3"), read.summaryLabel.text)
        assertFalse(read.expanded)
        read.setExpanded(true)
        assertTrue(read.find<OutputPane>().single().plainText.contains("export const TAX"))
        assertEquals("/home/dev/shop/src/math.ts" to 3, read.linkFor("     3\texport function roundCents(x: number): number {"))
        val grep = panel.feed.card("c4") as CompactCard
        assertTrue(grep.summaryLabel.text.contains("\"TODO\"") && grep.summaryLabel.text.endsWith("2 lines"), grep.summaryLabel.text)
        assertEquals("/home/dev/shop/src/cart.ts" to 41, grep.linkFor("cart.ts:41:  // TODO: coupons"))
    }

    @Test
    fun `the background tasks view shows status, runtime and exit, with Stop while running`() = onEdt {
        val running = panel.tasks.row("b7k2q9d")!!
        assertEquals("running 0:47", running.status.text)
        assertEquals(listOf("· Start the dev server", "· moved here with Ctrl+B"), running.find<javax.swing.JLabel> { it.text.startsWith("· ") }.map { it.text })
        assertTrue(panel.tasks.row("ba1f9x2")!!.find<javax.swing.JLabel> { it.text.startsWith("· ") }.isEmpty(), "started in the background: nothing to explain")
        assertTrue(running.stop.isVisible)
        running.stop.doClick()
        assertEquals("stopTask b7k2q9d", actions.log.last())
        assertFalse(running.stop.isEnabled)
        val killed = panel.tasks.row("ba1f9x2")!!
        assertEquals("stopped (SIGTERM) · 18 min 00 s", killed.status.text)
        assertFalse(killed.stop.isVisible)
        val done = Json.decode<TaskInfo>(JsonParser.parseString("""{"taskId":"b7k2q9d","command":"npm run dev","status":"failed","exitCode":1,"runtimeMs":61000,"outputPath":"/tmp/x"}"""))
        panel.tasks.upsert(done)
        assertEquals("exit 1 · 1 min 01 s", running.status.text)
        assertFalse(running.stop.isVisible)
    }

    @Test
    fun `the log tail follows a task's output file while it is open`() {
        val log = Files.createTempFile("wave-task", ".log")
        try {
            Files.writeString(log, "\u001b[32mready\u001b[0m\n")
            onEdt {
                panel.tasks.upsert(TaskInfo(taskId = "t1", command = "tail me", status = "running", startedAt = "2026-05-04T10:01:00Z", outputPath = log.toString()))
                panel.tasks.select("t1")
                assertEquals("ready\n", panel.tasks.tailOutput!!.plainText)
            }
            Files.writeString(log, "GET / 200\n", java.nio.file.StandardOpenOption.APPEND)
            onEdt {
                panel.tasks.tick()
                assertEquals("ready\nGET / 200\n", panel.tasks.tailOutput!!.plainText)
                panel.tasks.closeTail()
                assertNull(panel.tasks.tail)
            }
        } finally {
            Files.deleteIfExists(log)
        }
    }

    @Test
    fun `the log tail keeps only the end of a huge log`() {
        val log = Files.createTempFile("wave-task", ".log")
        try {
            Files.writeString(log, "x".repeat(100_000) + "END")
            val tail = LogTail(log, maxChars = 1000)
            assertTrue(tail.poll())
            assertTrue(tail.text.length <= 1000 && tail.text.endsWith("END"))
            assertFalse(tail.poll(), "nothing new")
        } finally {
            Files.deleteIfExists(log)
        }
    }

    @Test
    fun `the status line shows core and login-environment state`() = onEdt {
        assertEquals("Login environment: zsh · 42 variables · 312 ms", panel.statusLine.envLabel.text)
        panel.statusLine.showCore(CoreState.Starting(1))
        assertEquals("wave-core: starting…", panel.statusLine.coreLabel.text)
        panel.statusLine.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0")), 42))
        assertEquals("wave-core 0.1.0: ready", panel.statusLine.coreLabel.text)
        panel.statusLine.showCore(CoreState.Restarting(2, Duration.ofSeconds(1), "wave-core exited unexpectedly (exit code 1)"))
        assertEquals("wave-core: restarting in 1.0 s (attempt 2) — wave-core exited unexpectedly (exit code 1)", panel.statusLine.coreLabel.text)
        panel.statusLine.showCore(CoreState.Failed("boom", listOf("stderr line")))
        assertEquals("wave-core: failed — boom", panel.statusLine.coreLabel.text)
        assertEquals("stderr line", panel.statusLine.coreLabel.toolTipText)
        panel.statusLine.showEnv(EnvStatus(state = "degraded", shell = "/bin/bash", durationMs = 2000, adoptedKeys = listOf("PATH"), reason = "PATH only"))
        assertEquals("Login environment: bash · 1 variable · 2.0 s · degraded: PATH only", panel.statusLine.envLabel.text)
        assertEquals(WaveTheme.warning, panel.statusLine.envLabel.foreground)
    }

    @Test
    fun `bash-mode input runs commands, keeps history and is off while the core is not ready`() {
        val ran = mutableListOf<String>()
        onEdt {
            val input = BashInput { ran += it }
            input.field.text = "  git status "
            input.submit()
            input.field.text = "ls"
            input.submit()
            assertEquals(listOf("git status", "ls"), ran)
            input.recall(-1)
            assertEquals("ls", input.field.text)
            input.recall(-1)
            assertEquals("git status", input.field.text)
            input.setReady(false, "wave-core is restarting")
            input.field.text = "rm -rf build"
            input.submit()
            assertEquals(2, ran.size, "nothing runs while the core is not ready")
        }
    }

    @Test
    fun `the fallback panel explains a missing Node_js with the fix`() = onEdt {
        panel.showFallback("Node.js is needed to run Wave Tools", "Node.js 18 or newer was not found.\nTried:\n  • /usr/bin/node (PATH): not found")
        assertTrue(panel.showingFallback)
        assertTrue(panel.fallback.details.text.contains("/usr/bin/node (PATH): not found"))
        assertEquals(listOf("Open Settings", "Download Node.js for Wave Tools", "Retry"), panel.fallback.find<javax.swing.JButton>().map { it.text })
    }

    @Test
    fun `Download Node_js asks the host to install the managed runtime`() = onEdt {
        val asked = mutableListOf<String>()
        val host = object : HostServices {
            override fun downloadNode() {
                asked += "download"
            }
        }
        val withHost = WavePanel(host, actions, fixedClock("2026-05-04T10:01:07Z"), onRun = {}, onRetry = {})
        withHost.showFallback("Node.js is needed to run Wave Tools", "Node.js 20 or newer was not found.")
        withHost.fallback.find<javax.swing.JButton>().single { it.text == "Download Node.js for Wave Tools" }.doClick()
        assertEquals(listOf("download"), asked)
    }
}
