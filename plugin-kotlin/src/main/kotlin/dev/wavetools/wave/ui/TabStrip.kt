package dev.wavetools.wave.ui

import java.awt.BorderLayout
import java.awt.Graphics
import javax.swing.BorderFactory
import javax.swing.JPanel

/**
 * A row of tabs drawn as the platform's tool window tabs: the title, an optional status dot in
 * front, the selected one underlined in the focus colour, a separator line below. Each tab is
 * reachable with Tab and selected with Enter or Space. It wraps when the row is too narrow.
 */
class TabStrip(private val onSelect: (String) -> Unit) : JPanel(BorderLayout()), Themed {
    inner class Tab(val key: String, title: String, dotTone: Tone?) : JPanel(java.awt.FlowLayout(java.awt.FlowLayout.LEFT, 0, 0)) {
        val dot = StatusDot(dotTone ?: Tone.SECONDARY).apply { isVisible = dotTone != null }
        val label = ToneLabel(title, Tone.NORMAL)
        private var hovered = false

        init {
            isOpaque = false
            add(dot)
            add(label)
            styled { t ->
                border = BorderFactory.createEmptyBorder(t.px(5), t.px(8), t.px(6), t.px(8))
                label.border = BorderFactory.createEmptyBorder(0, if (dot.isVisible) t.px(6) else 0, 0, 0)
            }
            activatable({ select(key) }) { hovered = it }
            getAccessibleContext().accessibleName = title
        }

        var title: String
            get() = label.text
            set(value) {
                label.text = value
                getAccessibleContext().accessibleName = value
            }

        /** Null: no dot. */
        fun setDot(tone: Tone?) {
            dot.isVisible = tone != null
            if (tone != null) dot.tone = tone
            Restyle.tree(this)
        }

        val isSelected: Boolean get() = selected == key

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

    private val row = JPanel(WrapLayout(hgap = 0, vgap = 0)).apply { isOpaque = false }
    private val tabs = LinkedHashMap<String, Tab>()

    var selected: String? = null
        private set

    init {
        add(row, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
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

    fun add(key: String, title: String, dotTone: Tone? = null): Tab {
        tabs[key]?.let { return it }
        val tab = Tab(key, title, dotTone)
        tabs[key] = tab
        row.add(tab)
        if (selected == null) selected = key
        revalidate()
        repaint()
        return tab
    }

    fun remove(key: String) {
        val tab = tabs.remove(key) ?: return
        row.remove(tab)
        if (selected == key) tabs.keys.firstOrNull()?.let { select(it) } ?: run { selected = null }
        revalidate()
        repaint()
    }

    fun tab(key: String): Tab? = tabs[key]

    fun tabs(): List<Tab> = tabs.values.toList()

    fun select(key: String) {
        if (key !in tabs) return
        val changed = selected != key
        selected = key
        repaint()
        tabs.values.forEach { it.repaint() }
        if (changed) onSelect(key)
    }
}
