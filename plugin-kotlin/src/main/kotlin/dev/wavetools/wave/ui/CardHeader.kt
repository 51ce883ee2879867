package dev.wavetools.wave.ui

import java.awt.Component
import java.awt.Container
import java.awt.Dimension
import java.awt.LayoutManager
import javax.swing.JComponent
import javax.swing.JPanel
import javax.swing.SwingUtilities

/**
 * A card's header: on one line the [leading] marks, the [flex] part (a command, a file) that takes
 * the rest of the line and shrinks first (a label ends with "…", its full text in the tooltip),
 * and the [trailing] status; below it, indented under the flex part, an optional [below] line that
 * wraps (a description). [actions] sit at the end of the line as text buttons while the flex part
 * keeps at least [minFlexWidth]; when it would not, they turn into icon buttons with tooltips. When
 * a flex text that wraps needs more room than is left beside them — less than [minFlexWidth], or a
 * word wider than what is left (a command waiting for approval, a URL) — it moves onto a line
 * of its own under the marks, status and buttons, and wraps at the card's width instead of
 * breaking inside its words.
 * 180 px keeps about 20 characters of a command in the editor font: at 340 px a "Stop" text button
 * left only 13 ("npm run test:…"), too few to tell two commands apart.
 */
class CardHeader(
    private val leading: List<JComponent>,
    flex: JComponent,
    private val trailing: List<JComponent>,
    private val actions: List<CardAction> = emptyList(),
    below: JComponent? = null,
    private val minFlexWidth: Int = 180,
) : JPanel() {
    var flex: JComponent = flex
        set(value) {
            remove(field)
            field = value
            add(value)
            revalidate()
            repaint()
        }

    var below: JComponent? = below
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

    private var laidOutWidth = -1

    init {
        isOpaque = false
        layout = Layout()
        leading.forEach { add(it) }
        add(flex)
        trailing.forEach { add(it) }
        actions.forEach { add(it.textButton); add(it.iconButton) }
        below?.let { add(it) }
        alignmentX = LEFT_ALIGNMENT
    }

    private inner class Layout : LayoutManager {
        override fun addLayoutComponent(name: String?, comp: Component?) {}
        override fun removeLayoutComponent(comp: Component?) {}

        private fun gap() = WaveTheme.current.px(6)
        private fun visible(list: List<Component>) = list.filter { it.isVisible }
        private fun actionButtons(compact: Boolean): List<Component> = actions.filter { it.isVisible }.map { if (compact) it.iconButton else it.textButton }

        private fun rowWidth(list: List<Component>) = list.sumOf { it.preferredSize.width } + gap() * list.size

        private fun chooseCompact(width: Int): Boolean {
            val fixed = rowWidth(visible(leading)) + rowWidth(visible(trailing))
            return width - fixed - rowWidth(actionButtons(false)) < WaveTheme.current.px(minFlexWidth)
        }

        private fun flexX(): Int = rowWidth(visible(leading))

        /** Whether the flex part goes on a line of its own below the first (see the class comment). */
        private fun stacked(width: Int, compact: Boolean): Boolean {
            // Only text that wraps: a one-line label keeps its line and ends with "…" instead.
            val text = flex as? TextBlock ?: return false
            if (width <= 0) return false
            val available = width - flexX() - rowWidth(visible(trailing)) - rowWidth(actionButtons(compact))
            if (text.preferredSize.width <= available) return false
            return available < WaveTheme.current.px(minFlexWidth) || text.widestWord > available
        }

        /** The height of the first line's single-line parts (marks, status, buttons). */
        private fun firstLineHeight(compact: Boolean): Int =
            (visible(leading) + visible(trailing) + actionButtons(compact)).maxOfOrNull { it.preferredSize.height } ?: 0

        /** The height of the header's lines above [below]: one, or two when the flex part is [stack]ed. */
        private fun lineHeight(compact: Boolean, flexHeight: Int, stack: Boolean): Int =
            if (stack) firstLineHeight(compact) + WaveTheme.current.px(2) + flexHeight else firstLineHeight(compact).coerceAtLeast(flexHeight)

        override fun preferredLayoutSize(parent: Container): Dimension {
            val insets = parent.insets
            val width = if (parent.width > 0) parent.width - insets.left - insets.right else 0
            val compact = width > 0 && chooseCompact(width)
            val fixedRight = rowWidth(visible(trailing)) + rowWidth(actionButtons(compact))
            val stack = stacked(width, compact)
            val flexWidth = when {
                width <= 0 -> flex.preferredSize.width
                stack -> (width - flexX()).coerceAtLeast(0)
                else -> (width - flexX() - fixedRight).coerceAtLeast(0)
            }
            val flexHeight = heightFor(flex, flexWidth)
            var h = lineHeight(compact, flexHeight, stack)
            val b = below?.takeIf { it.isVisible }
            if (b != null) h += WaveTheme.current.px(2) + heightFor(b, if (width > 0) width - flexX() else b.preferredSize.width)
            val w = if (width > 0) width else flexX() + flex.preferredSize.width + fixedRight
            return Dimension(w + insets.left + insets.right, h + insets.top + insets.bottom)
        }

        override fun minimumLayoutSize(parent: Container): Dimension = Dimension(0, preferredLayoutSize(parent).height)

        override fun layoutContainer(parent: Container) {
            val insets = parent.insets
            val width = (parent.width - insets.left - insets.right).coerceAtLeast(0)
            compact = chooseCompact(width)
            for (a in actions) {
                a.textButton.isVisible = a.isVisible && !compact
                a.iconButton.isVisible = a.isVisible && compact
            }
            val buttons = actionButtons(compact)
            val right = visible(trailing) + buttons
            val fixedRight = rowWidth(right)
            val stack = stacked(width, compact)
            val flexWidth = (width - flexX() - if (stack) 0 else fixedRight).coerceAtLeast(0)
            val flexHeight = heightFor(flex, flexWidth)
            val line = lineHeight(compact, flexHeight, stack)
            // Single-line parts sit on the first text line, centred on it.
            val firstLine = if (stack) firstLineHeight(compact) else minOf(line, visible(leading + trailing).maxOfOrNull { it.preferredSize.height } ?: line).coerceAtLeast(buttons.maxOfOrNull { it.preferredSize.height } ?: 0)
            var x = insets.left
            for (c in visible(leading)) {
                val d = c.preferredSize
                c.setBounds(x, insets.top + (firstLine - d.height) / 2, d.width, d.height)
                x += d.width + gap()
            }
            val flexY = when {
                stack -> firstLine + WaveTheme.current.px(2)
                flexHeight < firstLine -> (firstLine - flexHeight) / 2
                else -> 0
            }
            flex.setBounds(x, insets.top + flexY, flexWidth, flexHeight)
            x = insets.left + width - fixedRight + gap()
            for (c in right) {
                val d = c.preferredSize
                c.setBounds(x, insets.top + (firstLine - d.height) / 2, d.width, d.height)
                x += d.width + gap()
            }
            below?.takeIf { it.isVisible }?.let { b ->
                val bx = insets.left + flexX()
                val bw = (width - flexX()).coerceAtLeast(0)
                b.setBounds(bx, insets.top + line + WaveTheme.current.px(2), bw, heightFor(b, bw))
            }
            if (width != laidOutWidth) {
                laidOutWidth = width
                // The height follows the width (wrapped lines): after this pass, let the card ask again.
                if (preferredLayoutSize(parent).height != parent.height) SwingUtilities.invokeLater { (parent as? JComponent)?.revalidate() }
            }
        }
    }

    companion object {
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
