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
    maxCards: () -> Int = { SessionFeed.DEFAULT_MAX_CARDS },
) : JPanel(BorderLayout()), Themed {
    var client: ClientInfo = client
        private set
    val feed = SessionFeed(actions, clock, softWrap, maxCards)
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

    /**
     * The line above the feed when the tab is a content of its own in the IDE (it has no status
     * line there): who the agent is, and the toolbar ([setToolbar]). Hidden until then, since
     * outside the IDE the panel's status line above the tabs carries the toolbar.
     */
    val identity = ToneLabel(describe(client), Tone.SECONDARY, small = true)
    private val headerLine = object : JPanel(BorderLayout()) {
        override fun paintComponent(g: java.awt.Graphics) {
            super.paintComponent(g)
            g.color = WaveTheme.current.separator
            g.fillRect(0, height - 1, width, 1)
        }
    }.apply {
        add(identity, BorderLayout.CENTER)
        isVisible = false
    }
    private var toolbar: javax.swing.JComponent? = null

    var isDisposed: Boolean = false
        private set

    /** What sits above the feed: the header line and the banner, each when shown. */
    val header = JPanel(BorderLayout()).apply {
        isOpaque = false
        add(headerLine, BorderLayout.NORTH)
        add(banner, BorderLayout.CENTER)
    }

    init {
        add(header, BorderLayout.NORTH)
        add(area, BorderLayout.CENTER)
        emptyState.reasonBlock.source = WaveBundle.message("agents.empty.reason", client.name)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        headerLine.background = theme.background
        headerLine.border = BorderFactory.createEmptyBorder(theme.px(4), theme.px(10), theme.px(4), theme.px(6))
        banner.border = BorderFactory.createEmptyBorder(theme.px(6), theme.px(10), theme.px(6), theme.px(10))
    }

    /** The tool window's toolbar for this tab (the IDE's ActionToolbar), at the end of its header line. */
    fun setToolbar(c: javax.swing.JComponent) {
        toolbar?.let { headerLine.remove(it) }
        toolbar = c
        headerLine.add(c, BorderLayout.EAST)
        headerLine.isVisible = true
        revalidate()
        repaint()
    }

    private fun describe(client: ClientInfo) = client.toString().ifBlank { WaveBundle.message("agents.unnamed") }

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
        identity.text = describe(client)
        connected = true
        banner.isVisible = false
        revalidate()
        repaint()
    }

    fun dispose() {
        isDisposed = true
        feed.cards().forEach { it.dispose() }
    }
}

/**
 * The sessions the tool window shows, one entry each — the project's own first, then one per
 * attached agent — without Swing's tab widgets, so the IDE can show them as the tool window's own
 * content tabs (ContentManager: they overflow into a list, never wrap) and the panel outside the
 * IDE as its [TabStrip]. An entry knows its title and tooltip, whether it may be closed (an agent
 * that left) and how many questions wait in it (its badge); the model tells its listeners when a
 * question arrives on an entry that is not the selected one, so the host can draw the person's
 * attention to it even while the tool window is on screen.
 */
class SessionTabsModel : TabsModel {
    /** One session. [component] is what shows for it; [feed] its cards. */
    class Entry internal constructor(override val key: String, val component: javax.swing.JComponent, val feed: SessionFeed, val agent: AgentTab?) : TabItem {
        override var title: String = ""
            internal set
        override var tooltip: String? = null
            internal set
        /** An agent's session that ended: its tab may be closed. The project's never is. */
        override var closable: Boolean = false
            internal set
        override var connected: Boolean = true
            internal set
        /** Questions waiting in this session (the tab's badge). */
        override var pendingApprovals: Int = 0
            internal set

        val isProject: Boolean get() = agent == null

        override fun toString() = "$key \"$title\"${if (pendingApprovals > 0) " ($pendingApprovals waiting)" else ""}${if (closable) " closable" else ""}"
    }

    interface Listener {
        fun added(entry: Entry, index: Int) {}
        /** Title, tooltip, closable or badge changed. */
        fun changed(entry: Entry) {}
        fun removed(entry: Entry) {}
        fun selected(entry: Entry) {}
        /** A new question in [entry] while another entry is selected: show the person (an alert on its tab, a balloon). */
        fun announce(entry: Entry, question: ApprovalModel) {}
    }

    private val list = mutableListOf<Entry>()
    private val listeners = java.util.concurrent.CopyOnWriteArrayList<Listener>()

    /** The person closed an entry's tab (only closable ones close). */
    var onClose: (Entry) -> Unit = {}

    val entries: List<Entry> get() = list.toList()

    var selected: Entry? = null
        private set

    override val items: List<TabItem> get() = entries
    override val selectedItem: TabItem? get() = selected

    /** The strip's view of the same events. */
    override fun addTabsListener(listener: TabsListener): AutoCloseable = addListener(object : Listener {
        override fun added(entry: Entry, index: Int) = listener.tabAdded(entry, index)
        override fun changed(entry: Entry) = listener.tabChanged(entry)
        override fun removed(entry: Entry) = listener.tabRemoved(entry)
        override fun selected(entry: Entry) = listener.tabSelected(entry)
    })

    fun entry(key: String): Entry? = list.firstOrNull { it.key == key }

    fun addListener(listener: Listener): AutoCloseable {
        listeners += listener
        return AutoCloseable { listeners -= listener }
    }

    internal fun add(entry: Entry) {
        if (entry(entry.key) != null) return
        list += entry
        entry.feed.onPendingChanged { n ->
            entry.pendingApprovals = n
            listeners.forEach { it.changed(entry) }
        }
        entry.feed.onApprovalAsked { question ->
            if (selected !== entry) listeners.forEach { it.announce(entry, question) }
        }
        listeners.forEach { it.added(entry, list.size - 1) }
        if (selected == null) select(entry.key)
    }

