package dev.wavetools.wave.ui

import com.google.gson.JsonElement
import dev.wavetools.wave.bridge.AttachedAgent
import dev.wavetools.wave.bridge.AttachedAgents
import dev.wavetools.wave.bridge.BashRequest
import dev.wavetools.wave.bridge.CoreEvents
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.DiffModel
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.PermissionBridge
import dev.wavetools.wave.bridge.PermissionDecided
import dev.wavetools.wave.bridge.PermissionQuestion
import dev.wavetools.wave.bridge.RpcErrors
import dev.wavetools.wave.bridge.RpcException
import dev.wavetools.wave.bridge.SessionCwdChanged
import dev.wavetools.wave.bridge.TaskInfo
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolOutput
import dev.wavetools.wave.bridge.ToolProgress
import dev.wavetools.wave.bridge.ToolStarted
import java.time.Clock
import java.util.concurrent.CompletionException

/**
 * Connects the panel to the core: notifications become cards and task rows (on the UI thread),
 * buttons and shortcuts become requests. One per tool window.
 */
class WaveController(
    private val supervisor: CoreSupervisor,
    private val host: HostServices,
    private val defaultTimeoutMs: () -> Long? = { null },
    clock: Clock = Clock.systemUTC(),
    /** Permission questions of the core become approval cards; null: this window does not show them. */
    private val permissions: PermissionBridge? = null,
    /** Agents attached over MCP: each gets a tab, the status line counts them; null: no tabs. */
    private val agents: AttachedAgents? = null,
    /** How many cards a feed keeps (the Run window caps its console the same way). */
    private val maxCards: () -> Int = { SessionFeed.DEFAULT_MAX_CARDS },
) : CallActions {
    private val clock = clock
    val panel = WavePanel(host, this, clock, onRun = ::runBash, onRetry = { supervisor.restartAsync() }, maxCards = maxCards)
    private val subscriptions = mutableListOf<AutoCloseable>()

    /** Attached agents' calls that are running (read and written on the UI thread). */
    private val agentCalls = HashSet<String>()

    private val events = object : CoreEvents {
        override fun toolStarted(event: ToolStarted) = ui {
            val feed = feedFor(event.sessionId)
            if (feed !== panel.feed) agentCalls += event.callId
            feed.toolStarted(event)
        }
        override fun toolProgress(event: ToolProgress) = ui { feedFor(event.sessionId).toolProgress(event) }
        override fun toolOutput(event: ToolOutput) = ui { feedFor(event.sessionId).toolOutput(event) }
        /**
         * The call ended: its controls go at once; its card fills once the whole result is here —
         * this window's own call's answer, or the core's `calls/result` for an agent's (fetched
         * here, on the bridge's thread, never on the UI thread).
         */
        override fun toolFinished(event: ToolFinished) {
            ui { agentCalls -= event.callId }
            val api = supervisor.api()
            val complete = api?.completeFinished(event)
                ?: java.util.concurrent.CompletableFuture.completedFuture(event.copy(resultUnavailable = WaveBundle.message("card.resultUnavailable.noCore")))
            complete.thenAccept { finished -> ui { feedFor(finished.sessionId).toolFinished(finished) } }
        }
        override fun cwdChanged(event: SessionCwdChanged) = ui { feedFor(event.sessionId).cwdChanged(event) }
        override fun taskStarted(task: TaskInfo) = ui { panel.tasks.upsert(task) }
        override fun taskFinished(task: TaskInfo) = ui { panel.tasks.upsert(task) }
        override fun envStatusChanged(status: EnvStatus) = ui { panel.statusLine.showEnv(status) }
        override fun permissionDecided(event: PermissionDecided) = ui { feedFor(event.sessionId).permissionDecided(event) }
        override fun other(method: String, params: JsonElement?) {}
    }

    fun attach() {
        panel.sessions.model.onClose = { entry -> entry.agent?.let(::closeTab) }
        subscriptions += supervisor.addEventListener(events)
        subscriptions += supervisor.addStateListener { state -> ui { showState(state) } }
        permissions?.let { subscriptions += it.addQuestionListener(::asked) }
        agents?.let { a -> subscriptions += a.addListener { ui { syncAgents() } } }
    }

    /**
     * On the bridge's thread: the card is built on the UI thread, and taken down when the core stops
     * waiting. Until it is answered its tab counts it, so a question never waits unseen behind another tab.
     */
    private fun asked(question: PermissionQuestion) {
        ui {
            val feed = feedFor(question.prompt.sessionId)
            feed.permissionAsked(ApprovalModel(question.key, question.prompt, question::answer))
            question.cancelled.thenRun { ui { feed.permissionWithdrawn(question.key) } }
        }
    }

    /**
     * The feed a session's events go to: an attached agent's tab (made on first use, so an event
     * that overtakes the agents' list still lands there), else the project's own feed.
     */
    private fun feedFor(sessionId: String?): SessionFeed {
        if (sessionId == null) return panel.feed
        panel.sessions.agent(sessionId)?.let { return it.feed }
        val agent = agents?.agent(sessionId) ?: return panel.feed
        return openTab(agent).feed
    }

    private fun openTab(agent: AttachedAgent): AgentTab {
        panel.sessions.agent(agent.sessionId)?.let { return it }
        val tab = AgentTab(agent.sessionId, agent.client, AgentCallActions(agent.sessionId), clock, panel.softWrap, onClose = ::closeTab, maxCards = maxCards)
        tab.feed.workspaceRoot = panel.feed.workspaceRoot
        panel.sessions.addAgent(tab)
        if (!agent.connected) tab.closed(agent.closeReason)
        panel.sessions.refresh(tab)
        return tab
    }

    /** The agents' list changed: a tab for each new agent, closed tabs for the ones that left, the status line's count. */
    private fun syncAgents() {
        val a = agents ?: return
        for (agent in a.snapshot()) {
            val tab = panel.sessions.agent(agent.sessionId) ?: openTab(agent)
            when {
                !agent.connected && tab.connected -> tab.closed(agent.closeReason)
                agent.connected && !tab.connected -> tab.reopened(agent.client)
            }
            panel.sessions.refresh(tab)
        }
        panel.statusLine.showAgents(a.status())
    }

    private fun closeTab(tab: AgentTab) {
        panel.sessions.removeAgent(tab.sessionId)
        agents?.forget(tab.sessionId)
    }

    /**
     * An attached agent's calls: this host did not make them, but it steers them — Move to
     * Background through the core, Stop by call id (the agent gets the aborted result).
     */
    private inner class AgentCallActions(private val sessionId: String) : CallActions by this@WaveController {
        override fun canControl(callId: String): Boolean = callId in agentCalls && panel.sessions.agent(sessionId)?.connected == true

        override fun isOwnCall(callId: String) = false

        override fun stop(callId: String) {
            supervisor.api()?.cancelCall(callId)
        }
    }

    fun dispose() {
        subscriptions.forEach { it.close() }
        subscriptions.clear()
        panel.dispose()
    }

    private fun ui(task: () -> Unit) = host.invokeLater(task)

    fun showState(state: CoreState) {
        panel.statusLine.showCore(state)
        panel.input.setReady(state is CoreState.Ready, WaveBundle.message("input.notReady.tooltip", StatusLine.describe(state).first))
        if (state is CoreState.Failed && state.kind.isSetupProblem) {
            panel.showFallback(state)
            return
        }
        if (panel.showingFallback) panel.showSession()
        if (state is CoreState.Ready) {
            panel.feed.workspaceRoot = state.info.workspace.root
            panel.sessions.agents().forEach { it.feed.workspaceRoot = state.info.workspace.root }
            panel.feed.refreshControls()
            loadInitialState()
        }
        if (state !is CoreState.Ready) agentCalls.clear()
        syncAgents()
    }

    /** Tasks and the probe's state may predate this window; ask once the core is ready. Older cores lack them. */
    private fun loadInitialState() {
        val api = supervisor.api() ?: return
        api.tasksList().whenComplete { list, e ->
            if (list != null) ui { list.forEach { panel.tasks.upsert(it) } } else if (!isMethodMissing(e)) report(WaveBundle.message("feed.error.tasksList"), e)
        }
        api.envStatus().whenComplete { s, e ->
            if (s != null) ui { panel.statusLine.showEnv(s) } else if (!isMethodMissing(e)) report(WaveBundle.message("feed.error.envStatus"), e)
        }
    }

    private fun isMethodMissing(e: Throwable?): Boolean = (unwrap(e) as? RpcException)?.code == RpcErrors.METHOD_NOT_FOUND

    private fun unwrap(e: Throwable?): Throwable? = if (e is CompletionException) e.cause else e

    private fun report(what: String, e: Throwable?) = ui { panel.feed.notice(WaveBundle.message("feed.error", what, unwrap(e)?.message ?: ""), Tone.ERROR, markdown = false) }

    override fun canControl(callId: String): Boolean = supervisor.api()?.activeCall(callId) != null

    override fun moveToBackground(callId: String) {
        val api = supervisor.api() ?: return
        api.moveToBackground(callId).whenComplete { r, e ->
            ui {
                val card = (panel.feed.card(callId) ?: panel.sessions.agents().firstNotNullOfOrNull { it.feed.card(callId) }) as? BashCard
                when {
                    e != null -> card?.moveRefused(WaveBundle.message("card.moveRefused.error", unwrap(e)?.message ?: ""))
                    !r.moved -> card?.moveRefused(r.reason ?: WaveBundle.message("card.moveRefused.noReason"))
                }
            }
        }
    }

    override fun stop(callId: String) {
        supervisor.api()?.activeCall(callId)?.cancel()
    }

    override fun stopTask(taskId: String) {
        val api = supervisor.api() ?: return
        api.tasksStop(taskId).whenComplete { r, e ->
            ui {
                when {
                    e != null -> report(WaveBundle.message("feed.error.stopTask", panel.tasks.row(taskId)?.task?.command ?: taskId), e)
                    r.task != null -> panel.tasks.upsert(r.task!!)
                }
            }
        }
    }

    override fun openFile(path: String, line: Int?) = host.openFile(path, line)

    override fun showDiff(path: String, model: DiffModel) = host.showDiff(path, model)

    override fun showText(title: String, text: String) = host.showText(title, text)

    /** Ctrl+B in the tool window: background the newest running command this window can control. */
    fun moveLatestToBackground(): Boolean {
        val card = panel.visibleFeed.latestControllable(bashOnly = true) as? BashCard ?: return false
        card.requestMove()
        return true
    }

    /** Stop in the tool window: stop the newest running call this window can control. */
    fun stopLatest(): Boolean {
        val feed = panel.visibleFeed
        val card = feed.latestControllable(bashOnly = false) ?: return false
        if (card is CommandCard) card.requestStop() else feed.context.actions.stop(card.callId)
        return true
    }

    fun runBash(command: String) {
        val api = supervisor.api()
        if (api == null) {
            panel.feed.notice(WaveBundle.message("feed.notReady", StatusLine.describe(supervisor.state).first), Tone.ERROR, markdown = false)
            return
        }
        val call = api.runBash(BashRequest(command, description = WaveBundle.message("input.description"), timeoutMs = defaultTimeoutMs()))
        call.result.whenComplete { _, e ->
            if (e != null && unwrap(e) is RpcException) report(WaveBundle.message("feed.error.runBash", command), e)
        }
    }
}
