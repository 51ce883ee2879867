package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * What a person watching sees while a command runs, on the real bundled core: the card shows what
 * the command printed so far, read from the file `tool/output` names (off the UI thread), and the
 * final result replaces it; the model's answer is still the whole output once, at the end. And the
 * feed stays bounded however many calls come.
 */
class LiveOutputTest {
    private val root: Path = TestSupport.workspace()
    private val supervisor = CoreSupervisor(
        launch = { TestSupport.launchWithoutProbe(root) },
        initializeParams = { InitializeParams(hostInfo = HostInfo("kotlin-ui-test"), workspaceRoot = root.toString()) },
        log = RecordingLog(),
    )
    private var maxCards = SessionFeed.DEFAULT_MAX_CARDS
    private val controller = onEdt { WaveController(supervisor, object : HostServices {}, maxCards = { maxCards }) }

    @AfterEach
    fun cleanup() {
        onEdt { controller.dispose() }
        supervisor.close()
        TestSupport.deleteTree(root)
    }

    @Test
    fun `BASH-FG-3 a command printing for 3 s shows its output in the card before it ends, then the result once - the model's answer is whole at the end`() {
        controller.startAndAwaitReady(supervisor)
        val call = supervisor.requireApi().runBash(dev.wavetools.wave.bridge.BashRequest("for i in 1 2 3; do echo tick-\$i; sleep 1; done; echo done", description = "count"))
        val card = waitCard(call.callId)
        // The first lines are on screen while the command still runs.
        waitForUi({ "live: ${card.liveOutput?.plainText}, running ${card.isRunning}" }) { card.liveOutput?.plainText?.startsWith("tick-1") == true }
        onEdt {
            assertTrue(card.isRunning, "shown before the command ended")
            assertFalse(call.result.isDone, "the model has nothing yet (BASH-FG-3)")
            assertEquals(CallState.RUNNING, card.statusIcon.state)
            assertTrue(card.body.isAncestorOf(card.liveOutput), "in the card's body")
        }
        // It follows the file as the command prints more.
        waitForUi({ "live: ${card.liveOutput?.plainText}" }) { card.liveOutput?.plainText?.contains("tick-2") == true || !card.isRunning }
        val result = call.result.get(30, TimeUnit.SECONDS)
        assertEquals("tick-1\ntick-2\ntick-3\ndone\n", dev.wavetools.wave.bridge.BashResult.from(result).output)
        waitForUi({ "still running" }) { !card.isRunning }
        onEdt {
            assertNull(card.liveOutput, "the result replaced the live view")
            assertEquals("tick-1\ntick-2\ntick-3\ndone", (card as BashCard).output!!.plainText)
            assertEquals(CallState.PASSED, card.statusIcon.state)
        }
    }

    @Test
    fun `RSC a running run_shell_command shows its stdout and stderr as it prints them, before it ends`() {
        controller.startAndAwaitReady(supervisor)
        val call = supervisor.requireApi().callTool("run_shell_command", mapOf("command" to "echo out-1; echo err-1 >&2; sleep 3; echo out-2"))
        val card = waitCard(call.callId) as ShellCommandCard
        waitForUi({ "live: ${card.tail?.plainText}" }) { card.tail?.plainText == "out-1\n[stderr]\nerr-1" }
        onEdt {
            assertTrue(card.isRunning && !call.result.isDone, "shown before the command ended")
            assertTrue(card.followsFile, "read from the files tool/output names, not from the once-a-second progress tails")
        }
        call.result.get(30, TimeUnit.SECONDS)
        waitForUi({ "still running" }) { !card.isRunning }
        onEdt { assertEquals("out-1\nout-2", card.output!!.plainText) }
    }

    @Test
    fun `the feed keeps at most the configured number of cards - the oldest finished go, a line says how many`() {
        maxCards = 3
        controller.startAndAwaitReady(supervisor)
        val api = supervisor.requireApi()
        val ids = (1..5).map { api.callTool("Read", mapOf("file_path" to "notes.txt")).also { it.result.get(30, TimeUnit.SECONDS) }.callId }
        waitForUi({ "cards: ${controller.panel.feed.cards().map { it.callId }}" }) { controller.panel.feed.cards().map { it.callId } == ids.takeLast(3) && controller.panel.feed.cards().none { it.isRunning } }
        onEdt {
            val feed = controller.panel.feed
            assertEquals(2, feed.removedCards)
            assertEquals(3, feed.components.count { it is CardPanel })
            assertTrue(feed.find<TextBlock>().any { it.plainText == "2 earlier cards were removed: the feed keeps the last 3." })
        }
        // A call that runs is never the one to go, however old.
        val long = api.runBash(dev.wavetools.wave.bridge.BashRequest("sleep 30", description = "long"))
        waitForUi({ "no card for the long call" }) { controller.panel.feed.card(long.callId) != null }
        repeat(3) { api.callTool("Read", mapOf("file_path" to "notes.txt")).result.get(30, TimeUnit.SECONDS) }
        waitForUi({ "cards: ${controller.panel.feed.cards().map { it.callId }}" }) { controller.panel.feed.cards().size == 3 && controller.panel.feed.cards().count { it.isRunning } == 1 }
        onEdt {
            assertTrue(controller.panel.feed.card(long.callId)!!.isRunning, "the running call stayed")
            // Clear All takes what is finished and leaves what runs.
            controller.panel.feed.clear()
            assertEquals(listOf(long.callId), controller.panel.feed.cards().map { it.callId })
        }
        long.cancel()
    }

    /** The call's card, once the UI thread made it from `tool/started`. */
    private fun waitCard(callId: String): CommandCard {
        waitForUi({ "no card for $callId" }) { controller.panel.feed.card(callId) != null }
        return onEdt { controller.panel.feed.card(callId) as CommandCard }
    }
}
