package dev.wavetools.wave.ui

import java.awt.Component
import java.awt.Container
import java.awt.Dimension
import java.awt.Graphics
import java.awt.LayoutManager
import javax.swing.BorderFactory
import javax.swing.JLabel
import javax.swing.JMenuItem
import javax.swing.JPanel
import javax.swing.JPopupMenu

/** One tab of a [TabsModel]: what the strip shows of it. */
interface TabItem {
    val key: String
    val title: String
    /** The title as its tab shows it: with the number of questions waiting, "codex (1 waiting)". */
    val displayTitle: String get() = if (pendingApprovals > 0) WaveBundle.message("agents.tab.pending", title, pendingApprovals) else title
    val tooltip: String?
    /** It may be closed (a close button on its tab). */
    val closable: Boolean
    /** False: its title in the secondary colour (an agent that left). */
    val connected: Boolean
    /** Questions waiting in it: a warning badge on its tab. */
    val pendingApprovals: Int
}

interface TabsListener {
    fun tabAdded(item: TabItem, index: Int) {}
    fun tabChanged(item: TabItem) {}
    fun tabRemoved(item: TabItem) {}
    fun tabSelected(item: TabItem) {}
}

/** What a [TabStrip] shows and where its clicks go. */
interface TabsModel {
    val items: List<TabItem>
    val selectedItem: TabItem?
    fun select(key: String)
    fun close(key: String): Boolean
    fun addTabsListener(listener: TabsListener): AutoCloseable
}

/** Plain tabs with a title each (Connect an Agent's agents); [onSelect] hears the selected key. */
class SimpleTabsModel(private val onSelect: (String) -> Unit) : TabsModel {
    private data class Item(override val key: String, override val title: String) : TabItem {
        override val tooltip: String? get() = null
        override val closable get() = false
        override val connected get() = true
        override val pendingApprovals get() = 0
    }

    private val list = mutableListOf<Item>()
    private val listeners = java.util.concurrent.CopyOnWriteArrayList<TabsListener>()
    override val items: List<TabItem> get() = list.toList()
    override var selectedItem: TabItem? = null
        private set

    fun add(key: String, title: String) {
        val item = Item(key, title)
        list += item
        listeners.forEach { it.tabAdded(item, list.size - 1) }
        if (selectedItem == null) selectedItem = item
    }

    override fun select(key: String) {
        val item = list.firstOrNull { it.key == key } ?: return
        val changed = selectedItem !== item
        selectedItem = item
        listeners.forEach { it.tabSelected(item) }
        if (changed) onSelect(key)
    }

    override fun close(key: String) = false

    override fun addTabsListener(listener: TabsListener): AutoCloseable {
        listeners += listener
        return AutoCloseable { listeners -= listener }
    }
}

/**
 * A [TabsModel]'s tabs (the sessions: [SessionTabsModel]) as the platform draws a tool window's content tabs: one row that
 * never wraps — tabs that do not fit go into the list behind a "▾" at its end, the selected one
 * always stays in the row — the selected tab underlined in the focus colour, a warning icon on a
 * tab whose session waits for an answer, a close button on one that may be closed, the title of
 * an agent that left in the secondary colour. Each tab is reachable with Tab and selected with
 * Enter or Space.
 */
class TabStrip(val model: TabsModel) : JPanel(), Themed {
    // BorderLayout, not FlowLayout: a tab narrower than its title keeps one row and the title ends
    // with an ellipsis, as the platform's content tabs do, instead of wrapping below the strip.
    inner class Tab(val entry: TabItem) : JPanel(java.awt.BorderLayout()) {
        val badge = JLabel()
        val label = ToneLabel(entry.displayTitle, Tone.NORMAL)
        val closeButton = IconButton({ it.icons.close }, WaveBundle.message("agents.closeTab.link"), side = 16) { model.close(entry.key) }
        private var hovered = false

        val title: String get() = label.text

        init {
            isOpaque = false
            add(badge, java.awt.BorderLayout.WEST)
            add(label, java.awt.BorderLayout.CENTER)
            add(closeButton, java.awt.BorderLayout.EAST)
            activatable({ model.select(entry.key) }) { hovered = it }
            refresh()
        }

        fun refresh() {
            label.text = entry.displayTitle
            label.tone = if (entry.connected) Tone.NORMAL else Tone.SECONDARY
            toolTipText = listOfNotNull(entry.tooltip, pendingText()).joinToString("\n").ifEmpty { null }
            badge.isVisible = entry.pendingApprovals > 0
            closeButton.isVisible = entry.closable
            val pending = pendingText()
            getAccessibleContext().accessibleName = listOfNotNull(entry.title, pending).joinToString(", ")
            styled { t ->
                border = BorderFactory.createEmptyBorder(t.px(5), t.px(8), t.px(6), t.px(if (entry.closable) 2 else 8))
                badge.icon = t.icons.warning
                badge.border = BorderFactory.createEmptyBorder(0, 0, 0, t.px(5))
                closeButton.border = BorderFactory.createEmptyBorder(0, t.px(2), 0, 0)
            }
            revalidate()
            repaint()
        }

        private fun pendingText(): String? = entry.pendingApprovals.takeIf { it > 0 }?.let {
            if (it == 1) WaveBundle.message("agents.tab.pending.one") else WaveBundle.message("agents.tab.pending.many", it)
        }

        val isSelected: Boolean get() = model.selectedItem?.key == entry.key

        override fun paintComponent(g: Graphics) {
            super.paintComponent(g)
            val t = WaveTheme.current
            if (hovered && !isSelected) {
                g.color = t.hoverBackground
                g.fillRect(0, 0, width, height - t.px(3))
            }
            if (isSelected || isFocusOwner) {
                g.color = if (isSelected) t.focusColor else t.separator
                g.fillRect(0, height - t.px(3), width, t.px(3))
            }
        }
    }

