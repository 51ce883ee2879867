package dev.wavetools.wave.ui

import java.awt.CardLayout
import javax.swing.BorderFactory
import javax.swing.JComponent
import javax.swing.JPanel
import javax.swing.JScrollPane

/**
 * A session's feed in its scroll pane, with an empty state in its place until the first card (and
 * again once the feed is cleared): the project's own tab and each agent's tab.
 */
class FeedArea(feed: SessionFeed, emptyState: JComponent) : JPanel(CardLayout()), Themed {
    val scroll = JScrollPane(feed, JScrollPane.VERTICAL_SCROLLBAR_AS_NEEDED, JScrollPane.HORIZONTAL_SCROLLBAR_NEVER).apply {
        border = BorderFactory.createEmptyBorder()
    }

    init {
        add(emptyState, EMPTY)
        add(scroll, FEED)
        feed.onEmptyChanged { empty -> (layout as CardLayout).show(this, if (empty) EMPTY else FEED) }
        (layout as CardLayout).show(this, EMPTY)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        scroll.viewport.background = theme.background
        scroll.verticalScrollBar.unitIncrement = theme.px(16)
    }

    private companion object {
        const val EMPTY = "empty"
        const val FEED = "feed"
    }
}
