package dev.wavetools.wave.ide

import com.intellij.openapi.actionSystem.AnActionEvent
import com.intellij.openapi.actionSystem.Presentation
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.ui.CompactCard
import dev.wavetools.wave.ui.HostServices
import dev.wavetools.wave.ui.OutputPane
import dev.wavetools.wave.ui.SessionFeed
import dev.wavetools.wave.ui.WaveBundle
import dev.wavetools.wave.ui.WaveController
import dev.wavetools.wave.ui.WavePanel
import dev.wavetools.wave.ui.find
import dev.wavetools.wave.ui.layoutTree
import dev.wavetools.wave.ui.onEdt
import dev.wavetools.wave.ui.startAndAwaitReady
import dev.wavetools.wave.ui.waitForUi
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.awt.Dimension
import java.nio.file.Path
import java.util.concurrent.atomic.AtomicInteger

/**
 * The tool window's toolbar actions and its settings, as the IDE builds them (the registered
 * actions, the controller of [toolWindowController]) on the real bundled core.
 */
class ToolbarActionsTest {
    private val root: Path = TestSupport.workspace()
    private val supervisor = CoreSupervisor(
        launch = { TestSupport.launchWithoutProbe(root) },
        initializeParams = { InitializeParams(hostInfo = HostInfo("kotlin-toolbar-test"), workspaceRoot = root.toString()) },
        log = RecordingLog(),
    )
    private val settingsOpened = AtomicInteger()
    private var cap = SessionFeed.DEFAULT_MAX_CARDS
    private val settings = object : ToolWindowSettings {
        override val defaultTimeoutMs: Long? get() = null
        override val maxCards: Int get() = cap
    }
    private val controller: WaveController = onEdt {
        toolWindowController(supervisor, object : HostServices {
            override fun openSettings() { settingsOpened.incrementAndGet() }
        }, settings, permissions = null, agents = null).also { it.attach() }
    }
    private val lookup = ControllerLookup { controller }

    /** What the platform hands an action: here only its presentation, which update() writes. */
    private fun event() = object : AnActionEvent() {
        private val presentation = Presentation()
        override fun getPresentation() = presentation
    }

    @AfterEach
    fun cleanup() {
        onEdt { controller.dispose() }
        supervisor.close()
        TestSupport.deleteTree(root)
    }

    /** A Read by the core: a finished card in the project's feed. */
    private fun read(): String {
        val call = supervisor.requireApi().callTool("Read", mapOf("file_path" to "notes.txt"))
        call.result.get()
        waitForUi({ "cards: ${controller.panel.feed.cards().map { it.callId }}" }) { controller.panel.feed.card(call.callId)?.isRunning == false }
        return call.callId
    }

    @Test
    fun `Clear All removes the finished cards and is disabled on an empty feed`() {
        controller.startAndAwaitReady(supervisor)
        val clear = ClearAllAction(lookup)
        onEdt {
            val e = event()
            clear.update(e)
            assertFalse(e.presentation.isEnabled, "nothing to clear")
        }
        read()
        read()
        onEdt {
            val e = event()
            clear.update(e)
            assertTrue(e.presentation.isEnabled)
            clear.actionPerformed(e)
            assertTrue(controller.panel.feed.isEmpty, "cards left: ${controller.panel.feed.cards().map { it.callId }}")
            clear.update(e)
            assertFalse(e.presentation.isEnabled)
        }
    }

    @Test
    fun `Soft-Wrap toggles wrapping for every card at once and shows its state`() {
        controller.startAndAwaitReady(supervisor)
        val id = read()
        val wrap = SoftWrapAction(lookup)
        onEdt {
            val card = controller.panel.feed.card(id) as CompactCard
            card.setExpanded(true)
            val output = card.find<OutputPane>().single()
            val e = event()
            assertTrue(wrap.isSelected(e), "wrapped by default")
            assertTrue(output.softWrap)
            // What the platform's ToggleAction.actionPerformed does: setSelected(e, !isSelected(e)).
            wrap.setSelected(e, !wrap.isSelected(e))
            assertFalse(wrap.isSelected(e))
            assertFalse(controller.panel.softWrap.enabled)
            assertFalse(output.softWrap, "the card on screen follows")
            wrap.setSelected(e, false)
            assertFalse(controller.panel.softWrap.enabled, "setting the state it has changes nothing")
            wrap.setSelected(e, true)
            assertTrue(output.softWrap)
        }
    }

