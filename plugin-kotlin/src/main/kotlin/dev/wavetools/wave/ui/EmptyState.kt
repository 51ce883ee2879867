package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.FailureKind
import dev.wavetools.wave.bridge.NodeLocator
import java.awt.Component
import java.awt.Container
import java.awt.Dimension
import java.awt.LayoutManager
import javax.swing.JComponent
import javax.swing.JPanel

/**
 * An empty state as the IntelliJ Platform UI Guidelines draw one: in the middle of the area, the
 * reason in grey, then one or two action links, then a help link — and, for a problem, what was
 * tried in a Details section that opens on demand.
 */
open class EmptyStateView : JPanel(), Themed {
    protected val column = verticalStack()
    val reasonBlock = centered(TextBlock("", Tone.SECONDARY))
    private val primaryRow = centeredRow()
    private val linksRow = centeredRow()
    val helpRow = centeredRow()
    var details: DetailsSection? = null
        private set

    init {
        isOpaque = true
        layout = CenteredColumnLayout(column)
        add(column)
        column.addRow(reasonBlock)
        primaryRow.isVisible = false
        column.addRow(primaryRow)
        column.addRow(linksRow)
        column.addRow(helpRow)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        primaryRow.border = javax.swing.BorderFactory.createEmptyBorder(theme.px(8), 0, 0, 0)
        // Under a primary link, the other links follow as a wrapped line would (the rows' vgap).
        linksRow.border = javax.swing.BorderFactory.createEmptyBorder(theme.px(if (primaryRow.isVisible) 4 else 8), 0, 0, 0)
        helpRow.border = javax.swing.BorderFactory.createEmptyBorder(theme.px(6), 0, 0, 0)
    }

    /**
     * The links, each a [LinkAction]; [primary], the fix to try first, gets a line of its own above
     * them (at every width, rather than wherever the wrapping puts it). None: the rows are hidden.
     */
    fun setLinks(links: List<LinkAction>, primary: LinkAction? = null) {
        for ((row, actions) in listOf(primaryRow to listOfNotNull(primary), linksRow to links)) {
            row.removeAll()
            actions.forEach { l -> row.add(LinkLabel(l.text) { l.run() }) }
            row.isVisible = actions.isNotEmpty()
        }
        themeChanged(WaveTheme.current)
        revalidate()
        repaint()
    }

    fun links(): List<LinkLabel> = listOf(primaryRow, linksRow, helpRow).flatMap { it.components.filterIsInstance<LinkLabel>() }

    fun setHelp(text: String, run: (() -> Unit)?) {
        helpRow.removeAll()
        if (run != null) helpRow.add(LinkLabel(text, null) { run() }.apply { styled { t -> icon = t.icons.help; foreground = t.link; font = t.font } })
        helpRow.isVisible = run != null
    }

    /** What was tried, one line each, under a collapsed Details link; none: no Details. */
    fun setDetails(lines: List<String>) {
        details?.let { column.remove(it) }
        details = null
        if (lines.isEmpty()) return
        // Paths and versions the person may want to copy: selectable.
        val list = TextBlock(lines.joinToString("\n") { "• $it" }, Tone.SECONDARY, small = true, selectable = true).apply { hangingIndent = WaveTheme.current.px(10) }
        val section = DetailsSection(WaveBundle.message("empty.details.link"), null, list, centered = true)
        section.border = javax.swing.BorderFactory.createEmptyBorder(WaveTheme.current.px(10), 0, 0, 0)
        details = section
        column.addRow(section)
        revalidate()
    }

    companion object {
        private fun centered(block: TextBlock): TextBlock = block.apply { centered = true }

        private fun centeredRow(): JPanel = JPanel(CenteredWrap()).apply { isOpaque = false }
    }

    /** Rows of links centred on the column, wrapping when they do not fit. */
    private class CenteredWrap : LayoutManager {
        private val delegate = WrapLayout(hgap = 16, vgap = 4)
        override fun addLayoutComponent(name: String?, comp: Component?) {}
        override fun removeLayoutComponent(comp: Component?) {}
        override fun preferredLayoutSize(parent: Container) = delegate.preferredLayoutSize(parent)
        override fun minimumLayoutSize(parent: Container) = delegate.minimumLayoutSize(parent)
        override fun layoutContainer(parent: Container) {
            delegate.layoutContainer(parent)
            // Shift each line so it is centred.
            val lines = parent.components.filter { it.isVisible }.groupBy { it.y }
            for ((_, line) in lines) {
                val right = line.maxOf { it.x + it.width }
                val left = line.minOf { it.x }
                val shift = (parent.width - parent.insets.right - right - (left - parent.insets.left)) / 2
                line.forEach { it.setLocation(it.x + shift, it.y) }
            }
        }
    }
}

