package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Path

/** The tool window's controller on the real bundled core: what the core does shows up as cards. */
class ControllerTest {
    private val root: Path = TestSupport.workspace()
    private val supervisor = CoreSupervisor(
        launch = { TestSupport.launchWithoutProbe(root) },
        initializeParams = { InitializeParams(hostInfo = HostInfo("kotlin-ui-test"), workspaceRoot = root.toString()) },
        log = RecordingLog(),
    )
    private val opened = mutableListOf<String>()
    private val controller = onEdt {
        WaveController(supervisor, object : HostServices {
            override fun openFile(path: String, line: Int?) { opened += "$path:$line" }
        })
    }

    @AfterEach
    fun cleanup() {
        onEdt { controller.dispose() }
        supervisor.close()
        TestSupport.deleteTree(root)
    }

    @Test
    fun `HOST-1 a call the core runs becomes a finished card, and the status line says ready`() {
        startReady()
        assertTrue(onEdt { controller.panel.input.field.isEnabled })
        waitForUi({ "env: ${controller.panel.statusLine.envLabel.text}" }) {
            controller.panel.statusLine.envLabel.text == "IDE environment"
        }

        val call = supervisor.requireApi().callTool("Read", mapOf("file_path" to "notes.txt"))
        call.result.get()
        waitForUi({ "cards: ${controller.panel.feed.cards().map { it.callId }}" }) { controller.panel.feed.card(call.callId)?.isRunning == false }
        onEdt {
            val card = controller.panel.feed.card(call.callId) as CompactCard
            assertTrue(card.summaryLabel.text.contains("notes.txt") && card.summaryLabel.text.endsWith("lines 1–3 of 3"), card.summaryLabel.text)
            card.setExpanded(true)
            card.linkFor("     2\tsecond line")!!.let { (p, l) -> controller.openFile(p, l) }
        }
        assertEquals(listOf("${root.resolve("notes.txt")}:2"), opened)
    }

    private fun startReady() {
        controller.startAndAwaitReady(supervisor)
    }

    /** Types [command] into the bash-mode line and presses Enter; returns the card the core's call became. */
    private fun type(command: String): BashCard {
        val before = onEdt { controller.panel.feed.cards().size }
        onEdt {
            controller.panel.input.field.text = command
            controller.panel.input.submit()
        }
        waitForUi({ "no card for $command: ${controller.panel.feed.cards().map { it.callId }}" }) { controller.panel.feed.cards().size > before }
        return onEdt { controller.panel.feed.cards().last() as BashCard }
    }

    private fun finished(card: BashCard): BashCard {
        waitForUi({ "still running: ${card.command}" }) { !card.isRunning }
        return card
    }

    @Test
    fun `bash-mode input runs through the core's Bash tool - same runner, environment and session cwd`() {
        startReady()
        val cd = finished(type("cd src && echo \"run=\${WAVE_RUN_ID:+set} pager=\$PAGER\""))
        onEdt {
            assertEquals("cd src && echo \"run=\${WAVE_RUN_ID:+set} pager=\$PAGER\"", cd.command)
            assertEquals("Typed in the Wave tool window", cd.description)
            assertEquals("run=set pager=cat", cd.output!!.plainText, "the core's runner sets its marker and turns pagers off")
            assertEquals("Exit 0", cd.statusLabel.text)
            assertTrue(cd.footer.texts().contains("Shell working directory changed to $root/src"))
        }
        val pwd = finished(type("pwd; exit 4"))
        onEdt {
            assertEquals("$root/src", pwd.output!!.plainText, "the next typed command starts where the last one left the session")
            assertEquals("Exit 4", pwd.statusLabel.text)
        }
    }