    @Test
    fun `Scroll to End shows the newest card, and Settings opens the settings page`() {
        controller.startAndAwaitReady(supervisor)
        repeat(10) { read() }
        val scroll = ScrollToEndAction(lookup)
        onEdt {
            val panel = controller.panel
            layoutTree(panel, Dimension(400, 300))
            val viewport = panel.feedScroll.viewport
            assertTrue(panel.feed.height > viewport.extentSize.height, "the feed is taller than the window: ${panel.feed.height}")
            viewport.viewPosition = java.awt.Point(0, 0)
            scroll.actionPerformed(event())
        }
        // The feed scrolls once its layout has settled (a later turn of the UI thread).
        waitForUi({ "scrolled to ${controller.panel.feedScroll.viewport.viewPosition.y}" }) {
            val viewport = controller.panel.feedScroll.viewport
            viewport.viewPosition.y + viewport.extentSize.height >= controller.panel.feed.height
        }
        val settingsAction = WaveSettingsAction(lookup)
        onEdt { settingsAction.actionPerformed(event()) }
        assertEquals(1, settingsOpened.get())
    }

    @Test
    fun `without a tool window the actions are disabled and do nothing`() {
        val none = ControllerLookup { null }
        onEdt {
            for (action in listOf(ClearAllAction(none), ScrollToEndAction(none), WaveSettingsAction(none))) {
                val e = event()
                action.update(e)
                assertFalse(e.presentation.isEnabled)
                action.actionPerformed(e)
            }
            val wrap = SoftWrapAction(none)
            assertFalse(wrap.isSelected(event()))
            wrap.setSelected(event(), true)
        }
        assertEquals(0, settingsOpened.get())
    }

    @Test
    fun `the toolbar's actions are the panel's, with the same ids and texts`() {
        assertEquals(PlatformToolbars.ACTION_IDS, onEdt { controller.panel.toolbarActions.map { it.id } })
        onEdt {
            for (a in controller.panel.toolbarActions) assertEquals(WaveBundle.message("action.${a.id}.text"), a.text)
        }
        val ids = Regex("""<action id="([^"]+)" class="dev\.wavetools\.wave\.ide\.(\w+)"""")
            .findAll(java.nio.file.Files.readString(Path.of(System.getProperty("wave.repoRoot"), "plugin-kotlin/src/main/resources/META-INF/plugin.xml")))
            .associate { it.groupValues[1] to it.groupValues[2] }
        assertEquals(
            mapOf(WavePanel.SOFT_WRAP to "SoftWrapAction", WavePanel.SCROLL_TO_END to "ScrollToEndAction", WavePanel.CLEAR_ALL to "ClearAllAction", WavePanel.SETTINGS to "WaveSettingsAction"),
            ids.filterKeys { it in PlatformToolbars.ACTION_IDS },
            "plugin.xml registers each toolbar action under the panel's id",
        )
    }

    @Test
    fun `the cap from Settings reaches the feed - it keeps that many cards, and a stored value out of range is brought into it`() {
        cap = 3
        controller.startAndAwaitReady(supervisor)
        val ids = (1..5).map { read() }
        onEdt {
            assertEquals(ids.takeLast(3), controller.panel.feed.cards().map { it.callId }, "the oldest finished cards went")
            assertTrue(controller.panel.feed.removedCards > 0)
        }
        // A later change applies to the next card, without a new tool window.
        cap = 4
        val more = (1..2).map { read() }
        onEdt { assertEquals((ids.takeLast(2) + more), controller.panel.feed.cards().map { it.callId }) }

        assertEquals(SessionFeed.DEFAULT_MAX_CARDS, WaveSettings.feedCap(SessionFeed.DEFAULT_MAX_CARDS), "the default is today's")
        assertTrue(SessionFeed.DEFAULT_MAX_CARDS in WaveSettings.MAX_CARDS_RANGE)
        assertEquals(WaveSettings.MAX_CARDS_RANGE.first, WaveSettings.feedCap(0))
        assertEquals(WaveSettings.MAX_CARDS_RANGE.last, WaveSettings.feedCap(1_000_000))
    }
}
