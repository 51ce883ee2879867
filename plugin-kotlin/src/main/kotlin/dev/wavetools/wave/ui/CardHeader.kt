package dev.wavetools.wave.ui

import java.awt.Component
import java.awt.Container
import java.awt.Dimension
import java.awt.LayoutManager
import javax.swing.JComponent
import javax.swing.JPanel
import javax.swing.SwingUtilities

/**
 * Every card's header, one layout for all of them: the [statusIcon], then the title — optional
 * [prefix] labels (the tool's name) and the [title] that takes the rest of the line — then on the
 * right the [status] text, the [actions] and, for a card that can fold, the [chevron] last. Every
 * card's title therefore starts at the same x. Under the title, at the same x, the optional
 * [below] line (a description) that wraps.
 *
 * When the line runs short, in this order: the actions turn into icon buttons (their names in the
 * tooltips); then, when there is a description to share a line with, the status moves to the start
 * of that line — the command, which tells cards apart, keeps its room before the status does; a
 * one-line title ends with "…" (its whole text in the tooltip), a title that wraps ([TextBlock],
 * a command waiting for approval) wraps beside the icon, which stays on its first line.
 * 180 px keeps about 20 characters of a command in the editor font.
 */
class CardHeader(
    val statusIcon: StatusIcon,
    title: JComponent,
    private val status: JComponent? = null,
    private val actions: List<CardAction> = emptyList(),
    val chevron: IconButton? = null,
    below: TextBlock? = null,
    private val prefix: List<JComponent> = emptyList(),
    private val minFlexWidth: Int = 180,
) : JPanel() {
    var title: JComponent = title
        set(value) {
            if (field === value) return
            remove(field)
            field = value
            add(value)
            revalidate()
            repaint()
        }

    var below: TextBlock? = below
        set(value) {
            field?.let { remove(it) }
            field = value
            value?.let { add(it) }
            revalidate()
            repaint()
        }

    /** Whether the actions show as icon buttons (decided by the last layout). */
    var compact = false
        private set

    /** Whether the status sits at the start of the description line (decided by the last layout). */
    var statusBelow = false
        private set

    private var laidOutWidth = -1

    init {
        isOpaque = false
        layout = Layout()
        add(statusIcon)
        prefix.forEach { add(it) }
        add(title)
        status?.let { add(it) }
        actions.forEach { add(it.textButton); add(it.iconButton) }
        chevron?.let { add(it) }
        below?.let { add(it) }
        alignmentX = LEFT_ALIGNMENT
    }

    /** Where the title starts, from the header's left edge: the same on every card. */
    val titleX: Int get() = insets.left + statusIcon.preferredSize.width + WaveTheme.current.px(GAP)

    private inner class Layout : LayoutManager {
        override fun addLayoutComponent(name: String?, comp: Component?) {}
        override fun removeLayoutComponent(comp: Component?) {}

        private fun gap() = WaveTheme.current.px(GAP)
        private fun shown(c: Component?) = c != null && c.isVisible
        private fun buttons(compact: Boolean): List<Component> = actions.filter { it.isVisible }.map { if (compact) it.iconButton else it.textButton }
        private fun widthOf(list: List<Component>) = list.sumOf { it.preferredSize.width + gap() }

        private fun lead() = statusIcon.preferredSize.width + gap()
        private fun prefixWidth() = widthOf(prefix.filter { it.isVisible })
        private fun statusWidth() = if (shown(status)) status!!.preferredSize.width + gap() else 0
        private fun chevronWidth() = if (shown(chevron)) chevron!!.preferredSize.width + gap() else 0

        /** Room for the title with this arrangement of the right-hand parts. */
        private fun flexRoom(width: Int, compact: Boolean, statusOnLine: Boolean) =
            width - lead() - prefixWidth() - (if (statusOnLine) statusWidth() else 0) - widthOf(buttons(compact)) - chevronWidth()

        private fun arrange(width: Int): Pair<Boolean, Boolean> {
            if (width <= 0) return false to false
            val min = WaveTheme.current.px(minFlexWidth)
            // Decided as if every control of the card were shown, so a card whose Move to Background
            // is hidden for a moment (waiting for an answer) shows Stop the same way as its neighbours.
            val allAsText = width - lead() - prefixWidth() - statusWidth() - widthOf(actions.map { it.textButton }) - chevronWidth()
            val compact = allAsText < min && actions.any { it.isVisible }
            if (!shown(status)) return compact to false
            val room = flexRoom(width, compact, statusOnLine = true)
            val hasDescription = shown(below) && (below as TextBlock).plainText.isNotBlank()
            // A title that wraps must not break inside a word (a path, a URL) for the status's sake.
            val wordTooWide = (title as? TextBlock)?.let { it.widestWord > room } == true
            val moveStatus = (hasDescription && room < min) || wordTooWide
            return compact to moveStatus
        }

        /** The height of the title's first line: the other parts are centred on it. */
        private fun firstLine(compact: Boolean, statusOnLine: Boolean): Int {
            val t = title
            val titleLine = if (t is TextBlock) t.getFontMetrics(t.font).height else t.preferredSize.height
            val parts = listOf(statusIcon) + prefix.filter { it.isVisible } + listOfNotNull(status?.takeIf { statusOnLine && it.isVisible }) + buttons(compact) + listOfNotNull(chevron?.takeIf { it.isVisible })
            return maxOf(titleLine, parts.maxOf { it.preferredSize.height })
        }

        private fun titleLineHeight(): Int = title.let { if (it is TextBlock) it.getFontMetrics(it.font).height else it.preferredSize.height }

        override fun preferredLayoutSize(parent: Container): Dimension {
            val insets = parent.insets
            val width = if (parent.width > 0) parent.width - insets.left - insets.right else 0
            val (compact, moveStatus) = arrange(width)
            val line = firstLine(compact, !moveStatus)
            val titleTop = (line - titleLineHeight()) / 2
            val flexWidth = if (width > 0) flexRoom(width, compact, !moveStatus).coerceAtLeast(0) else title.preferredSize.width
            var h = maxOf(line, titleTop + heightFor(title, flexWidth))
            val b = below?.takeIf { it.isVisible && it.plainText.isNotBlank() }
            if (b != null) h += WaveTheme.current.px(2) + heightFor(b, if (width > 0) width - lead() else b.preferredSize.width)
            else if (moveStatus) h += WaveTheme.current.px(2) + status!!.preferredSize.height
            val w = if (width > 0) width else lead() + prefixWidth() + title.preferredSize.width + statusWidth() + widthOf(buttons(false)) + chevronWidth()
            return Dimension(w + insets.left + insets.right, h + insets.top + insets.bottom)
        }

        override fun minimumLayoutSize(parent: Container): Dimension = Dimension(0, preferredLayoutSize(parent).height)

        override fun layoutContainer(parent: Container) {
            val insets = parent.insets
            val width = (parent.width - insets.left - insets.right).coerceAtLeast(0)
            val (compactNow, moveStatus) = arrange(width)
            compact = compactNow
            statusBelow = moveStatus
            for (a in actions) {
                a.textButton.isVisible = a.isVisible && !compact
                a.iconButton.isVisible = a.isVisible && compact
            }
            val line = firstLine(compact, !moveStatus)
            fun place(c: Component, x: Int, top: Int = 0, lineHeight: Int = line): Int {
                val d = c.preferredSize
                c.setBounds(x, insets.top + top + (lineHeight - d.height) / 2, d.width, d.height)
                return x + d.width + gap()
            }
            var x = place(statusIcon, insets.left)
            for (p in prefix) if (p.isVisible) x = place(p, x)
            val flexWidth = flexRoom(width, compact, !moveStatus).coerceAtLeast(0)
            val titleTop = (line - titleLineHeight()) / 2
            val flexHeight = heightFor(title, flexWidth)
            title.setBounds(x, insets.top + titleTop, flexWidth, flexHeight)
            // The right-hand parts, right-aligned on the first line.
            val right = listOfNotNull(status?.takeIf { it.isVisible && !moveStatus }) + buttons(compact) + listOfNotNull(chevron?.takeIf { it.isVisible })
            var rx = insets.left + width - widthOf(right) + gap()
            for (c in right) rx = place(c, rx)
            val top = maxOf(line, titleTop + flexHeight) + WaveTheme.current.px(2)
            val bx = insets.left + lead()
            val bw = (width - lead()).coerceAtLeast(0)
            val description = below?.takeIf { it.isVisible && it.plainText.isNotBlank() }
            if (description == null && moveStatus) {
                // No description to share a line with: the status is the line under the title.
                val d = status!!.preferredSize
                status.setBounds(bx, insets.top + top, d.width, d.height)
            }
            description?.let { b ->
                val s = status
                if (moveStatus && s != null) {
                    val d = s.preferredSize
                    val lineH = b.getFontMetrics(b.font).height
                    s.setBounds(bx, insets.top + top + (lineH - d.height) / 2, d.width, d.height)
                    val indent = d.width + WaveTheme.current.px(8)
                    if (b.firstLineIndent != indent) b.firstLineIndent = indent
                } else if (b.firstLineIndent != 0) {
                    b.firstLineIndent = 0
                }
                b.setBounds(bx, insets.top + top, bw, heightFor(b, bw))
            }
            if (width != laidOutWidth) {
                laidOutWidth = width
                // The height follows the width (wrapped lines): after this pass, let the card ask again.
                if (preferredLayoutSize(parent).height != parent.height) SwingUtilities.invokeLater { (parent as? JComponent)?.revalidate() }
            }
        }
    }

    companion object {
        const val GAP = 6

        /** The height [c] needs at [width]: text that wraps is measured at that width. */
        fun heightFor(c: Component, width: Int): Int {
            if (c is TextBlock && width > 0) {
                val old = c.size
                c.setSize(width, Short.MAX_VALUE.toInt())
                val h = c.preferredSize.height
                c.size = old
                return h
            }
            return c.preferredSize.height
        }
    }
}