    @Test
    fun `Ctrl+B and Stop in the tool window act on the command typed there`() {
        startReady()
        val slow = type("echo begun; sleep 30")
        waitForUi({ "no controls" }) { slow.moveAction.isEnabled }
        assertTrue(onEdt { controller.moveLatestToBackground() })
        finished(slow)
        val taskId = onEdt { slow.result!!.backgroundTaskId!! }
        onEdt {
            assertEquals("In background", slow.statusLabel.text)
            assertTrue(slow.result!!.backgroundedByUser)
        }
        waitForUi({ "no task row" }) { controller.panel.tasks.row(taskId)?.task?.isRunning == true }
        onEdt { controller.panel.tasks.row(taskId)!!.stop.click() }
        waitForUi({ "task still running: ${controller.panel.tasks.row(taskId)?.state?.text}" }) { controller.panel.tasks.row(taskId)!!.task.status == "killed" }

        val stopped = type("echo begun; sleep 31")
        waitForUi({ "no controls" }) { stopped.stopAction.isEnabled }
        // Stop once the command has printed its first line: its `sleep` runs (seen in /proc by the core's marker).
        val marker = supervisor.process()!!.launch.instanceMarker
        TestSupport.eventually(message = { "sleep 31 never started" }) {
            // The sleep itself, not the shell whose `-c` text also ends with "sleep 31".
            TestSupport.commandProcesses(marker).keys.any { pid ->
                val info = ProcessHandle.of(pid).map { it.info() }
                info.flatMap { it.command() }.orElse("").endsWith("/sleep") && info.flatMap { it.arguments() }.map { it.toList() }.orElse(null) == listOf("31")
            }
        }
        assertTrue(onEdt { controller.stopLatest() })
        finished(stopped)
        onEdt {
            assertEquals("Interrupted", stopped.statusLabel.text)
            assertEquals("begun", stopped.output!!.plainText)
            assertFalse(controller.moveLatestToBackground(), "nothing is running any more")
        }
    }

    @Test
    fun `a command the core refuses is reported in the feed, not lost`() {
        // The settings page allows no negative timeout; a host that sent one gets -32602 from the core.
        val refusing = onEdt { WaveController(supervisor, object : HostServices {}, defaultTimeoutMs = { -1L }) }
        try {
            refusing.startAndAwaitReady(supervisor)
            onEdt { refusing.runBash("echo hi") }
            waitForUi({ "feed: ${refusing.panel.feed.find<TextBlock>().map { it.plainText }}" }) {
                refusing.panel.feed.find<TextBlock> { it.plainText.startsWith("Wave Tools did not run \"echo hi\"") && it.plainText.contains("timeout") }.isNotEmpty()
            }
            assertTrue(onEdt { refusing.panel.feed.cards().isEmpty() }, "a refused call never started")
        } finally {
            onEdt { refusing.dispose() }
        }
    }

    @Test
    fun `a core that cannot start shows the fallback panel with the reason`() {
        val failing = CoreSupervisor(
            launch = { throw dev.wavetools.wave.bridge.CoreLaunchException("Node.js 20 or newer was not found.", listOf("/x/node (settings): no executable file there"), dev.wavetools.wave.bridge.FailureKind.NODE_NOT_FOUND) },
            initializeParams = { InitializeParams() },
            log = RecordingLog(),
        )
        val c = onEdt { WaveController(failing, object : HostServices {}) }
        try {
            c.attach()
            failing.start()
            waitForUi({ "fallback not shown" }) { c.panel.showingFallback }
            onEdt {
                assertEquals(dev.wavetools.wave.bridge.FailureKind.NODE_NOT_FOUND, c.panel.fallback.kind)
                assertTrue(c.panel.fallback.reasonBlock.plainText.startsWith("Wave Tools needs Node.js 20 or newer"))
                assertTrue(c.panel.fallback.details!!.find<TextBlock>().single().plainText.contains("/x/node (settings): no executable file there"))
                assertTrue(failing.state is CoreState.Failed)
            }
        } finally {
            onEdt { c.dispose() }
            failing.close()
        }
    }

    @Test
    fun `the failure's kind decides between the fallback panel and the session, never the wording of its reason`() = onEdt {
        controller.showState(CoreState.Failed("Node.js printed something odd and the core exited", kind = dev.wavetools.wave.bridge.FailureKind.CRASHED))
        assertFalse(controller.panel.showingFallback, "a crash loop keeps the session (and its cards) on screen")
        controller.showState(CoreState.Failed("The project has no directory", kind = dev.wavetools.wave.bridge.FailureKind.NO_PROJECT_DIRECTORY))
        assertTrue(controller.panel.showingFallback)
        controller.showState(CoreState.Starting(1))
        assertFalse(controller.panel.showingFallback)
    }
}