    private val tabs = LinkedHashMap<String, Tab>()

    /** Opens the list of the tabs that did not fit. */
    val overflow = IconButton({ it.icons.expanded }, WaveBundle.message("agents.moreTabs.button")) { showHidden() }

    init {
        layout = RowLayout()
        add(overflow)
        model.items.forEachIndexed { i, e -> added(e, i) }
        model.addTabsListener(object : TabsListener {
            override fun tabAdded(item: TabItem, index: Int) = added(item, index)
            override fun tabChanged(item: TabItem) { tabs[item.key]?.refresh(); revalidate() }
            override fun tabRemoved(item: TabItem) {
                tabs.remove(item.key)?.let { remove(it) }
                revalidate()
                repaint()
            }
            override fun tabSelected(item: TabItem) {
                revalidate()
                repaint()
            }
        })
        themeChanged(WaveTheme.current)
    }

    private fun added(entry: TabItem, index: Int) {
        val tab = Tab(entry)
        tabs[entry.key] = tab
        add(tab, index)
        revalidate()
        repaint()
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        border = BorderFactory.createEmptyBorder(0, theme.px(4), 0, theme.px(4))
    }

    override fun paintComponent(g: Graphics) {
        super.paintComponent(g)
        g.color = WaveTheme.current.separator
        g.fillRect(0, height - 1, width, 1)
    }

    fun tab(key: String): Tab? = tabs[key]

    fun select(key: String) = model.select(key)

    fun tabs(): List<Tab> = tabs.values.toList()

    /** The tabs in the row after the last layout. */
    fun shownTabs(): List<Tab> = tabs.values.filter { it.isVisible }

    fun hiddenTabs(): List<Tab> = tabs.values.filter { !it.isVisible }

    private fun showHidden() {
        val menu = JPopupMenu()
        for (tab in hiddenTabs()) {
            val e = tab.entry
            menu.add(JMenuItem(e.title, if (e.pendingApprovals > 0) WaveTheme.current.icons.warning else null).apply { addActionListener { this@TabStrip.model.select(e.key) } })
        }
        if (isShowing) menu.show(overflow, 0, overflow.height)
    }

    /** One row: as many tabs as fit, the selected one always among them, the rest behind [overflow]. */
    private inner class RowLayout : LayoutManager {
        override fun addLayoutComponent(name: String?, comp: Component?) {}
        override fun removeLayoutComponent(comp: Component?) {}

        private fun rowHeight() = (tabs.values.map { it.preferredSize.height } + overflow.preferredSize.height).maxOrNull() ?: 0

        override fun preferredLayoutSize(parent: Container): Dimension {
            val ins = parent.insets
            return Dimension(tabs.values.sumOf { it.preferredSize.width } + ins.left + ins.right, rowHeight() + ins.top + ins.bottom)
        }

        override fun minimumLayoutSize(parent: Container) = Dimension(0, preferredLayoutSize(parent).height)

        override fun layoutContainer(parent: Container) {
            val ins = parent.insets
            val width = parent.width - ins.left - ins.right
            val all = tabs.values.toList()
            val h = rowHeight()
            val fitsAll = all.sumOf { it.preferredSize.width } <= width
            val room = if (fitsAll) width else width - overflow.preferredSize.width
            val shown = mutableListOf<Tab>()
            var used = 0
            val selected = all.firstOrNull { it.isSelected }
            val selectedWidth = selected?.preferredSize?.width ?: 0
            for (t in all) {
                val w = t.preferredSize.width
                // Keep room for the selected tab when it comes later.
                val reserve = if (selected != null && t !== selected && selected !in shown) selectedWidth else 0
                if (used + w + reserve <= room || t === selected) {
                    shown += t
                    used += w
                }
            }
            var x = ins.left
            // The overflow button keeps its place at the end: a tab cut short stops before it.
            val end = ins.left + if (shown.size < all.size) room else width
            for (t in all) {
                t.isVisible = t in shown
                if (!t.isVisible) continue
                val w = minOf(t.preferredSize.width, (end - x).coerceAtLeast(0))
                t.setBounds(x, ins.top, w, h)
                x += w
            }
            overflow.isVisible = shown.size < all.size
            if (overflow.isVisible) {
                val d = overflow.preferredSize
                overflow.setBounds(ins.left + width - d.width, ins.top + (h - d.height) / 2, d.width, d.height)
            }
        }
    }
}
