package dev.wavetools.wave.ui

import java.awt.BorderLayout
import java.awt.CardLayout
import java.time.Clock
import javax.swing.BorderFactory
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JSplitPane

/** The tool window's content: status line, session feed, background tasks, bash-mode input; or the fallback panel. */
class WavePanel(host: HostServices, actions: CallActions, clock: Clock = Clock.systemUTC(), onRun: (String) -> Unit, onRetry: () -> Unit) :
    JPanel(CardLayout()) {
    val statusLine = StatusLine()
    val feed = SessionFeed(actions, clock)
    val tasks = TasksPanel(actions, clock)
    val input = BashInput(onRun)
    val fallback = FallbackPanel(host, onRetry)
    private val feedScroll = JScrollPane(feed).apply {
        border = BorderFactory.createEmptyBorder()
        verticalScrollBar.unitIncrement = 16
    }
    val split = JSplitPane(JSplitPane.VERTICAL_SPLIT, feedScroll, tasks).apply {
        resizeWeight = 0.75
        border = null
        isContinuousLayout = true
    }
    var showingFallback = false
        private set

    init {
        val session = JPanel(BorderLayout())
        session.add(statusLine, BorderLayout.NORTH)
        session.add(split, BorderLayout.CENTER)
        session.add(input, BorderLayout.SOUTH)
        add(session, SESSION)
        add(fallback, FALLBACK)
        showSession()
    }

    fun showSession() {
        showingFallback = false
        (layout as CardLayout).show(this, SESSION)
    }

    fun showFallback(title: String, message: String) {
        fallback.show(title, message)
        showingFallback = true
        (layout as CardLayout).show(this, FALLBACK)
    }

    /** The component keyboard shortcuts are scoped to (Ctrl+B, Stop): the whole tool window content. */
    val shortcutScope: JPanel get() = this

    companion object {
        const val SESSION = "session"
        const val FALLBACK = "fallback"
    }
}
