package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.McpAgent
import dev.wavetools.wave.bridge.TestSupport
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * Attached agents in the tool window, end to end: the real core listening for agents (as the plugin
 * starts it), a real `wave-core mcp --attach` agent, the controller and its tabs, driven by pressing
 * the cards' buttons.
 */
class AgentTabsTest {
    private val window = AgentWindow()
    private val core = window.core
    private val root: Path = core.root
    private val supervisor = window.supervisor
    private val controller = window.controller

    @AfterEach
    fun cleanup() = window.close()

    private fun agent(): McpAgent = window.agent()

    private fun tab(): AgentTab = window.tab()

    private fun cardIn(tab: AgentTab, command: String): BashCard {
        waitForUi({ "cards in the agent's tab: ${tab.feed.cards().map { it.started.arguments }}" }) {
            tab.feed.cards().any { it.started.arguments?.get("command")?.asString == command }
        }
        return onEdt { tab.feed.cards().last { it.started.arguments?.get("command")?.asString == command } as BashCard }
    }

    private fun allowOnce(tab: AgentTab, command: String) {
        waitForUi({ "no open approval for $command in the agent's tab" }) { tab.feed.approvals().any { it.model.subject == command && it.model.isOpen } }
        onEdt { tab.feed.approvals().last { it.model.subject == command }.allowOnceButton.doClick() }
    }

    @Test
    fun `an agent gets its own tab with its name, its calls land there, and the tab says when it left`() {
        controller.startAndAwaitReady(supervisor)
        onEdt {
            assertFalse(controller.panel.sessions.strip.isVisible, "no tabs before an agent attaches")
            assertEquals(WaveBundle.message("status.agents.none"), controller.panel.statusLine.agentsLabel.text)
        }
        val a = agent()
        val tab = tab()
        onEdt {
            assertTrue(controller.panel.sessions.strip.isVisible)
            assertEquals(listOf(WaveBundle.message("agents.projectTab"), "kotlin-test-agent"), controller.panel.sessions.strip.tabs().map { it.title })
            assertTrue(tab.connected)
            assertTrue(controller.panel.sessions.strip.tab(tab.sessionId)!!.toolTipText.contains("kotlin-test-agent 7.8.9"))
            assertEquals(WaveBundle.message("status.agents.one"), controller.panel.statusLine.agentsLabel.text)
        }

        val call = a.callTool("Read", mapOf("file_path" to "notes.txt"))
        assertFalse(call.get(30, TimeUnit.SECONDS).get("isError").asBoolean)
        waitForUi({ "the Read card" }) { tab.feed.cards().any { it.started.name == "Read" && !it.isRunning } }
        onEdt { assertTrue(controller.panel.feed.cards().isEmpty(), "the project's own feed stays empty") }

        a.close()
        waitForUi({ "the tab still says connected" }) { !tab.connected }
        onEdt {
            assertTrue(tab.closedBanner.plainText.startsWith("kotlin-test-agent disconnected at "), tab.closedBanner.plainText)
            assertEquals(WaveBundle.message("status.agents.none"), controller.panel.statusLine.agentsLabel.text)
            tab.closeLink.click()
            assertTrue(controller.panel.sessions.agents().isEmpty())
            assertFalse(controller.panel.sessions.strip.isVisible)
        }
        assertTrue(core.agents.snapshot().isEmpty(), "closing the tab forgets the agent")
    }

    @Test
    fun `session tabs - one entry per session, a question on a hidden tab badges it and is announced while the window shows, a tab closes once its agent left`() {
        controller.startAndAwaitReady(supervisor)
        val model = onEdt { controller.panel.sessions.model }
        val announced = java.util.concurrent.CopyOnWriteArrayList<String>()
        onEdt {
            model.addListener(object : SessionTabsModel.Listener {
                override fun announce(entry: SessionTabsModel.Entry, question: ApprovalModel) { announced += "${entry.title}: ${question.subject}" }
            })
            assertEquals(listOf(SessionTabsModel.PROJECT), model.entries.map { it.key })
            assertTrue(model.isSelected(null))
        }
        val a = agent()
        val tab = tab()
        onEdt {
            assertEquals(listOf(SessionTabsModel.PROJECT, tab.sessionId), model.entries.map { it.key })
            assertEquals(listOf("This Project", "kotlin-test-agent"), model.entries.map { it.title })
            assertFalse(model.entry(tab.sessionId)!!.closable, "an agent still there cannot be closed")
            assertFalse(model.close(tab.sessionId))
            assertEquals(SessionTabsModel.PROJECT, model.selected!!.key, "the project's tab stays selected")
            // The panel outside the IDE shows the same, as one row.
            assertTrue(controller.panel.sessions.strip.isVisible)
        }
        val call = a.callTool("Bash", mapOf("command" to "touch asked.txt", "dangerouslyDisableSandbox" to true))
        waitForUi({ "entries: ${model.entries}" }) { model.entry(tab.sessionId)!!.pendingApprovals == 1 }
        onEdt {
            assertEquals(listOf("kotlin-test-agent: touch asked.txt"), announced.toList(), "the person is told: the question is on a tab they do not see")
            assertFalse(model.isSelected(tab.sessionId), "its card is not on screen even while the window shows (ide/ApprovalBalloons raises a balloon)")
            assertTrue(model.isSelected(null), "the project's own tab is on screen")
            assertTrue(controller.panel.sessions.strip.tab(tab.sessionId)!!.badge.isVisible, "the tab carries the badge")
            assertTrue(controller.panel.sessions.strip.tab(tab.sessionId)!!.toolTipText!!.contains("1 question waits for your answer"))
            assertEquals("kotlin-test-agent (1 waiting)", controller.panel.sessions.strip.tab(tab.sessionId)!!.title, "the count in its title")
            model.select(tab.sessionId)
            assertTrue(model.isSelected(tab.sessionId))
        }
        allowOnce(tab, "touch asked.txt")
        assertFalse(call.get(60, TimeUnit.SECONDS).get("isError").asBoolean)
        waitForUi({ "entries: ${model.entries}" }) { model.entry(tab.sessionId)!!.pendingApprovals == 0 }
        onEdt { assertFalse(controller.panel.sessions.strip.tab(tab.sessionId)!!.badge.isVisible) }
        // A question on the selected tab is on screen: nothing to announce.
        val second = a.callTool("Bash", mapOf("command" to "touch seen.txt", "dangerouslyDisableSandbox" to true))
        waitForUi({ "entries: ${model.entries}" }) { model.entry(tab.sessionId)!!.pendingApprovals == 1 }
        onEdt { assertEquals(1, announced.size) }
        allowOnce(tab, "touch seen.txt")
        second.get(60, TimeUnit.SECONDS)

        a.close()
        waitForUi({ "entries: ${model.entries}" }) { model.entry(tab.sessionId)?.closable == true }
        onEdt {
            assertTrue(controller.panel.sessions.strip.tab(tab.sessionId)!!.closeButton.isVisible)
            assertTrue(model.close(tab.sessionId), "closed from its tab")
            assertEquals(listOf(SessionTabsModel.PROJECT), model.entries.map { it.key })
            assertEquals(SessionTabsModel.PROJECT, model.selected!!.key)
        }
        assertTrue(core.agents.snapshot().isEmpty(), "closing the tab forgets the agent")
    }

