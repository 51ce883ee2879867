package dev.wavetools.wave.ui

import com.google.gson.JsonParser
import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.DiffLine
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.FailureKind
import dev.wavetools.wave.bridge.InitializeResult
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.SandboxStatus
import dev.wavetools.wave.bridge.ServerInfo
import dev.wavetools.wave.bridge.TaskInfo
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import javax.swing.SwingUtilities
import java.nio.file.Files
import java.time.Duration

/** Cards and panels built from a recorded session (feeds/session.jsonl), checked headless. */
class FeedTest {
    private val actions = FakeActions(mutableSetOf("c9"))
    private val host = object : HostServices {
        var chose = 0
        var downloaded = 0
        override fun chooseNode() { chose++ }
        override val downloadNode: (() -> Unit) = { downloaded++ }
    }
    private val panel = onEdt { WavePanel(host, actions, fixedClock("2026-05-04T10:01:07Z"), onRun = {}, onRetry = {}) }

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
        assertTrue(card.moveAction.isEnabled && card.stopAction.isEnabled)
    }

    @Test
    fun `a finished failing command shows its output once, the exit code, the duration, and how much was left out`() = onEdt {
        val card = bash("c1")
        assertFalse(card.isRunning)
        assertEquals("Exit 1", card.statusLabel.text)
        assertEquals(WaveTheme.current.error, card.statusLabel.foreground)
        val text = card.output!!.plainText
        assertTrue(text.contains("✗ src/math.test.ts (3 tests | 1 failed)"), text)
        assertFalse(text.contains("\u001b"), "escape sequences are rendered, not shown")
        // The core's note to the model is not shown to people: they see how much was left out, and a link.
        assertFalse(text.contains("read it with") || text.contains("/tmp/"), text)
        assertTrue(text.contains("⋯ 40.4 KB omitted ⋯"), text)
        assertFalse(card.moveAction.isVisible || card.stopAction.isVisible)
        assertEquals(listOf("2.3 s"), card.footer.texts().take(1))
        // How much was left out is said once, in the output; the footer has the link to all of it.
        val link = card.footer.find<LinkLabel>().single()
        assertEquals("Show All", link.text)
        assertFalse(card.footer.texts().any { it.contains("omitted") }, card.footer.texts().toString())
        link.click()
        assertEquals("open /tmp/wave-core-dev/48102-3fa9c1d2/run-1-1.log", actions.log.last())
        assertNotNullTooltip(link.toolTipText, "/tmp/wave-core-dev/48102-3fa9c1d2/run-1-1.log")
    }

    private fun assertNotNullTooltip(tooltip: String?, expected: String) = assertEquals(expected, tooltip, "temp paths stay in tooltips")

    @Test
    fun `a command moved to the background says so without its task id, which is in the tooltip`() = onEdt {
        val card = bash("c6")
        assertEquals("In background", card.statusLabel.text)
        assertNull(card.output)
        val moved = card.footer.find<TextBlock>().single { it.plainText == "Moved to the background" }
        assertTrue(moved.toolTipText.contains("b7k2q9d"))
        assertTrue(card.footer.texts().none { it.contains("b7k2q9d") }, "no internal ids in what people read")
        assertTrue(card.footer.find<LinkLabel>().isEmpty(), "the task's log is in the tasks view, not a link here")
    }

    @Test
    fun `BASH-CWD a change made by a command shows once on its card, any other change gets its own line`() = onEdt {
        val card = bash("c7")
        val notice = "Shell working directory changed to /home/dev/shop/packages/api"
        assertTrue(card.footer.texts().contains(notice))
        assertEquals(1, panel.feed.find<TextBlock> { it.plainText == notice }.size)
        panel.feed.cwdChanged(dev.wavetools.wave.bridge.SessionCwdChanged("sub-1", "/home/dev/shop", "/home/dev/shop/packages/api", reset = true))
        assertEquals(1, panel.feed.find<TextBlock> { it.plainText == "Shell cwd was reset to /home/dev/shop" }.size)
    }

    @Test
    fun `control states across a command's life - move, refusal, stop, finish`() = onEdt {
        val card = bash("c9")
        card.requestMove()
        assertEquals("move c9", actions.log.last())
        assertFalse(card.moveAction.isEnabled)
        assertEquals("Moving…", card.moveAction.label)
        card.moveRefused("The Bash call \"c9\" cannot be moved to the background.")
        assertFalse(card.moveAction.isEnabled, "a refused move is not offered again")
        assertTrue(card.stopAction.isEnabled)
        card.requestStop()
        assertEquals("stop c9", actions.log.last())
        assertFalse(card.stopAction.isEnabled)
        assertEquals("Stopping…", card.stopAction.label)
        val result = Json.decode<CallToolResult>(JsonParser.parseString("""{"content":[{"type":"text","text":"partial\n"}],"structuredContent":{"success":false,"exitCode":null,"signal":"SIGTERM","output":"partial\n","interrupted":true,"durationMs":9000},"isError":true}"""))
        panel.feed.toolFinished(ToolFinished("c9", "main", "Bash", true, 9000, result))
        assertEquals("Interrupted", card.statusLabel.text)
        assertFalse(card.moveAction.isVisible || card.stopAction.isVisible, "no controls once it ended")
        assertEquals("partial", card.output!!.plainText)
    }

    @Test
    fun `a call this window cannot control offers no controls, and Ctrl+B targets the newest one it can`() = onEdt {
        panel.feed.toolStarted(ToolStarted("other-1", "main", "Bash", JsonParser.parseString("""{"command":"sleep 100"}""").asJsonObject, "2026-05-04T10:01:00Z"))
        val card = bash("other-1")
        assertFalse(card.moveAction.isVisible || card.moveAction.isEnabled)
        assertFalse(card.stopAction.isVisible || card.stopAction.isEnabled)
        assertEquals("c9", panel.feed.latestControllable(bashOnly = true)!!.callId)
    }

    @Test
    fun `a command that ran outside the sandbox says so discreetly, one inside or one that does not say shows nothing`() = onEdt {
        fun finish(id: String, sandboxed: String) {
            panel.feed.toolStarted(ToolStarted(id, "main", "Bash", JsonParser.parseString("""{"command":"docker ps"}""").asJsonObject, "2026-05-04T10:01:00Z"))
            val result = Json.decode<CallToolResult>(JsonParser.parseString("""{"content":[{"type":"text","text":"ok"}],"structuredContent":{"success":true,"exitCode":0,"output":"ok\n","durationMs":10$sandboxed},"isError":false}"""))
            panel.feed.toolFinished(ToolFinished(id, "main", "Bash", false, 10, result))
        }
        finish("out", ""","sandboxed":false""")
        finish("in", ""","sandboxed":true""")
        finish("old", "")
        val note = bash("out").footer.find<ToneLabel>().single { it.text == "Ran outside the sandbox" }
        assertEquals(Tone.SECONDARY, note.tone, "discreet: a secondary note, not a warning")
        assertTrue(bash("in").footer.texts().none { it.contains("sandbox") })
        assertTrue(bash("old").footer.texts().none { it.contains("sandbox") })
    }

    @Test
    fun `FS-EDIT-3 the edit card shows the diff with the core's word highlights, and Show Diff opens the IDE's viewer`() = onEdt {
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
        assertTrue(spans.all { it.color == WaveTheme.current.diffAddedWord })
        assertEquals(listOf("(", "+ Number.EPSILON) "), spans.map { view.rows[4].line!!.text.substring(it.range) })
        card.pathLink.click()
        assertEquals("open /home/dev/shop/src/math.ts:13", actions.log.last())
        assertEquals("Show Diff", card.showDiffLink!!.text)
        card.showDiffLink!!.click()
        assertEquals("diff /home/dev/shop/src/math.ts +1 -1", actions.log.last())
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
    fun `the background tasks table - state with its icon, how long it ran, Stop while running, the stopped icon once stopped`() = onEdt {
        val running = panel.tasks.row("b7k2q9d")!!
        assertEquals("Running", running.state.text)
        assertEquals("47 s", running.runtime.text)
        assertEquals(CallState.RUNNING, running.dot.state)
        assertTrue(running.command.toolTipText!!.contains("Moved here with Ctrl+B"), "how it got here is in the tooltip")
        assertTrue(running.stop.isVisible)
        running.stop.click()
        assertEquals("stopTask b7k2q9d", actions.log.last())
        assertFalse(running.stop.isEnabled)
        val killed = panel.tasks.row("ba1f9x2")!!
        assertEquals("Stopped", killed.state.text)
        assertEquals("18 min", killed.runtime.text)
        assertEquals(CallState.STOPPED, killed.dot.state, "stopped: the stopped icon")
        assertFalse(killed.stop.isVisible)
        val done = Json.decode<TaskInfo>(JsonParser.parseString("""{"taskId":"b7k2q9d","command":"npm run dev","status":"failed","exitCode":1,"runtimeMs":61000,"outputPath":"/tmp/x"}"""))
        panel.tasks.upsert(done)
        assertEquals("Exit 1", running.state.text)
        assertEquals("1 min", running.runtime.text)
        assertEquals(CallState.FAILED, running.dot.state)
        assertFalse(running.stop.isVisible)
        // The columns line up: every row's state starts at the same x.
        layoutTree(panel.tasks, java.awt.Dimension(600, 200))
        assertEquals(1, listOf(running, killed).map { it.state.x }.distinct().size)
    }

    @Test
    fun `the log tail is read off the UI thread and shown on it`() {
        val log = Files.createTempFile("wave-task", ".log")
        val readOn = java.util.concurrent.CopyOnWriteArrayList<Boolean>()
        // Every read of the file runs as a task of this poller: it records the thread it runs on.
        val poller = object : java.util.concurrent.ScheduledThreadPoolExecutor(1) {
            override fun beforeExecute(t: Thread, r: Runnable) { readOn += SwingUtilities.isEventDispatchThread() }
        }
        val tasks = onEdt { TasksPanel(FakeActions(), tailPoller = poller) }
        try {
            Files.writeString(log, "line one\n")
            onEdt {
                tasks.upsert(TaskInfo(taskId = "t1", command = "tail me", status = "running", startedAt = "2026-05-04T10:01:00Z", outputPath = log.toString()))
                tasks.select("t1")
                assertNull(tasks.tailOutput, "select() returns before the file is read")
            }
            waitForUi({ "tail: ${tasks.tailOutput?.plainText}" }) { tasks.tailOutput?.plainText == "line one" }
            waitForUi({ "reads: $readOn" }) { readOn.size >= 2 }
            assertEquals(listOf(false), readOn.distinct(), "every read ran off the UI thread")
        } finally {
            onEdt { tasks.dispose() }
            poller.shutdownNow()
            Files.deleteIfExists(log)
        }
    }

    @Test
    fun `the log tail follows a task's output file while it is open`() {
        val log = Files.createTempFile("wave-task", ".log")
        try {
            Files.writeString(log, "\u001b[32mready\u001b[0m\n")
            onEdt {
                panel.tasks.upsert(TaskInfo(taskId = "t1", command = "tail me", status = "running", startedAt = "2026-05-04T10:01:00Z", outputPath = log.toString()))
                panel.tasks.select("t1")
            }
            waitForUi({ "tail: ${panel.tasks.tailOutput?.plainText}" }) { panel.tasks.tailOutput?.plainText == "ready" }
            Files.writeString(log, "GET / 200\n", java.nio.file.StandardOpenOption.APPEND)
            waitForUi({ "tail: ${panel.tasks.tailOutput?.plainText}" }) { panel.tasks.tailOutput?.plainText == "ready\nGET / 200" }
            onEdt {
                panel.tasks.closeTail()
                assertNull(panel.tasks.tail)
            }
        } finally {
            Files.deleteIfExists(log)
        }
    }

    @Test
    fun `the log tail keeps only the end of a huge log, and a character cut by a read is completed by the next`() {
        val log = Files.createTempFile("wave-task", ".log")
        try {
            Files.writeString(log, "x".repeat(100_000) + "END")
            val tail = FileTail(log, maxChars = 1000)
            assertTrue(tail.poll())
            assertTrue(tail.content.length <= 1000 && tail.content.endsWith("END") && tail.cutAtStart)
            assertFalse(tail.poll(), "nothing new")
            // "é" is two bytes: the first alone, then the second.
            Files.write(log, byteArrayOf(0xC3.toByte()), java.nio.file.StandardOpenOption.APPEND)
            assertTrue(tail.poll())
            assertTrue(tail.content.endsWith("END"), "half a character is not shown")
            Files.write(log, byteArrayOf(0xA9.toByte(), '!'.code.toByte()), java.nio.file.StandardOpenOption.APPEND)
            assertTrue(tail.poll())
            assertTrue(tail.content.endsWith("ENDé!"), tail.content.takeLast(6))
        } finally {
            Files.deleteIfExists(log)
        }
    }

    @Test
    fun `the status line - the core's state in a word, the environment and the sandbox, details in tooltips`() = onEdt {
        val line = panel.statusLine
        assertEquals("zsh login environment", line.envLabel.text)
        assertTrue(line.envLabel.toolTipText!!.contains("Adopted: PATH, NVM_DIR"), line.envLabel.toolTipText)
        line.showCore(CoreState.Starting(1))
        assertEquals("Starting…", line.coreLabel.text)
        line.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0")), 42))
        assertEquals("Ready", line.coreLabel.text)
        assertEquals("wave-core 0.1.0, process 42", line.coreLabel.toolTipText)
        line.showCore(CoreState.Restarting(2, Duration.ofSeconds(1), "wave-core exited unexpectedly (exit code 1)"))
        assertEquals("Restarting in 1.0 s (attempt 2)", line.coreLabel.text)
        line.showCore(CoreState.Failed("boom", listOf("stderr line"), FailureKind.CRASHED))
        assertEquals("Failed: boom", line.coreLabel.text)
        assertEquals("boom\nstderr line", line.coreLabel.toolTipText)
        line.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0")), 42))
        line.showEnv(EnvStatus(state = "degraded", shell = "/bin/bash", durationMs = 2000, adoptedKeys = listOf("PATH"), reason = "PATH only"))
        assertEquals("bash login environment (partial)", line.envLabel.text)
        assertEquals(Tone.WARNING, line.envLabel.tone)
        assertFalse(line.sandboxLabel.isVisible, "a core that says nothing about a sandbox: nothing is shown")
        line.showEnv(EnvStatus(state = "ok", shell = "/bin/bash", sandbox = SandboxStatus(true, "bubblewrap", "deny")))
        assertTrue(line.sandboxLabel.isVisible)
        assertEquals("Sandbox: Bubblewrap, no network", line.sandboxLabel.text)
        line.showEnv(EnvStatus(state = "ok", shell = "/bin/bash", sandbox = SandboxStatus(false, "none", reason = "bwrap is not installed", remedy = "Install the bubblewrap package.")))
        assertEquals("No sandbox", line.sandboxLabel.text)
        assertEquals(Tone.WARNING, line.sandboxLabel.tone)
        assertEquals("bwrap is not installed\nInstall the bubblewrap package.", line.sandboxLabel.toolTipText)
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
            input.setReady(false, "Wave Tools is restarting")
            input.field.text = "rm -rf build"
            input.submit()
            assertEquals(2, ran.size, "nothing runs while the core is not ready")
        }
    }

    @Test
    fun `the Node_js fallback - the reason first, then Download and Choose as links, what was tried behind Details`() = onEdt {
        panel.showFallback(CoreState.Failed("Node.js 20 or newer was not found.", listOf("/usr/bin/node (PATH): not found"), FailureKind.NODE_NOT_FOUND))
        assertTrue(panel.showingFallback)
        val fallback = panel.fallback
        assertTrue(fallback.reasonBlock.plainText.startsWith("Wave Tools needs Node.js 20 or newer"))
        assertEquals(listOf("Download Node.js for Wave Tools", "Choose Node.js…", "Try Again"), fallback.links().map { it.text })
        fallback.links()[0].click()
        fallback.links()[1].click()
        assertEquals(1 to 1, host.downloaded to host.chose)
        val details = fallback.details!!
        assertFalse(details.expanded, "what was tried is there on demand")
        assertTrue(details.find<TextBlock>().single().plainText.contains("/usr/bin/node (PATH): not found"))
    }

    @Test
    fun `a project inside WSL - the fallback says it is not supported yet, offers nothing that cannot help, and keeps the reason behind Details`() = onEdt {
        val refusal = dev.wavetools.wave.bridge.WslPath.unsupportedProject("//wsl.localhost/Ubuntu/home/me/app")!!
        panel.showFallback(CoreState.Failed(refusal.message!!, refusal.details, refusal.kind))
        val fallback = panel.fallback
        assertTrue(fallback.reasonBlock.plainText.startsWith("Wave Tools does not support projects inside WSL yet."))
        assertEquals(emptyList<String>(), fallback.links().map { it.text }, "neither Try Again nor a Node.js choice changes where the project is")
        val details = fallback.details!!.find<TextBlock>().single().plainText
        assertTrue(details.contains("/home/me/app in the WSL distribution Ubuntu"), details)
    }

    @Test
    fun `without a download callback the fallback offers no Download link, and the empty state offers only what works`() = onEdt {
        val plain = WavePanel(object : HostServices {}, actions, onRun = {}, onRetry = {})
        plain.showFallback(CoreState.Failed("Node.js 20 or newer was not found.", emptyList(), FailureKind.NODE_NOT_FOUND))
        assertEquals(listOf("Choose Node.js…", "Try Again"), plain.fallback.links().map { it.text })
        assertNull(plain.fallback.details, "nothing tried: no Details")
        assertEquals(listOf("Run a Command"), plain.emptyState.links().map { it.text }, "no help link without a help page, no agent link without an agent")
        var connected = 0
        val withAgent = WavePanel(object : HostServices {
            override fun emptyStateActions() = listOf(LinkAction("Connect an Agent") { connected++ })
            override val showHelp: (() -> Unit) = {}
        }, actions, onRun = {}, onRetry = {})
        assertEquals(listOf("Run a Command", "Connect an Agent", "How Wave Tools Works"), withAgent.emptyState.links().map { it.text })
        withAgent.emptyState.links()[1].click()
        assertEquals(1, connected)
    }
}
