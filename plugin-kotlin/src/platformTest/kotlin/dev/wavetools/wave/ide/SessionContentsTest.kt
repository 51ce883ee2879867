package dev.wavetools.wave.ide

import com.intellij.openapi.wm.ToolWindow
import dev.wavetools.wave.ui.AgentTab
import dev.wavetools.wave.ui.AgentWindow
import dev.wavetools.wave.ui.SessionTabsModel
import dev.wavetools.wave.ui.WaveBundle
import dev.wavetools.wave.ui.onEdt
import dev.wavetools.wave.ui.startAndAwaitReady
import dev.wavetools.wave.ui.waitForUi
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.awt.Component
import java.awt.Graphics
import java.util.IdentityHashMap
import java.util.concurrent.TimeUnit
import javax.swing.Icon
import javax.swing.JComponent
import javax.swing.JPanel
import javax.swing.SwingUtilities

/**
 * The sessions as the tool window's content tabs, end to end: the real core listening for agents
 * (as the plugin starts it), a real `wave-core mcp --attach` agent, the controller, and
 * [SessionContents] on a ContentManager that keeps the platform's rules ([FakeContentManager]).
 */
class SessionContentsTest {
    private val window = AgentWindow()
    private val controller = window.controller
    private val model = onEdt { controller.panel.sessions.model }
    private val manager = onEdt { FakeContentManager() }

    /** Each content's toolbar, by the component it was made for. */
    private val toolbars = IdentityHashMap<JComponent, JComponent>()
    private val waiting = object : Icon {
        override fun getIconWidth() = 16
        override fun getIconHeight() = 16
        override fun paintIcon(c: Component?, g: Graphics?, x: Int, y: Int) {}
    }
    private var projectContentDisposed = 0
    private val contents = onEdt {
        SessionContents(
            controller.panel, manager,
            newContent = { FakeContent(it) },
            toolbarFor = { target -> JPanel().also { toolbars[target] = it } },
            waitingIcon = waiting,
            onProjectContentDisposed = { projectContentDisposed++ },
        )
    }

    @AfterEach
    fun cleanup() {
        onEdt { contents.close() }
        window.close()
    }

    private fun project(): FakeContent = onEdt { contents.content(SessionTabsModel.PROJECT) as FakeContent }

    private fun agentContent(tab: AgentTab): FakeContent = onEdt { contents.content(tab.sessionId) as FakeContent }

    private fun attach(): Pair<dev.wavetools.wave.bridge.McpAgent, AgentTab> {
        val agent = window.agent()
        val tab = window.tab()
        waitForUi({ "contents: ${manager.contents}" }) { manager.contents.size == 2 && contents.content(tab.sessionId) != null }
        return agent to tab
    }

    private fun allowOnce(tab: AgentTab, command: String) {
        waitForUi({ "no open approval for $command" }) { tab.feed.approvals().any { it.model.subject == command && it.model.isOpen } }
        onEdt { tab.feed.approvals().last { it.model.subject == command }.allowOnceButton.doClick() }
    }

    @Test
    fun `one content per session - added as an agent attaches, its tab named and described, closable only once it left, and closing it disposes its view`() {
        controller.startAndAwaitReady(window.supervisor)
        onEdt {
            val project = project()
            assertEquals(listOf(project), manager.contents)
            assertSame(controller.panel, project.component, "the project's session is the whole panel: status line, feed, tasks, input")
            assertNull(project.displayName, "alone, the tool window's title says it all")
            assertFalse(project.closeable, "the project's session never closes")
            assertSame(project, manager.selectedContent)
            val toolbar = toolbars[controller.panel]!!
            assertTrue(SwingUtilities.isDescendingFrom(toolbar, controller.panel.statusLine), "the project's toolbar ends its status line")
            assertFalse(controller.panel.sessions.strip.isVisible, "no hand-drawn tabs inside the content")
        }

        val (agent, tab) = attach()
        val content = agentContent(tab)
        onEdt {
            assertEquals(listOf(project(), content), manager.contents)
            assertSame(tab, content.component)
            assertEquals("kotlin-test-agent", content.displayName)
            assertEquals(WaveBundle.message("agents.projectTab"), project().displayName, "with two tabs, the project's has its name")
            assertTrue(content.description!!.contains("kotlin-test-agent 7.8.9, connected"), content.description)
            assertFalse(content.closeable, "an agent still attached cannot be closed")
            assertSame(project(), manager.selectedContent, "a new agent does not take the tab the person looks at")
            val toolbar = toolbars[tab]!!
            assertTrue(SwingUtilities.isDescendingFrom(toolbar, tab.header), "the agent's tab has the toolbar too")
            assertEquals("kotlin-test-agent 7.8.9", tab.identity.text)
            assertFalse(controller.panel.sessions.strip.isVisible)

            assertFalse(manager.removeContent(content, true), "removing an attached agent's tab is refused")
            assertEquals(2, manager.contents.size)
            assertFalse(content.disposed)
            assertFalse(tab.isDisposed)

            // Selecting its tab selects its session (its feed is the one the toolbar acts on), and back.
            manager.setSelectedContent(content)
            assertEquals(tab.sessionId, model.selected!!.key)
            assertSame(tab.feed, controller.panel.visibleFeed)
            controller.panel.sessions.select(null)
            assertSame(project(), manager.selectedContent, "the model's selection shows its content")
        }

        agent.close()
        waitForUi({ "the agent's content: closable=${content.closeable}" }) { content.closeable }
        onEdt {
            assertTrue(content.description!!.contains("disconnected"), content.description)
            manager.setSelectedContent(content)
            // Its close button: the platform's tab label calls removeContent(content, true).
            assertTrue(manager.removeContent(content, true))
            assertTrue(content.disposed)
            assertTrue(tab.isDisposed, "the session's view went with its tab")
            assertEquals(listOf(SessionTabsModel.PROJECT), model.entries.map { it.key })
            assertEquals(listOf(project()), manager.contents)
            assertSame(project(), manager.selectedContent)
            assertEquals(SessionTabsModel.PROJECT, model.selected!!.key)
            assertNull(project().displayName, "alone again")
            assertNull(contents.content(tab.sessionId))
        }
        assertTrue(window.core.agents.snapshot().isEmpty(), "closing the tab forgets the agent")
    }