/** Lays out one column in the middle of the parent, at most 400 px wide, a little above the centre. */
class CenteredColumnLayout(private val column: JComponent) : LayoutManager {
    override fun addLayoutComponent(name: String?, comp: Component?) {}
    override fun removeLayoutComponent(comp: Component?) {}

    private fun width(parent: Container): Int {
        val t = WaveTheme.current
        val room = parent.width - t.px(32)
        return if (room > 0) minOf(t.px(400), room) else t.px(400)
    }

    private fun columnHeight(w: Int): Int {
        column.setSize(w, Short.MAX_VALUE.toInt())
        column.doLayout()
        return column.components.filter { it.isVisible }.sumOf { CardHeader.heightFor(it, w) }
    }

    override fun preferredLayoutSize(parent: Container): Dimension = Dimension(width(parent), columnHeight(width(parent)) + WaveTheme.current.px(32))
    override fun minimumLayoutSize(parent: Container): Dimension = Dimension(0, 0)

    override fun layoutContainer(parent: Container) {
        val w = width(parent)
        val h = columnHeight(w)
        val y = maxOf(WaveTheme.current.px(16), (parent.height - h) * 2 / 5)
        column.setBounds((parent.width - w) / 2, y, w, h)
        column.doLayout()
    }
}

/** The session area before anything ran: what will appear here, "Run a Command", the host's links, help. */
class EmptyState(host: HostServices, runCommand: () -> Unit) : EmptyStateView() {
    init {
        reasonBlock.source = WaveBundle.message("empty.reason")
        setLinks(listOf(LinkAction(WaveBundle.message("empty.runCommand.link"), runCommand)) + host.emptyStateActions())
        setHelp(WaveBundle.message("empty.help.link"), host.showHelp)
    }
}

/**
 * Shown instead of the session when the core cannot run because of the machine or the settings:
 * the reason first, then what to do as links, then what was tried.
 */
class FallbackPanel(private val host: HostServices, private val onRetry: () -> Unit) : EmptyStateView() {
    var kind: FailureKind? = null
        private set

    fun show(state: CoreState.Failed) {
        kind = state.kind
        // A problem to fix, not an empty list: the reason reads as text, not as a grey hint.
        reasonBlock.tone = Tone.NORMAL
        val retry = LinkAction(WaveBundle.message("fallback.retry.link"), onRetry)
        val chooseNode = LinkAction(WaveBundle.message("fallback.chooseNode.link")) { host.chooseNode() }
        when (state.kind) {
            FailureKind.NODE_NOT_FOUND -> {
                reasonBlock.source = WaveBundle.message("fallback.node.reason", NodeLocator.MINIMUM_MAJOR)
                setLinks(listOf(chooseNode, retry), primary = host.downloadNode?.let { LinkAction(WaveBundle.message("fallback.downloadNode.link"), it) })
                setDetails(state.detail)
            }
            FailureKind.START_FAILED -> {
                reasonBlock.source = WaveBundle.message("fallback.startFailed.reason")
                setLinks(listOf(chooseNode, retry))
                setDetails(listOf(state.reason) + state.detail)
            }
            FailureKind.CORE_MISSING -> {
                reasonBlock.source = WaveBundle.message("fallback.coreMissing.reason")
                setLinks(listOf(retry))
                setDetails(listOf(state.reason) + state.detail)
            }
            FailureKind.WSL_PROJECT -> {
                // The bundle's reason says what to do; where the project is and why are the details.
                reasonBlock.source = WaveBundle.message("fallback.wslProject.reason")
                setLinks(emptyList())
                setDetails(state.detail)
            }
            FailureKind.NO_PROJECT_DIRECTORY -> {
                reasonBlock.source = WaveBundle.message("fallback.noProjectDirectory.reason")
                setLinks(emptyList())
                setDetails(emptyList())
            }
            else -> {
                reasonBlock.source = state.reason
                setLinks(listOf(LinkAction(WaveBundle.message("fallback.settings.link")) { host.openSettings() }, retry))
                setDetails(state.detail)
            }
        }
        setHelp("", null)
        revalidate()
        repaint()
    }
}
