package dev.wavetools.wave.ui.screenshots

import dev.wavetools.wave.ui.IconButton
import dev.wavetools.wave.ui.IconToolbar
import dev.wavetools.wave.ui.SessionTabsModel
import dev.wavetools.wave.ui.ShippedIcon
import dev.wavetools.wave.ui.TabStrip
import dev.wavetools.wave.ui.Theme
import dev.wavetools.wave.ui.ToneLabel
import dev.wavetools.wave.ui.WavePanel
import dev.wavetools.wave.ui.WaveTheme
import java.awt.BasicStroke
import java.awt.BorderLayout
import java.awt.CardLayout
import java.awt.Color
import java.awt.Component
import java.awt.FlowLayout
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.RenderingHints
import java.awt.geom.Arc2D
import java.awt.geom.Path2D
import javax.swing.BorderFactory
import javax.swing.Icon
import javax.swing.JPanel

/**
 * What the IDE draws around the tool window's content, for the screenshots: the header with the
 * title ("Wave"), the content tabs — one per session, as the ide/ layer maps
 * [SessionTabsModel] onto the tool window's ContentManager (the platform's tabs: one row, an
 * overflow list, the alert icon) — and the title actions (Move to Background, Stop, Connect an
 * Agent, Restart Wave Tools, the Options menu). Under it the selected content: the project's
 * panel (its toolbar at the end of the status line), or an agent's tab (its toolbar at the end of
 * the tab's header line). The platform's own header is not drawn here; this stands in for it
 * with the same parts, sizes and icons.
 */
class ToolWindowFrame(val panel: WavePanel) : JPanel(BorderLayout()) {
    private val contents = JPanel(CardLayout())
    val header = JPanel(BorderLayout())
    val tabs = TabStrip(panel.sessions.model)

    init {
        panel.sessions.useHostTabs()
        val model = panel.sessions.model
        for (e in model.entries) contents.add(e.component.takeIf { !e.isProject }?.also { toolbarFor(e) } ?: panel, e.key)
        model.addListener(object : SessionTabsModel.Listener {
            override fun added(entry: SessionTabsModel.Entry, index: Int) {
                toolbarFor(entry)
                contents.add(entry.component, entry.key)
                refreshTabs()
            }
            override fun removed(entry: SessionTabsModel.Entry) = refreshTabs()
            override fun selected(entry: SessionTabsModel.Entry) = (contents.layout as CardLayout).show(contents, entry.key)
        })
        model.selected?.let { (contents.layout as CardLayout).show(contents, it.key) }
        val t = WaveTheme.current
        val title = ToneLabel("Wave").apply { border = BorderFactory.createEmptyBorder(0, t.px(12), 0, t.px(6)) }
        header.add(title, BorderLayout.WEST)
        header.add(tabs, BorderLayout.CENTER)
        val actions = JPanel(FlowLayout(FlowLayout.RIGHT, t.px(2), 0)).apply {
            isOpaque = false
            border = BorderFactory.createEmptyBorder(t.px(6), 0, 0, t.px(6))
            // The title actions ide/WaveToolWindowFactory sets, with the icons ide/ gives them.
            add(IconButton({ ShippedIcon("moveToBackground") }, "Move to Background") {})
            add(IconButton({ it.icons.stop }, "Stop") {})
            add(IconButton({ Add }, "Connect an Agent") {})
            add(IconButton({ Restart }, "Restart Wave Tools") {})
            add(IconButton({ More }, "Options") {})
        }
        header.add(actions, BorderLayout.EAST)
        header.background = t.background
        header.border = BorderFactory.createMatteBorder(0, 0, 1, 0, t.separator)
        header.preferredSize = java.awt.Dimension(0, t.px(40))
        add(header, BorderLayout.NORTH)
        add(contents, BorderLayout.CENTER)
        refreshTabs()
    }

    /** Each agent's content has the toolbar too, as ide/SessionContents gives it (an ActionToolbar there). */
    private fun toolbarFor(entry: SessionTabsModel.Entry) {
        entry.agent?.setToolbar(IconToolbar(panel.toolbarActions))
    }

    /** The platform shows content tabs once there is more than one content. */
    private fun refreshTabs() {
        tabs.isVisible = panel.sessions.model.entries.size > 1
        // The strip draws its own bottom line; in the header the header's line is enough.
        tabs.isOpaque = false
        revalidate()
    }

    /** Stand-ins for the title actions' AllIcons, in the New UI greys. */
    private abstract class Drawn : Icon {
        override fun getIconWidth() = WaveTheme.current.px(16)
        override fun getIconHeight() = WaveTheme.current.px(16)
        override fun paintIcon(c: Component?, g: Graphics, x: Int, y: Int) {
            val t = WaveTheme.current
            val g2 = g.create() as Graphics2D
            g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
            g2.translate(x, y)
            g2.scale(t.scale.toDouble(), t.scale.toDouble())
            g2.color = if (t.isDark) Color(0xCED0D6) else Color(0x6C707E)
            g2.stroke = BasicStroke(1f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
            draw(g2, t)
            g2.dispose()
        }
        abstract fun draw(g: Graphics2D, t: Theme)
    }

    /** AllIcons.General.Add. */
    private object Add : Drawn() {
        override fun draw(g: Graphics2D, t: Theme) { g.drawLine(8, 3, 8, 13); g.drawLine(3, 8, 13, 8) }
    }

    /** AllIcons.Actions.Restart: a circular arrow. */
    private object Restart : Drawn() {
        override fun draw(g: Graphics2D, t: Theme) {
            g.draw(Arc2D.Float(2.5f, 2.5f, 11f, 11f, 90f, 270f, Arc2D.OPEN))
            g.draw(Path2D.Float().apply { moveTo(8f, 0.8f); lineTo(10f, 2.5f); lineTo(8f, 4.2f) })
        }
    }

    /** AllIcons.Actions.More: three dots, the tool window's Options. */
    private object More : Drawn() {
        override fun draw(g: Graphics2D, t: Theme) {
            for (y in listOf(3f, 7f, 11f)) g.fill(java.awt.geom.Ellipse2D.Float(7f, y, 2f, 2f))
        }
    }
}