    @Test
    fun `the agent's approval is a card in its tab, and Allow Once runs its command`() {
        controller.startAndAwaitReady(supervisor)
        val a = agent()
        val tab = tab()
        val call = a.callTool("Bash", mapOf("command" to "touch from-agent.txt", "dangerouslyDisableSandbox" to true, "description" to "make a file"))
        val card = cardIn(tab, "touch from-agent.txt")
        waitForUi({ "no approval in the card" }) { tab.feed.approvals().any { it.model.isOpen } }
        onEdt {
            val view = tab.feed.approvals().single()
            // The agent's question, not the person's own command.
            assertEquals(WaveBundle.message("approval.title.command"), view.titleBlock.plainText)
            assertTrue(card.waitingForApproval)
        }
        assertFalse(Files.exists(root.resolve("from-agent.txt")))
        allowOnce(tab, "touch from-agent.txt")
        assertFalse(call.get(60, TimeUnit.SECONDS).get("isError").asBoolean)
        assertTrue(Files.exists(root.resolve("from-agent.txt")))
        waitForUi({ "the card still runs" }) { !card.isRunning }
        onEdt { assertTrue(controller.panel.feed.approvals().isEmpty()) }
    }

    @Test
    fun `Move to Background on the agent's card answers its call with backgroundedByUser, and Stop leaves no process`() {
        controller.startAndAwaitReady(supervisor)
        val marker = supervisor.process()!!.launch.instanceMarker
        val a = agent()
        val tab = tab()

        val long = a.callTool("Bash", mapOf("command" to "touch long.txt; sleep 300", "dangerouslyDisableSandbox" to true))
        allowOnce(tab, "touch long.txt; sleep 300")
        val card = cardIn(tab, "touch long.txt; sleep 300")
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(marker)}" }) { TestSupport.commandProcesses(marker).isNotEmpty() }
        waitForUi({ "Move to Background is not offered" }) { card.moveAction.isEnabled }
        // Ctrl+B acts on the tab that shows: the agent's.
        onEdt {
            assertFalse(controller.moveLatestToBackground(), "nothing to move in the project's own tab")
            controller.panel.sessions.select(tab.sessionId)
            assertTrue(controller.moveLatestToBackground())
        }
        val result = long.get(30, TimeUnit.SECONDS).getAsJsonObject("structuredContent")
        assertTrue(result.get("backgroundedByUser").asBoolean, result.toString())
        val taskId = result.get("backgroundTaskId").asString
        waitForUi({ "the task is not listed" }) { controller.panel.tasks.row(taskId) != null }
        supervisor.requireApi().tasksStop(taskId).get(30, TimeUnit.SECONDS)
        assertEquals(emptyMap<Long, String>(), TestSupport.commandProcesses(marker))

        val stopped = a.callTool("Bash", mapOf("command" to "touch stop.txt; sleep 301", "dangerouslyDisableSandbox" to true))
        allowOnce(tab, "touch stop.txt; sleep 301")
        val second = cardIn(tab, "touch stop.txt; sleep 301")
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(marker)}" }) { TestSupport.commandProcesses(marker).isNotEmpty() }
        waitForUi({ "Stop is not offered" }) { second.stopAction.isEnabled }
        onEdt { second.requestStop() }
        val interrupted = stopped.get(30, TimeUnit.SECONDS).getAsJsonObject("structuredContent")
        assertTrue(interrupted.get("interrupted").asBoolean, interrupted.toString())
        assertEquals(emptyMap<Long, String>(), TestSupport.commandProcesses(marker))
        waitForUi({ "the card still runs" }) { !second.isRunning }
    }
}
