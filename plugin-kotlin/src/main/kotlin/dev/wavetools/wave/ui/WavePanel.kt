package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CoreState
import java.awt.BorderLayout
import java.awt.CardLayout
import java.awt.Graphics
import java.awt.event.MouseAdapter
import java.awt.event.MouseEvent
import java.time.Clock
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JSplitPane
import javax.swing.plaf.basic.BasicSplitPaneDivider
import javax.swing.plaf.basic.BasicSplitPaneUI

/**
 * The tool window's content: status line, session feed (or its empty state), background tasks
 * below a splitter, bash-mode input; or the fallback panel when the core cannot run. It restyles
 * itself whenever the IDE installs a new theme.
 */
class WavePanel(
    private val host: HostServices,
    actions: CallActions,
    clock: Clock = Clock.systemUTC(),
    onRun: (String) -> Unit,
    onRetry: () -> Unit,
    /** How many cards each feed keeps (the setting; see [SessionFeed]). */
    val maxCards: () -> Int = { SessionFeed.DEFAULT_MAX_CARDS },
) : JPanel(CardLayout()), Themed {
    val softWrap = SoftWrapSetting()
    val statusLine = StatusLine()
    val feed = SessionFeed(actions, clock, softWrap, maxCards)
    val tasks = TasksPanel(actions, clock, softWrap)
    val input = BashInput(onRun)
    val emptyState = EmptyState(host) { input.field.requestFocusInWindow() }
    val fallback = FallbackPanel(host, onRetry)
    private val feedArea = FeedArea(feed, emptyState)
    val feedScroll: JScrollPane get() = feedArea.scroll
    /** The project's own feed, then one tab per attached agent. */
    val sessions = SessionTabs(feedArea, feed)

    /**
     * The tool window's toolbar: Soft-Wrap (every output at once), Scroll to End and Clear All on
     * the feed that shows, Settings. The IDE shows them as its own ActionButtons ([setToolbar]; the
     * same ids, texts and descriptions: `action.<id>.text` in the bundle), in every session's tab;
     * outside the IDE, [iconToolbar] does, at the end of the status line.
     */
    val toolbarActions: List<ToolbarAction> = listOf(
        toolbarAction(SOFT_WRAP, { it.icons.softWrap }, isToggle = true, isSelected = { softWrap.enabled }) { softWrap.enabled = !softWrap.enabled },
        toolbarAction(SCROLL_TO_END, { it.icons.scrollToEnd }) { visibleFeed.scrollToEnd() },
        toolbarAction(CLEAR_ALL, { it.icons.clear }, isEnabled = { !visibleFeed.isEmpty }) { visibleFeed.clear() },
        toolbarAction(SETTINGS, { it.icons.settings }) { host.openSettings() },
    )

    private fun toolbarAction(id: String, icon: (Theme) -> javax.swing.Icon, isToggle: Boolean = false, isSelected: () -> Boolean = { false }, isEnabled: () -> Boolean = { true }, perform: () -> Unit) =
        ToolbarAction(id, WaveBundle.message("action.$id.text"), WaveBundle.message("action.$id.description"), icon, isToggle, isSelected, isEnabled, perform)

    fun toolbarAction(id: String): ToolbarAction? = toolbarActions.firstOrNull { it.id == id }
    val iconToolbar = IconToolbar(toolbarActions)
    val split = ThinSplitPane(sessions)

    /** Set once the person drags the splitter; from then on their choice stands. */
    private var dividerPlacedByPerson = false
    private val middle = object : JPanel(BorderLayout()) {
        override fun doLayout() {
            placeDivider(height)
            super.doLayout()
        }
    }
    private val themeSubscription = WaveTheme.addListener { Restyle.tree(this) }

    var showingFallback = false
        private set

    init {
        middle.add(sessions, BorderLayout.CENTER)
        tasks.onChange = ::tasksChanged
        split.onDividerPressed = { dividerPlacedByPerson = true }
        val session = JPanel(BorderLayout())
        session.add(statusLine, BorderLayout.NORTH)
        session.add(middle, BorderLayout.CENTER)
        session.add(input, BorderLayout.SOUTH)
        add(session, SESSION)
        add(fallback, FALLBACK)
        statusLine.setToolbar(iconToolbar)
        softWrap.onChange { iconToolbar.refresh() }
        feed.onEmptyChanged { iconToolbar.refresh() }
        themeChanged(WaveTheme.current)
        showSession()
    }

    /** The IDE's own toolbar (ActionButtons made from [toolbarActions]) in place of [iconToolbar]. */
    fun setToolbar(c: javax.swing.JComponent) = statusLine.setToolbar(c)

    override fun themeChanged(theme: Theme) {
        middle.background = theme.background
    }

    /** The tasks panel appears below a splitter once there is a task; the feed keeps the whole height before. */
    private fun tasksChanged() {
        val show = tasks.isVisible
        if (show && split.parent == null) {
            middle.remove(sessions)
            split.topComponent = sessions
            split.bottomComponent = tasks
            middle.add(split, BorderLayout.CENTER)
        } else if (!show && split.parent != null) {
            middle.remove(split)
            middle.add(sessions, BorderLayout.CENTER)
        }
        middle.revalidate()
        middle.repaint()
    }

    /** The tasks panel gets the height its rows need (at most 45 %), so there is no empty band above or below them. */
    private fun placeDivider(height: Int) {
        if (split.parent == null || dividerPlacedByPerson || height <= 0) return
        val wanted = tasks.preferredSize.height
        val location = height - split.dividerSize - minOf(wanted, height * 45 / 100)
        if (split.dividerLocation != location) split.dividerLocation = location
    }

    fun showSession() {
        showingFallback = false
        (layout as CardLayout).show(this, SESSION)
    }

    fun showFallback(state: CoreState.Failed) {
        fallback.show(state)
        showingFallback = true
        (layout as CardLayout).show(this, FALLBACK)
    }

    /** The feed of the tab that is showing: the project's own, or an attached agent's. */
    val visibleFeed: SessionFeed get() = sessions.selectedAgent?.feed ?: feed

    fun dispose() {
        themeSubscription.close()
        feed.cards().forEach { it.dispose() }
        sessions.dispose()
        tasks.dispose()
    }

    companion object {
        const val SESSION = "session"
        const val FALLBACK = "fallback"

        /** The toolbar's actions; the IDE registers its own under the same ids (plugin.xml). */
        const val SOFT_WRAP = "WaveTools.SoftWrap"
        const val SCROLL_TO_END = "WaveTools.ScrollToEnd"
        const val CLEAR_ALL = "WaveTools.ClearAll"
        const val SETTINGS = "WaveTools.Settings"
    }
}

/**
 * A vertical splitter drawn as the platform's: one separator-coloured line, a few pixels to grab.
 * It keeps its look across Look and Feel changes (which reinstall every component's UI).
 */
class ThinSplitPane(top: java.awt.Component) : JSplitPane(VERTICAL_SPLIT, top, null) {
    /** The person grabbed the divider. */
    var onDividerPressed: () -> Unit = {}

    init {
        resizeWeight = 1.0
        isContinuousLayout = true
        border = null
    }

    override fun updateUI() {
        setUI(object : BasicSplitPaneUI() {
            override fun createDefaultDivider(): BasicSplitPaneDivider = object : BasicSplitPaneDivider(this) {
                init {
                    addMouseListener(object : MouseAdapter() {
                        override fun mousePressed(e: MouseEvent) = onDividerPressed()
                    })
                }

                override fun paint(g: Graphics) {
                    val t = WaveTheme.current
                    g.color = t.background
                    g.fillRect(0, 0, width, height)
                    g.color = t.separator
                    g.fillRect(0, height / 2, width, 1)
                }
            }
        })
        dividerSize = WaveTheme.current.px(5)
        border = null
        revalidate()
    }
}
