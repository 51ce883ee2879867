package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.BashRequest
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.PermissionBridge
import dev.wavetools.wave.bridge.PermissionModes
import dev.wavetools.wave.bridge.PermissionRulesChanged
import dev.wavetools.wave.bridge.PermissionSettings
import dev.wavetools.wave.bridge.PermissionStore
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.bridge.ToolCall
import dev.wavetools.wave.bridge.ToolErrorKind
import dev.wavetools.wave.bridge.CoreEvents
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/**
 * Permission questions end to end: the real core in its default `ask` mode, the bridge, the
 * controller and the approval card, answered by pressing the card's buttons.
 */
class ApprovalRoundTripTest {
    private val root: Path = TestSupport.workspace()

    /** The project's persisted rules, in memory. */
    private val store = object : PermissionStore {
        @Volatile
        var settings = PermissionSettings()
        val saves = CopyOnWriteArrayList<PermissionSettings>()
        override fun load() = settings
        override fun save(settings: PermissionSettings) {
            this.settings = settings
            saves += settings
        }
    }
    private val bridge = PermissionBridge(store, RecordingLog())
    private val supervisor = CoreSupervisor(
        launch = { TestSupport.askingLaunch(root) },
        initializeParams = { bridge.initializeParams(InitializeParams(hostInfo = HostInfo("kotlin-approval-test"), workspaceRoot = root.toString())) },
        log = RecordingLog(),
    ).also { bridge.attachTo(it) }
    private val rulesChanged = CopyOnWriteArrayList<PermissionRulesChanged>()
    private val controller = onEdt { WaveController(supervisor, object : HostServices {}, permissions = bridge) }

    @AfterEach
    fun cleanup() {
        onEdt { controller.dispose() }
        supervisor.close()
        TestSupport.deleteTree(root)
    }

    private fun start() {
        supervisor.addEventListener(object : CoreEvents {
            override fun permissionRulesChanged(event: PermissionRulesChanged) { rulesChanged += event }
        })
        controller.startAndAwaitReady(supervisor)
    }

    private fun bash(command: String): ToolCall = supervisor.requireApi().runBash(BashRequest(command, description = "approval test"))

    /** The open question about [command]. */
    private fun cardFor(command: String): ApprovalView {
        waitForUi({ "no question about $command: ${controller.panel.feed.approvals().map { it.model.subject }}" }) {
            controller.panel.feed.approvals().any { it.model.subject == command && it.model.isOpen }
        }
        return onEdt { controller.panel.feed.approvals().last { it.model.subject == command } }
    }

    @Test
    fun `allow once runs the command, and the card shows that it ran`() {
        start()
        val call = bash("printf allowed > allowed.txt")
        val card = cardFor("printf allowed > allowed.txt")
        onEdt {
            assertEquals(call.callId, card.model.prompt.callId)
            assertEquals(root.toString(), card.model.prompt.directory)
            // The question sits in its call's card (the core announces the call before it asks).
            val callCard = controller.panel.feed.card(call.callId)!!
            assertTrue(javax.swing.SwingUtilities.isDescendingFrom(card, callCard))
            assertEquals("Run this command?", card.titleBlock.plainText, "a command typed in this window is not the agent's")
        }
        assertFalse(Files.exists(root.resolve("allowed.txt")), "nothing runs before the answer")
        onEdt { card.allowOnceButton.doClick() }
        val result = call.result.get(60, TimeUnit.SECONDS)
        assertFalse(result.isError, result.text)
        assertEquals("allowed", Files.readString(root.resolve("allowed.txt")))
        // One state at a time: the question goes, the card says it ran and how it was allowed.
        val callCard = onEdt { controller.panel.feed.card(call.callId) as BashCard }
        waitForUi({ "card: ${callCard.statusLabel.text} ${callCard.footer.texts()}" }) { callCard.statusLabel.text == "Exit 0" && "Allowed once by you" in callCard.footer.texts() }
        onEdt { assertFalse(card.isVisible, "the answered question leaves the card") }
        assertTrue(store.saves.isEmpty(), "allow once remembers nothing")
    }

