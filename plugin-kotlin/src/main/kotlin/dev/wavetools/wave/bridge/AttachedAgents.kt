package dev.wavetools.wave.bridge

import java.time.Instant
import java.util.concurrent.CopyOnWriteArrayList

/** An agent attached to the project's core over MCP (`wave-core mcp --attach`), and its session. */
data class AttachedAgent(
    val sessionId: String,
    val client: ClientInfo,
    val cwd: String,
    val openedAt: Instant,
    val closedAt: Instant? = null,
    /** Why it ended (its connection closed, the core restarted, …). */
    val closeReason: String? = null,
) {
    val connected: Boolean get() = closedAt == null

    /** The tab title: the agent's name, and its version when known. */
    val title: String get() = client.name.ifBlank { "MCP client" }
}

/** What the status line shows about agents. */
data class AgentsStatus(
    /** Null while the core is not ready, or when it does not listen for agents. */
    val endpoint: AgentEndpoint?,
    val connected: Int,
)

/**
 * The project's attached agents, from `session/opened`/`session/closed` and, when a core becomes
 * ready, from `sessions/list` (so a listener added late, or a restart, sees the truth). Agents of a
 * core that went away are kept, closed, so their tabs stay readable. [attachTo] wires it to every
 * core the supervisor starts.
 */
class AttachedAgents(private val log: BridgeLog) : CoreEvents {
    private val agents = LinkedHashMap<String, AttachedAgent>()
    private val listeners = CopyOnWriteArrayList<() -> Unit>()

    @Volatile
    private var endpoint: AgentEndpoint? = null

    fun attachTo(supervisor: CoreSupervisor): AutoCloseable {
        val events = supervisor.addEventListener(this)
        val states = supervisor.addStateListener { state ->
            when (state) {
                is CoreState.Ready -> {
                    endpoint = state.info.agents
                    changed()
                    supervisor.api()?.sessionsList()?.whenComplete { sessions, error ->
                        if (error != null) log.warn("could not list the core's sessions", error) else reconcile(sessions)
                    }
                }
                else -> {
                    endpoint = null
                    closeAll("the core ${if (state is CoreState.Stopped) "stopped" else "restarted"}")
                }
            }
        }
        return AutoCloseable {
            events.close()
            states.close()
        }
    }

    /** Called (on a bridge thread) whenever an agent connects or leaves, or the endpoint changes. */
    fun addListener(listener: () -> Unit): AutoCloseable {
        listeners += listener
        return AutoCloseable { listeners -= listener }
    }

    fun snapshot(): List<AttachedAgent> = synchronized(agents) { agents.values.toList() }

    fun agent(sessionId: String): AttachedAgent? = synchronized(agents) { agents[sessionId] }

    fun status(): AgentsStatus = AgentsStatus(endpoint, snapshot().count { it.connected })

    override fun agentSessionOpened(event: AgentSessionOpened) {
        synchronized(agents) { agents[event.sessionId] = AttachedAgent(event.sessionId, event.client, event.cwd, Instant.now()) }
        changed()
    }

    override fun agentSessionClosed(event: AgentSessionClosed) {
        val updated = synchronized(agents) {
            val known = agents[event.sessionId] ?: return@synchronized false
            if (!known.connected) return@synchronized false
            agents[event.sessionId] = known.copy(closedAt = Instant.now(), closeReason = event.reason)
            true
        }
        if (updated) changed()
    }

    private fun reconcile(sessions: List<SessionInfo>) {
        synchronized(agents) {
            for (s in sessions) {
                val client = s.client ?: continue
                if (agents[s.sessionId]?.connected != true) agents[s.sessionId] = AttachedAgent(s.sessionId, client, s.cwd, Instant.now())
            }
        }
        changed()
    }

    private fun closeAll(reason: String) {
        synchronized(agents) {
            for ((id, a) in agents) if (a.connected) agents[id] = a.copy(closedAt = Instant.now(), closeReason = reason)
        }
        changed()
    }

    /** Forgets an agent whose session has closed (the person closed its tab). */
    fun forget(sessionId: String) {
        synchronized(agents) { if (agents[sessionId]?.connected == false) agents.remove(sessionId) }
        changed()
    }

    private fun changed() {
        for (l in listeners) {
            try {
                l()
            } catch (e: Exception) {
                log.error("an agents listener failed", e)
            }
        }
    }
}
