package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ListeningCore
import dev.wavetools.wave.bridge.McpAgent

/**
 * The tool window with attached agents, end to end: the real core listening for agents (as the
 * plugin starts it), its controller with tabs, and real `wave-core mcp --attach` agents.
 */
class AgentWindow : AutoCloseable {
    val core = ListeningCore()
    val supervisor = core.supervisor
    val controller = onEdt { WaveController(supervisor, object : HostServices {}, permissions = core.permissions, agents = core.agents) }
    private val openAgents = mutableListOf<McpAgent>()

    fun agent(): McpAgent = core.agent().also { openAgents += it }

    /** The one agent's tab, once it is there. */
    fun tab(): AgentTab {
        waitForUi({ "tabs: ${controller.panel.sessions.agents().map { it.title }}" }) { controller.panel.sessions.agents().size == 1 }
        return onEdt { controller.panel.sessions.agents().single() }
    }

    override fun close() {
        openAgents.forEach { it.close() }
        onEdt { controller.dispose() }
        core.close()
    }
}