    @Test
    fun `deny runs nothing - no process and no file - and the model gets the person's message`() {
        start()
        val marker = supervisor.process()!!.launch.instanceMarker
        val call = bash("sleep 30 & touch denied.txt")
        val card = cardFor("sleep 30 & touch denied.txt")
        onEdt {
            card.denyButton.doClick()
            card.denyMessageField.text = "not now"
            card.sendDenyButton.doClick()
        }
        val result = call.result.get(60, TimeUnit.SECONDS)
        assertTrue(result.isError)
        assertTrue(result.text.contains("The user said: not now."), result.text)
        assertEquals(ToolErrorKind.DENIED_BY_USER, ToolErrorKind.of(result))
        assertFalse(Files.exists(root.resolve("denied.txt")))
        assertEquals(emptyMap<Long, String>(), TestSupport.commandProcesses(marker), "no command process was started")
        val callCard = onEdt { controller.panel.feed.card(call.callId) as BashCard }
        waitForUi({ "card: ${callCard.statusLabel.text}, ${card.outcomeBlock.plainText}" }) { callCard.statusLabel.text == "Denied" && card.outcomeBlock.plainText == "Told the agent: “not now”" }
    }

    @Test
    fun `always allow sends the edited rule, the core reports it, the project keeps it, and the next core starts with it`() {
        start()
        val first = bash("touch first.txt")
        val card = cardFor("touch first.txt")
        onEdt {
            card.alwaysAllowButton.doClick()
            assertEquals(listOf("touch:*"), card.model.prompt.suggestedRules)
            assertEquals("touch:*", card.rulesArea.text, "prefilled with the core's suggestion")
            // The person writes the rule their own way before saving it.
            card.rulesArea.text = "touch *"
            card.saveRulesButton.doClick()
        }
        assertFalse(first.result.get(60, TimeUnit.SECONDS).isError)
        assertTrue(Files.exists(root.resolve("first.txt")))
        TestSupport.eventually(message = { "no rulesChanged: $rulesChanged" }) { rulesChanged.isNotEmpty() }
        val change = rulesChanged.single()
        assertEquals(listOf("touch *"), change.allow)
        assertEquals("always-allow", change.change.type)
        TestSupport.eventually(message = { "not saved: ${store.saves}" }) { store.settings.allow == listOf("touch *") }

        // The same rule now allows without asking...
        assertFalse(bash("touch second.txt").result.get(60, TimeUnit.SECONDS).isError)
        // ...and so does a new core, which gets the persisted rules at initialize.
        supervisor.restart()
        controller.awaitReady()
        val state = supervisor.requireApi().permissionsList().get(30, TimeUnit.SECONDS)
        assertEquals(listOf("touch *"), state.allow.filter { it.source == "host" }.map { it.rule })
        assertTrue(state.canAsk)
        val third = bash("touch third.txt").result.get(60, TimeUnit.SECONDS)
        assertFalse(third.isError, third.text)
        assertEquals(1, onEdt { controller.panel.feed.approvals().size }, "only the first command asked")
    }

    @Test
    fun `the persisted mode is passed at start - deny-all refuses without asking, and the feed says so`() {
        store.settings = PermissionSettings(mode = PermissionModes.DENY_ALL)
        start()
        val state = supervisor.requireApi().permissionsList().get(30, TimeUnit.SECONDS)
        assertEquals(PermissionModes.DENY_ALL, state.mode)
        assertEquals("host", state.modeSource)
        val result = bash("touch never.txt").result.get(60, TimeUnit.SECONDS)
        assertTrue(result.isError)
        assertFalse(Files.exists(root.resolve("never.txt")))
        // The call's own card says it: denied by a rule, and the core's reason; no second card.
        waitForUi({ "feed: ${controller.panel.feed.find<TextBlock>().map { it.plainText }}" }) {
            controller.panel.feed.cards().singleOrNull()?.let { it is BashCard && it.statusLabel.text == "Denied by a rule" } == true
        }
        assertTrue(onEdt { controller.panel.feed.components.none { it is DecisionCard } })
        assertTrue(onEdt { controller.panel.feed.approvals().isEmpty() })
    }
}
