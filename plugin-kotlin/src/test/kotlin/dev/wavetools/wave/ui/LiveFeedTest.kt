package dev.wavetools.wave.ui

import com.google.gson.JsonElement
import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.CoreNotifications
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.nio.file.Files
import java.nio.file.Paths
import java.util.concurrent.TimeUnit
import javax.swing.JLabel

/**
 * The feed built from a session recorded from the real core in this test (real bash, real exit
 * codes, signals, cwd notices, a truncated output file, a background task stopped from the host),
 * then rendered headless exactly as the controller would feed it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveFeedTest {
    private val root = TestSupport.workspace()
    // Without the sandbox: the recording shows a shell killed by SIGTERM as such (inside the sandbox it reads as exit 143).
    private val recorder = LiveRecorder(root, TestSupport.unsandboxedLaunch(root))
    private val actions = FakeActions()

    /** What the commands answered, by the call id the recording uses. */
    private val results = mutableMapOf<String, BashResult>()
    private val calls = mutableListOf<String>()
    private lateinit var recording: List<Pair<String, JsonElement?>>
    private var taskStartedAt = 0
    private lateinit var taskId: String
    private lateinit var panel: WavePanel

    init {
        fun run(command: String, background: Boolean = false) {
            val before = recorder.messages.size
            val result = recorder.bash(command, "test step", background)
            val callId = recorder.messages.drop(before).first { it.first == CoreNotifications.TOOL_STARTED }.second!!.asJsonObject.get("callId").asString
            results[command] = BashResult.from(result)
            calls += callId
        }
        run("printf '\\033[32mgreen\\033[0m plain\\n'; cd src")
        run("echo out; echo err >&2; exit 3")
        run("kill -TERM $$")
        run("seq 1 20000")
        run("cd / && echo left")
        run("sleep 30", background = true)
        run("sleep 45 & echo started")
        taskId = results.getValue("sleep 30").backgroundTaskId!!
        recorder.awaitNotification(CoreNotifications.TASK_STARTED)
        taskStartedAt = recorder.messages.size
        recorder.api.tasksStop(taskId).get(30, TimeUnit.SECONDS)
        recorder.awaitNotification(CoreNotifications.TASK_FINISHED)
        recording = recorder.recording()
        panel = onEdt { WavePanel(object : HostServices {}, actions, onRun = {}, onRetry = {}) }
    }

    @AfterAll
    fun cleanup() {
        recorder.close()
        onEdt { panel.feed.cards().forEach { it.dispose() }; panel.tasks.dispose() }
        results.values.mapNotNull { it.outputPath }.forEach { Files.deleteIfExists(Paths.get(it)) }
        TestSupport.deleteTree(root)
    }

    private fun played(upTo: Int = recording.size): WavePanel {
        onEdt { panel.feed.clear() }
        RecordedSession.play(panel, recording.take(upTo))
        return panel
    }

    private fun card(i: Int) = panel.feed.card(calls[i]) as BashCard
    private fun labels(c: BashCard) = c.footer.texts()

    @Test
    fun `every call becomes one Bash card, in order, with the command line and description`() {
        played()
        onEdt {
            assertEquals(calls, panel.feed.cards().map { it.callId })
            assertEquals("cd / && echo left", card(4).command)
            assertEquals("test step", card(4).description)
            assertTrue(panel.feed.cards().none { it.isRunning })
        }
    }

    @Test
    fun `BASH-CWD the card shows the core's notices, and the cwd notifications add no extra lines`() {
        played()
        onEdt {
            assertTrue(labels(card(0)).contains("Shell working directory changed to $root/src"), labels(card(0)).toString())
            assertTrue(labels(card(4)).contains("Shell cwd was reset to $root"), labels(card(4)).toString())
            assertEquals(1, panel.feed.find<JLabel> { it.text?.startsWith("Shell ") == true && it.text.endsWith("$root/src") }.size + panel.feed.find<TextBlock> { it.plainText.startsWith("Shell ") && it.plainText.endsWith("$root/src") }.size)
            assertTrue(recording.count { it.first == CoreNotifications.SESSION_CWD_CHANGED } >= 2, "the core announced both moves")
        }
    }

    @Test
    fun `ANSI colours in real output are rendered, exit codes and signals show on the card`() {
        played()
        onEdt {
            val green = card(0)
            assertEquals("green plain", green.output!!.plainText)
            val attrs = green.output!!.styledDocument.getCharacterElement(0).attributes
            assertEquals(WaveTheme.current.ansi[2], javax.swing.text.StyleConstants.getForeground(attrs))
            assertEquals("Exit 0", green.statusLabel.text)

            val failed = card(1)
            assertEquals("Exit 3", failed.statusLabel.text)
            assertEquals(WaveTheme.current.error, failed.statusLabel.foreground)
            assertEquals("out\nerr", failed.output!!.plainText)

            val killed = card(2)
            assertEquals("Killed by SIGTERM", killed.statusLabel.text)
            assertNull(killed.output, "it printed nothing")
        }
    }

    @Test
    fun `truncated output offers the real output file, which holds everything, and shows people how much was left out`() {
        played()
        val r = results.getValue("seq 1 20000")
        val file = Paths.get(r.outputPath!!)
        assertTrue(Files.isRegularFile(file), "the core keeps a truncated command's file")
        onEdt {
            val c = card(3)
            val link = c.footer.find<LinkLabel>().single()
            assertEquals("Show All", link.text)
            assertEquals(file.toString(), link.toolTipText)
            link.click()
            assertEquals("open $file", actions.log.last())
            val text = c.output!!.plainText
            // The core's line for the model ("[… N bytes omitted. Full output …: path — read it with …]") is replaced.
            assertFalse(text.contains("bytes omitted") || text.contains("read it with") || text.contains(file.toString()), "the model's note is not shown")
            val marker = text.indexOf("⋯ ")
            val omitted = BashCard.Omission.find(r.output)!!.omittedBytes
            // The card shows the head and the tail; one note says what is between, the core's cut included.
            assertTrue(marker > 0 && text.substring(marker).startsWith("⋯ ") && text.contains(" lines and ${Format.bytes(omitted)} not shown ⋯"), "the cut is marked between head and tail: $text")
            assertTrue(text.lines().first() == "1" && text.endsWith("19999\n20000"), text)
            val noteStyle = c.output!!.styledDocument.getCharacterElement(marker + 2).attributes
            assertEquals(WaveTheme.current.secondary, javax.swing.text.StyleConstants.getForeground(noteStyle))
            assertTrue(javax.swing.text.StyleConstants.isItalic(noteStyle), "shown as a note, not as output")
            assertFalse(javax.swing.text.StyleConstants.isItalic(c.output!!.styledDocument.getCharacterElement(0).attributes))
            // The figure is the core's own (its marker's byte count), about what the head and tail leave out.
            val coreFigure = Regex("""\[… ([\d,]+) bytes omitted""").find(r.output)!!.groupValues[1].replace(",", "").toLong()
            assertEquals(coreFigure, omitted)
            val kept = r.output.replace(Regex("""\n\n\[… [^\]]*]\n\n"""), "").toByteArray(Charsets.UTF_8).size
            assertTrue(kotlin.math.abs(r.outputBytes - kept - omitted) < 64, "within the marker's own length of the bytes not shown")
        }
        assertEquals(r.outputBytes, Files.size(file))
        assertTrue(Files.readString(file).endsWith("19999\n20000\n"))
    }

    @Test
    fun `processes a command left running are listed with the output file they still write to`() {
        played()
        val r = results.getValue("sleep 45 & echo started")
        val survivor = r.survivors.single()
        assertEquals("sleep 45", survivor.command)
        assertTrue(ProcessHandle.of(survivor.pid).isPresent, "it still runs until the session ends")
        onEdt {
            val c = card(6)
            assertEquals("started", c.output!!.plainText)
            val left = c.footer.find<TextBlock>().single { it.plainText.startsWith("Left running: ") }
            assertEquals("Left running: sleep 45", left.plainText)
            assertEquals("sleep 45 (process ${survivor.pid})", left.toolTipText)
            assertEquals(Tone.WARNING, left.tone)
            val link = c.footer.find<LinkLabel>().single()
            assertEquals("Open Output File", link.text)
            link.click()
            assertEquals("open ${r.outputPath}", actions.log.last())
        }
        assertTrue(Files.isRegularFile(Paths.get(r.outputPath!!)), "the core keeps the file while survivors may write to it")
    }

    @Test
    fun `BASH-BG-6 the tasks view follows task-started and task-finished`() {
        played(upTo = taskStartedAt)
        onEdt {
            val row = panel.tasks.row(taskId)!!
            assertTrue(row.task.isRunning)
            assertEquals("Running", row.state.text)
            assertTrue(row.stop.isVisible)
            assertEquals("Background tasks · 1 running", panel.tasks.title.text)
            assertTrue(labels(card(5)).contains("Runs in the background"), labels(card(5)).toString())
        }
        RecordedSession.play(panel, recording.drop(taskStartedAt))
        onEdt {
            val row = panel.tasks.row(taskId)!!
            assertEquals("killed", row.task.status)
            assertEquals("Stopped", row.state.text)
            assertEquals(CallState.STOPPED, row.dot.state)
            assertFalse(row.stop.isVisible)
            assertEquals("Background tasks", panel.tasks.title.text)
        }
    }

    @Test
    fun `the status line shows the recorded probe state of a core started with the probe off`() {
        played()
        val status: EnvStatus = Json.decode(recording.first { it.first == CoreNotifications.ENV_STATUS_CHANGED }.second)
        onEdt {
            assertEquals("IDE environment", panel.statusLine.envLabel.text)
            assertEquals(Tone.SECONDARY, panel.statusLine.envLabel.tone, "turned off on purpose is not an error")
            assertEquals(status.reason, panel.statusLine.envLabel.toolTipText)
        }
        assertNotNull(status.reason)
    }

    @Test
    fun `BASH-ENV the status line shows the real env-status of a core that probed a fake home`() {
        val home = Files.createTempDirectory("wave-home-").toRealPath()
        val workspace = TestSupport.workspace()
        Files.writeString(home.resolve(".bash_profile"), "export PATH=\"\$HOME/bin:\$PATH\"\n")
        val launch = TestSupport.launchWithProbe(workspace, home)
        try {
            LiveRecorder(workspace, launch).use { live ->
                live.awaitNotification(CoreNotifications.ENV_STATUS_CHANGED)
                val status = live.api.envStatus().get(10, TimeUnit.SECONDS)
                assertEquals(listOf("ok", "/bin/bash", listOf("PATH")), listOf(status.state, status.shell, status.adoptedKeys))
                val line = onEdt { StatusLine().apply { showEnv(status) } }
                assertEquals("bash login environment", line.envLabel.text)
                assertEquals("Adopted: PATH\nLoaded in ${Format.duration(status.durationMs!!)}.", line.envLabel.toolTipText)
                assertEquals(Tone.SECONDARY, line.envLabel.tone)
            }
        } finally {
            TestSupport.deleteTree(home)
            TestSupport.deleteTree(workspace)
        }
    }

    @Test
    fun `a command the core could not start shows why on its card`() {
        val workspace = TestSupport.workspace()
        try {
            LiveRecorder(workspace, TestSupport.launchWithoutProbe(workspace, mapOf("WAVE_SHELL" to "/nowhere/bash"))).use { live ->
                val r = BashResult.from(live.bash("echo hi"))
                assertTrue(r.isError && !r.success && r.exitCode == null && r.output.isEmpty(), r.toString())
                assertTrue(r.error!!.startsWith("WAVE_SHELL is set to \"/nowhere/bash\""), r.error)
                val p = onEdt { WavePanel(object : HostServices {}, FakeActions(), onRun = {}, onRetry = {}) }
                RecordedSession.play(p, live.recording())
                onEdt {
                    val c = p.feed.cards().single() as BashCard
                    assertEquals("No shell found", c.statusLabel.text)
                    assertEquals(WaveTheme.current.error, c.statusLabel.foreground)
                    assertNull(c.output)
                    assertTrue(c.find<TextBlock> { it.plainText == r.error && it.tone == Tone.ERROR }.isNotEmpty(), "the reason is on the card")
                }
            }
        } finally {
            TestSupport.deleteTree(workspace)
        }
    }
}
