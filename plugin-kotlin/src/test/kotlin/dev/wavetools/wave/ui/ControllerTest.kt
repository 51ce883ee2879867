package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Path

/** The tool window's controller on the real bundled core: what the core does shows up as cards. */
class ControllerTest {
    private val root: Path = TestSupport.workspace()
    private val supervisor = CoreSupervisor(
        launch = { TestSupport.launch(root) },
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

    private fun waitForUi(message: () -> String, condition: () -> Boolean) =
        TestSupport.eventually(message = message) { onEdt(condition) }

    @Test
    fun `HOST-1 a call the core runs becomes a finished card, and the status line says ready`() {
        controller.attach()
        supervisor.start()
        waitForUi({ "status: ${controller.panel.statusLine.coreLabel.text}" }) { controller.panel.statusLine.coreLabel.text.endsWith(": ready") }
        assertTrue(onEdt { controller.panel.input.field.isEnabled })

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

    @Test
    fun `a command the core refuses is reported in the feed, not lost`() {
        controller.attach()
        supervisor.start()
        waitForUi({ "status: ${controller.panel.statusLine.coreLabel.text}" }) { controller.panel.statusLine.coreLabel.text.endsWith(": ready") }
        // An empty command is invalid: the core refuses the call with -32602, and the feed must say so.
        onEdt { controller.runBash("") }
        waitForUi({ "feed: ${controller.panel.feed.find<javax.swing.JLabel>().map { it.text }}" }) {
            controller.panel.feed.find<javax.swing.JLabel> { it.text?.startsWith("The core did not run \"\"") == true }.isNotEmpty()
        }
    }

    @Test
    fun `a core that cannot start shows the fallback panel with the reason`() {
        val failing = CoreSupervisor(
            launch = { throw dev.wavetools.wave.bridge.CoreLaunchException("Node.js 18 or newer was not found.", listOf("Tried:", "  • /x/node (settings): no executable file there")) },
            initializeParams = { InitializeParams() },
            log = RecordingLog(),
        )
        val c = onEdt { WaveController(failing, object : HostServices {}) }
        try {
            c.attach()
            failing.start()
            waitForUi({ "fallback not shown" }) { c.panel.showingFallback }
            onEdt {
                assertEquals("Node.js is needed to run Wave Tools", c.panel.fallback.titleLabel.text)
                assertTrue(c.panel.fallback.details.text.contains("/x/node (settings): no executable file there"))
                assertTrue(failing.state is CoreState.Failed)
            }
        } finally {
            onEdt { c.dispose() }
            failing.close()
        }
    }
}