    internal fun update(entry: Entry, title: String, tooltip: String?, connected: Boolean) {
        val closable = !entry.isProject && !connected
        if (entry.title == title && entry.tooltip == tooltip && entry.connected == connected && entry.closable == closable) return
        entry.title = title
        entry.tooltip = tooltip
        entry.connected = connected
        entry.closable = closable
        listeners.forEach { it.changed(entry) }
    }

    internal fun remove(key: String) {
        val entry = entry(key) ?: return
        val index = list.indexOf(entry)
        list.remove(entry)
        listeners.forEach { it.removed(entry) }
        if (selected === entry) {
            selected = null
            list.getOrNull((index - 1).coerceAtLeast(0))?.let { select(it.key) }
        }
    }

    /** Shows [key]'s session (a click on its tab, the host's content selection). */
    override fun select(key: String) {
        val entry = entry(key) ?: return
        if (selected === entry) return
        selected = entry
        listeners.forEach { it.selected(entry) }
    }

    /** The person closed [key]'s tab; false when it may not be closed (it is the project's, or the agent is still there). */
    override fun close(key: String): Boolean {
        val entry = entry(key) ?: return false
        if (!entry.closable) return false
        onClose(entry)
        return true
    }

    /** Whether [sessionId]'s questions are on screen when the window is: its entry is the selected one (null: the project's). */
    fun isSelected(sessionId: String?): Boolean {
        val key = sessionId?.takeIf { entry(it) != null } ?: PROJECT
        return selected?.key == key
    }

    companion object {
        const val PROJECT = "project"
    }
}

/**
 * The feed area with tabs: the project's own session first (commands typed here, and the calls of
 * an agent the host runs itself), then one per attached agent, as [model] has them. Outside the
 * IDE it draws them as a [TabStrip] of one row (shown with the first agent); the IDE takes them
 * over ([useHostTabs]) and shows them as the tool window's content tabs, and this panel then shows
 * only the project's own.
 */
class SessionTabs(private val projectContent: javax.swing.JComponent, projectFeed: SessionFeed) : JPanel(BorderLayout()), Themed {
    val model = SessionTabsModel()
    private val cards = JPanel(CardLayout())
    private val agents = LinkedHashMap<String, AgentTab>()
    val strip = TabStrip(model).apply { isVisible = false }
    private var hostTabs = false

    /** Called with the selected tab's agent session id, or null for the project's own tab. */
    var onSelectionChanged: (String?) -> Unit = {}

    init {
        cards.add(projectContent, SessionTabsModel.PROJECT)
        add(strip, BorderLayout.NORTH)
        add(cards, BorderLayout.CENTER)
        model.addListener(object : SessionTabsModel.Listener {
            override fun selected(entry: SessionTabsModel.Entry) {
                if (!hostTabs) (cards.layout as CardLayout).show(cards, entry.key)
                onSelectionChanged(entry.agent?.sessionId)
            }
        })
        model.add(SessionTabsModel.Entry(SessionTabsModel.PROJECT, projectContent, projectFeed, null))
        model.update(model.entry(SessionTabsModel.PROJECT)!!, WaveBundle.message("agents.projectTab"), null, true)
        themeChanged(WaveTheme.current)
    }

    /**
     * The IDE shows the sessions as the tool window's content tabs: from now on this panel shows
     * only the project's session and never its own strip; each agent's [AgentTab] is
     * [SessionTabsModel.Entry.component], for the host to put in a content of its own.
     */
    fun useHostTabs() {
        hostTabs = true
        strip.isVisible = false
        agents.values.forEach { cards.remove(it) }
        (cards.layout as CardLayout).show(cards, SessionTabsModel.PROJECT)
        revalidate()
        repaint()
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        cards.background = theme.background
    }

    fun agent(sessionId: String): AgentTab? = agents[sessionId]

    fun agents(): List<AgentTab> = agents.values.toList()

    /** The agent whose tab is showing; null: the project's own tab. */
    val selectedAgent: AgentTab? get() = model.selected?.agent

    fun addAgent(tab: AgentTab) {
        if (agents.containsKey(tab.sessionId)) return
        agents[tab.sessionId] = tab
        if (!hostTabs) cards.add(tab, tab.sessionId)
        val entry = SessionTabsModel.Entry(tab.sessionId, tab, tab.feed, tab)
        model.add(entry)
        model.update(entry, tab.title, tab.tooltip(), tab.connected)
        strip.isVisible = !hostTabs
        revalidate()
        repaint()
    }

    /** Questions waiting in [sessionId]'s tab (null: the project's own), so none waits unseen behind another tab. */
    fun pendingApprovals(sessionId: String?): Int = model.entry(sessionId?.takeIf { agents.containsKey(it) } ?: SessionTabsModel.PROJECT)?.pendingApprovals ?: 0

    /** Its title, tooltip and whether it may be closed follow the agent's state. */
    fun refresh(tab: AgentTab) {
        val entry = model.entry(tab.sessionId) ?: return
        model.update(entry, tab.title, tab.tooltip(), tab.connected)
    }

    fun removeAgent(sessionId: String) {
        val tab = agents.remove(sessionId) ?: return
        model.remove(sessionId)
        cards.remove(tab)
        tab.dispose()
        if (agents.isEmpty()) strip.isVisible = false
        revalidate()
        repaint()
    }

    fun select(sessionId: String?) = model.select(sessionId ?: SessionTabsModel.PROJECT)

    fun dispose() = agents.values.forEach { it.dispose() }
}
