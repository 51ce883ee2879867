package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ClientInfo
import java.awt.BorderLayout
import java.awt.CardLayout
import java.time.Clock
import java.time.ZoneId
import java.time.format.DateTimeFormatter
import javax.swing.BorderFactory
import javax.swing.JPanel

/**
 * One agent attached to the project's core (`wave-core mcp --attach`), in a tab of its own: its
 * calls as cards, with the same approvals, Move to Background and Stop as commands typed here.
 * Until its first call the tab says whose it is; once it has left, a banner says so and offers to
 * close the tab.
 */
class AgentTab(
    val sessionId: String,
    client: ClientInfo,
    actions: CallActions,
    private val clock: Clock,
    softWrap: SoftWrapSetting,
    private val onClose: (AgentTab) -> Unit,
) : JPanel(BorderLayout()), Themed {
    var client: ClientInfo = client
        private set
    val feed = SessionFeed(actions, clock, softWrap)
    val emptyState = EmptyStateView()
    private val area = FeedArea(feed, emptyState)
    val closedBanner = TextBlock("", Tone.SECONDARY, small = true)
    val closeLink = LinkLabel(WaveBundle.message("agents.closeTab.link")) { onClose(this) }
    private val banner = FilledPanel(BorderLayout()) { t -> t.codeBackground }.apply {
        add(closedBanner, BorderLayout.CENTER)
        add(closeLink, BorderLayout.EAST)
        isVisible = false
    }

    var connected: Boolean = true
        private set

    init {
        add(banner, BorderLayout.NORTH)
        add(area, BorderLayout.CENTER)
        emptyState.reasonBlock.source = WaveBundle.message("agents.empty.reason", client.name)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        banner.border = BorderFactory.createEmptyBorder(theme.px(6), theme.px(10), theme.px(6), theme.px(10))
    }

    /** The tab's title: the agent's name (its version is in the tooltip). */
    val title: String get() = client.name.ifBlank { WaveBundle.message("agents.unnamed") }

    fun tooltip(): String = if (connected) {
        WaveBundle.message("agents.tab.connected.tooltip", client.toString(), sessionId)
    } else {
        WaveBundle.message("agents.tab.closed.tooltip", client.toString(), sessionId)
    }

    /** The agent left: its session ended, its processes were stopped. The cards stay readable. */
    fun closed(reason: String?) {
        connected = false
        val at = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault()).format(clock.instant())
        closedBanner.source = WaveBundle.message("agents.closed.banner", title, at, reason ?: WaveBundle.message("agents.closed.noReason"))
        banner.isVisible = true
        feed.refreshControls()
        revalidate()
        repaint()
    }

    fun reopened(client: ClientInfo) {
        this.client = client
        connected = true
        banner.isVisible = false
        revalidate()
        repaint()
    }

    fun dispose() {
        feed.cards().forEach { it.dispose() }
    }
}

/**
 * The feed area with tabs: the project's own session first (commands typed here, and the calls of
 * an agent the host runs itself), then one tab per attached agent. The tab row appears with the
 * first agent.
 */
class SessionTabs(private val projectContent: javax.swing.JComponent) : JPanel(BorderLayout()), Themed {
    private val cards = JPanel(CardLayout())
    private val agents = LinkedHashMap<String, AgentTab>()
    val strip = TabStrip(::show).apply { isVisible = false }

    /** Called with the selected tab's agent session id, or null for the project's own tab. */
    var onSelectionChanged: (String?) -> Unit = {}

    init {
        strip.add(PROJECT, WaveBundle.message("agents.projectTab"))
        cards.add(projectContent, PROJECT)
        add(strip, BorderLayout.NORTH)
        add(cards, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        cards.background = theme.background
    }

    fun agent(sessionId: String): AgentTab? = agents[sessionId]

    fun agents(): List<AgentTab> = agents.values.toList()

    /** The agent whose tab is showing; null: the project's own tab. */
    val selectedAgent: AgentTab? get() = strip.selected?.let { agents[it] }

    fun addAgent(tab: AgentTab) {
        if (agents.containsKey(tab.sessionId)) return
        agents[tab.sessionId] = tab
        cards.add(tab, tab.sessionId)
        strip.add(tab.sessionId, tab.title, Tone.SUCCESS).toolTipText = tab.tooltip()
        strip.isVisible = true
        revalidate()
        repaint()
    }

    /** Approvals waiting in each tab (null key: the project's own), so none waits unseen behind another tab. */
    private val pending = HashMap<String?, Int>()

    fun pendingApprovals(sessionId: String?): Int = pending[sessionId] ?: 0

    /** A tab with [count] open questions shows it in its title and a warning dot. */
    fun setPending(sessionId: String?, count: Int) {
        if (count <= 0) pending.remove(sessionId) else pending[sessionId] = count
        if (sessionId == null) {
            val t = strip.tab(PROJECT) ?: return
            t.title = badged(WaveBundle.message("agents.projectTab"), count)
            t.setDot(if (count > 0) Tone.WARNING else null)
        } else {
            agents[sessionId]?.let { refresh(it) }
        }
    }

    private fun badged(title: String, count: Int) = if (count > 0) WaveBundle.message("agents.tab.pending", title, count) else title

    /** Its title, dot and tooltip follow the agent's state (and its waiting approvals). */
    fun refresh(tab: AgentTab) {
        val t = strip.tab(tab.sessionId) ?: return
        val waiting = pendingApprovals(tab.sessionId)
        t.title = badged(tab.title, waiting)
        t.setDot(if (waiting > 0) Tone.WARNING else if (tab.connected) Tone.SUCCESS else Tone.SECONDARY)
        t.toolTipText = tab.tooltip()
    }

    fun removeAgent(sessionId: String) {
        pending.remove(sessionId)
        val tab = agents.remove(sessionId) ?: return
        strip.remove(sessionId)
        cards.remove(tab)
        tab.dispose()
        if (agents.isEmpty()) {
            strip.isVisible = false
            show(PROJECT)
        }
        revalidate()
        repaint()
    }

    fun select(sessionId: String?) = strip.select(sessionId ?: PROJECT)

    private fun show(key: String) {
        (cards.layout as CardLayout).show(cards, key)
        onSelectionChanged(agents[key]?.sessionId)
    }

    fun dispose() = agents.values.forEach { it.dispose() }

    companion object {
        const val PROJECT = "project"
    }
}