    @Test
    fun `a question in a tab that does not show badges it and alerts it, once per question, and the badge goes with the answer`() {
        controller.startAndAwaitReady(window.supervisor)
        val (agent, tab) = attach()
        val content = agentContent(tab)
        onEdt { assertSame(waiting, content.alertIcon!!.icon) }

        val call = agent.callTool("Bash", mapOf("command" to "touch asked.txt", "dangerouslyDisableSandbox" to true))
        waitForUi({ "the agent's content: ${content.displayName}" }) { content.icon != null }
        onEdt {
            assertSame(waiting, content.icon)
            assertEquals(true, content.userData(ToolWindow.SHOW_CONTENT_ICON), "a content's icon shows on its tab only with this key")
            assertEquals("kotlin-test-agent (1 waiting)", content.displayName)
            assertTrue(content.description!!.contains("1 question waits for your answer"), content.description)
            assertEquals(1, content.alerts, "the question is on a tab the person does not see")
            assertFalse(ApprovalVisibility.cardShown(tab.sessionId, controller), "so the balloon is raised too (ApprovalBalloons)")
            val project = project()
            assertNull(project.icon)
            assertEquals(0, project.alerts)

            manager.setSelectedContent(content)
            assertTrue(ApprovalVisibility.cardShown(tab.sessionId, controller), "its tab shows: the card is on screen")
        }
        allowOnce(tab, "touch asked.txt")
        assertFalse(call.get(60, TimeUnit.SECONDS).get("isError").asBoolean)
        waitForUi({ "the agent's content: ${content.displayName}" }) { content.icon == null }
        onEdt {
            assertEquals(false, content.userData(ToolWindow.SHOW_CONTENT_ICON))
            assertEquals("kotlin-test-agent", content.displayName)
            assertFalse(content.description!!.contains("waits"), content.description)
        }

        // A question in the tab that shows is on screen: the badge, but no alert.
        val second = agent.callTool("Bash", mapOf("command" to "touch seen.txt", "dangerouslyDisableSandbox" to true))
        waitForUi({ "the agent's content: ${content.displayName}" }) { content.icon != null }
        onEdt { assertEquals(1, content.alerts) }
        allowOnce(tab, "touch seen.txt")
        second.get(60, TimeUnit.SECONDS)
        waitForUi({ "the agent's content: ${content.displayName}" }) { content.icon == null }
    }

    @Test
    fun `Close Tab in the tab's banner removes its content, and the tool window's disposal ends the project's content once`() {
        controller.startAndAwaitReady(window.supervisor)
        val (agent, tab) = attach()
        val content = agentContent(tab)
        agent.close()
        waitForUi({ "the agent's content: closable=${content.closeable}" }) { content.closeable }
        onEdt {
            tab.closeLink.click()
            assertEquals(listOf(project()), manager.contents, "the model's removal removes the content")
            assertTrue(content.disposed)
            assertTrue(tab.isDisposed)
            assertEquals(listOf(SessionTabsModel.PROJECT), model.entries.map { it.key })

            val listeners = manager.listenerCount
            manager.disposeAll()
            assertEquals(1, projectContentDisposed)
            assertEquals(listeners - 1, manager.listenerCount, "it no longer follows the tool window")
        }
        // A later agent gets no content: the tool window is gone.
        window.agent()
        window.tab()
        onEdt { assertTrue(manager.contents.isEmpty()) }
    }
}
