package dev.wavetools.wave.ui

import java.awt.BasicStroke
import java.awt.BorderLayout
import java.awt.Color
import java.awt.Component
import java.awt.Container
import java.awt.Cursor
import java.awt.Dimension
import java.awt.Font
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.Insets
import java.awt.LayoutManager
import java.awt.Rectangle
import java.awt.RenderingHints
import java.awt.Shape
import java.awt.event.ActionEvent
import java.awt.event.FocusAdapter
import java.awt.event.FocusEvent
import java.awt.event.KeyEvent
import java.awt.event.MouseAdapter
import java.awt.event.MouseEvent
import java.awt.font.TextAttribute
import javax.swing.AbstractAction
import javax.swing.BorderFactory
import javax.swing.Icon
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JTextPane
import javax.swing.KeyStroke
import javax.swing.SwingConstants
import javax.swing.text.DefaultStyledDocument
import javax.swing.text.SimpleAttributeSet
import javax.swing.text.StyleConstants

/** What a label's colour means; the theme says which colour that is. */
enum class Tone {
    NORMAL, SECONDARY, ERROR, WARNING, SUCCESS, RUNNING;

    fun color(t: Theme): Color = when (this) {
        NORMAL -> t.foreground
        SECONDARY -> t.secondary
        ERROR -> t.error
        WARNING -> t.warning
        SUCCESS -> t.success
        RUNNING -> t.running
    }
}

/**
 * A one-line label that, given less room than its text needs, ends with the platform's "…" (Swing's
 * own labels cut with "..."); the whole text is then its tooltip unless it has one of its own.
 */
open class EllipsisLabel(text: String = "") : JLabel(text) {
    /** Whether the last paint had to cut the text. */
    var isCut = false
        private set

    override fun getMinimumSize(): Dimension = if (isMinimumSizeSet) super.getMinimumSize() else Dimension(0, super.getMinimumSize().height)

    override fun paintComponent(g: Graphics) {
        val full = text ?: ""
        val fm = getFontMetrics(font)
        val ins = insets
        val icon = if (isEnabled) icon else disabledIcon ?: icon
        val iconRoom = icon?.let { it.iconWidth + iconTextGap } ?: 0
        val room = width - ins.left - ins.right - iconRoom
        isCut = fm.stringWidth(full) > room
        if (!isCut) return super.paintComponent(g)
        if (isOpaque) {
            g.color = background
            g.fillRect(0, 0, width, height)
        }
        val inner = height - ins.top - ins.bottom
        icon?.paintIcon(this, g, ins.left, ins.top + (inner - icon.iconHeight) / 2)
        g.color = if (isEnabled) foreground else WaveTheme.current.secondary
        g.font = font
        val y = ins.top + (inner - fm.height) / 2 + fm.ascent
        javax.swing.plaf.basic.BasicGraphicsUtils.drawString(this, g as Graphics2D, clip(full, fm, room), (ins.left + iconRoom).toFloat(), y.toFloat())
    }

    override fun getToolTipText(): String? = super.getToolTipText() ?: text?.takeIf { isCut }

    companion object {
        /** The longest start of [text] that, followed by "…", fits in [room] pixels. */
        fun clip(text: String, fm: java.awt.FontMetrics, room: Int): String {
            if (fm.stringWidth(text) <= room) return text
            var lo = 0
            var hi = text.length
            while (lo < hi) {
                val mid = (lo + hi + 1) / 2
                if (fm.stringWidth(text.substring(0, mid).trimEnd() + "…") <= room) lo = mid else hi = mid - 1
            }
            return text.substring(0, lo).trimEnd() + "…"
        }
    }
}

/** A one-line label in the UI font ([small]: the secondary size) whose colour follows [tone]. */
open class ToneLabel(text: String = "", tone: Tone = Tone.NORMAL, private val small: Boolean = false) : EllipsisLabel(text) {
    var tone: Tone = tone
        set(value) {
            field = value
            foreground = value.color(WaveTheme.current)
        }

    init {
        styled { t ->
            font = if (small) t.smallFont else t.font
            foreground = this.tone.color(t)
        }
    }
}

fun secondaryLabel(text: String): ToneLabel = ToneLabel(text, Tone.SECONDARY, small = true)

/**
 * A link, as the platform's ActionLink: link colour, underlined while hovered or focused, reachable
 * with Tab and pressed with Enter or Space. [icon] sits before the text (the help link's). [isData]:
 * the text is a name from the session (a file path), not an action's name in Title Case.
 */
class LinkLabel(text: String, icon: Icon? = null, val isData: Boolean = false, private val onClick: () -> Unit) : JLabel(text, icon, SwingConstants.LEADING) {
    private var hovered = false

    init {
        styled { t ->
            foreground = t.link
            font = t.font
            iconTextGap = t.px(4)
        }
        activatable(onClick) { hovered = it }
        getAccessibleContext().accessibleName = text
    }

    /** For tests and keyboard activation. */
    fun click() = onClick()

    override fun getFont(): Font? {
        // Called by JLabel's constructor too, before this class is initialised.
        val f = super.getFont() ?: return null
        if (!hovered && !isFocusOwner) return f
        return f.deriveFont(mapOf(TextAttribute.UNDERLINE to TextAttribute.UNDERLINE_ON))
    }
}

/**
 * Makes a component act like a link or a tab: clicked, or Enter or Space while it has the focus,
 * runs [onActivate]; it repaints when hovered ([onHover]) or focused, to show that.
 */
fun JComponent.activatable(onActivate: () -> Unit, onHover: (Boolean) -> Unit) {
    isFocusable = true
    cursor = Cursor.getPredefinedCursor(Cursor.HAND_CURSOR)
    addMouseListener(object : MouseAdapter() {
        override fun mouseClicked(e: MouseEvent) = onActivate()
        override fun mouseEntered(e: MouseEvent) { onHover(true); repaint() }
        override fun mouseExited(e: MouseEvent) { onHover(false); repaint() }
    })
    addFocusListener(object : FocusAdapter() {
        override fun focusGained(e: FocusEvent) = repaint()
        override fun focusLost(e: FocusEvent) = repaint()
    })
    for (key in listOf(KeyEvent.VK_ENTER, KeyEvent.VK_SPACE)) getInputMap(JComponent.WHEN_FOCUSED).put(KeyStroke.getKeyStroke(key, 0), "activate")
    actionMap.put("activate", object : AbstractAction() {
        override fun actionPerformed(e: ActionEvent) = onActivate()
    })
}

/**
 * What a call, a task or the core is doing, as the platform shows it: an icon (the spinner while
 * it runs, passed, failed, stopped, paused for an answer, in the background) beside the status
 * text's colour, so it reads without telling colours apart.
 */
enum class CallState {
    RUNNING, WAITING, PASSED, FAILED, STOPPED, BACKGROUND;

    fun icon(t: Theme): Icon = when (this) {
        RUNNING -> t.icons.running
        WAITING -> t.icons.waiting
        PASSED -> t.icons.passed
        FAILED -> t.icons.failed
        STOPPED -> t.icons.stopped
        BACKGROUND -> t.icons.moveToBackground
    }

    companion object {
        /** The state a status text's tone stands for, where a card has no more to say. */
        fun of(tone: Tone): CallState = when (tone) {
            Tone.SUCCESS -> PASSED
            Tone.ERROR -> FAILED
            Tone.WARNING -> STOPPED
            Tone.RUNNING -> RUNNING
            Tone.NORMAL, Tone.SECONDARY -> STOPPED
        }
    }
}

/** A [CallState]'s icon, 16 px, with the state's words for screen readers. */
class StatusIcon(state: CallState) : JComponent() {
    var state: CallState = state
        set(value) {
            if (field == value) return
            field = value
            getAccessibleContext().accessibleName = value.name.lowercase()
            repaint()
        }

    init {
        getAccessibleContext().accessibleName = state.name.lowercase()
    }

    override fun getAccessibleContext(): javax.accessibility.AccessibleContext {
        if (accessibleContext == null) {
            accessibleContext = object : AccessibleJComponent() {
                override fun getAccessibleRole() = javax.accessibility.AccessibleRole.ICON
            }
        }
        return accessibleContext
    }

    val icon: Icon get() = state.icon(WaveTheme.current)

    override fun getPreferredSize(): Dimension = WaveTheme.current.px(16).let { Dimension(it, it) }
    override fun getMinimumSize(): Dimension = preferredSize
    override fun getMaximumSize(): Dimension = preferredSize

    override fun paintComponent(g: Graphics) {
        val i = icon
        i.paintIcon(this, g, (width - i.iconWidth) / 2, (height - i.iconHeight) / 2)
    }
}

/**
 * An icon button as the platform's toolbar ActionButton: flat, a rounded background while hovered
 * or pressed (or [selected], for a toggle), the action's name in the tooltip. Focusable; Enter and
 * Space press it.
 */
class IconButton(
    private val iconOf: (Theme) -> Icon,
    name: String,
    description: String? = null,
    /** Its square's side: 24 as the toolbar's ActionButton, 16 inside a tab. */
    private val side: Int = 24,
    private val onClick: () -> Unit,
) : JComponent() {
    private var hovered = false
    private var pressed = false

    var selected: Boolean = false
        set(value) {
            field = value
            repaint()
        }

    init {
        isFocusable = true
        toolTipText = if (description != null) "$name — $description" else name
        getAccessibleContext().accessibleName = name
        addMouseListener(object : MouseAdapter() {
            override fun mouseEntered(e: MouseEvent) { hovered = true; repaint() }
            override fun mouseExited(e: MouseEvent) { hovered = false; pressed = false; repaint() }
            override fun mousePressed(e: MouseEvent) { if (isEnabled) { pressed = true; repaint() } }
            override fun mouseReleased(e: MouseEvent) {
                val inside = pressed && contains(e.point)
                pressed = false
                repaint()
                if (inside) click()
            }
        })
        addFocusListener(object : FocusAdapter() {
            override fun focusGained(e: FocusEvent) = repaint()
            override fun focusLost(e: FocusEvent) = repaint()
        })
        for (key in listOf(KeyEvent.VK_ENTER, KeyEvent.VK_SPACE)) getInputMap(WHEN_FOCUSED).put(KeyStroke.getKeyStroke(key, 0), "press")
        actionMap.put("press", object : AbstractAction() {
            override fun actionPerformed(e: ActionEvent) = click()
        })
    }

    fun click() {
        if (isEnabled) onClick()
    }

    /** Screen readers hear a button with the action's name. */
    override fun getAccessibleContext(): javax.accessibility.AccessibleContext {
        if (accessibleContext == null) {
            accessibleContext = object : AccessibleJComponent() {
                override fun getAccessibleRole() = javax.accessibility.AccessibleRole.PUSH_BUTTON
            }
        }
        return accessibleContext
    }

    override fun setEnabled(enabled: Boolean) {
        super.setEnabled(enabled)
        repaint()
    }

    override fun getPreferredSize(): Dimension = WaveTheme.current.px(side).let { Dimension(it, it) }
    override fun getMinimumSize(): Dimension = preferredSize
    override fun getMaximumSize(): Dimension = preferredSize

    override fun paintComponent(g: Graphics) {
        val t = WaveTheme.current
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        val arc = t.px(if (side < 20) 4 else 6)
        val fill = when {
            !isEnabled -> null
            pressed || selected -> t.pressedBackground
            hovered -> t.hoverBackground
            else -> null
        }
        if (fill != null) {
            g2.color = fill
            g2.fillRoundRect(0, 0, width, height, arc, arc)
        }
        if (isFocusOwner) {
            g2.color = t.focusColor
            g2.stroke = BasicStroke(t.px(2).toFloat())
            g2.drawRoundRect(1, 1, width - 2, height - 2, arc, arc)
        }
        val icon = iconOf(t)
        if (!isEnabled) g2.composite = java.awt.AlphaComposite.getInstance(java.awt.AlphaComposite.SRC_OVER, 0.4f)
        icon.paintIcon(this, g2, (width - icon.iconWidth) / 2, (height - icon.iconHeight) / 2)
        g2.dispose()
    }
}

/**
 * One control of a card (Move to Background, Stop): a text button where there is room, an icon
 * button with the same name in its tooltip where there is not. Both press the same action and
 * share enabled, visible and text.
 */
class CardAction(label: String, iconOf: (Theme) -> Icon, private val tooltip: String, private val onClick: () -> Unit) {
    var label: String = label
        set(value) {
            field = value
            textButton.text = value
            iconButton.toolTipText = "$value — $tooltip"
            iconButton.getAccessibleContext().accessibleName = value
        }

    val textButton: JButton = smallButton(label, tooltip) { onClick() }
    val iconButton = IconButton(iconOf, label, tooltip) { onClick() }

    var isEnabled: Boolean = true
        set(value) {
            field = value
            textButton.isEnabled = value
            iconButton.isEnabled = value
        }

    var isVisible: Boolean = true
        set(value) {
            field = value
            textButton.isVisible = value
            iconButton.isVisible = value
        }

    fun click() {
        if (isEnabled) onClick()
    }
}

/** A button in the UI font, sized as the platform's (no bold, no oversized margins). */
fun smallButton(text: String, tooltip: String? = null, action: () -> Unit): JButton = JButton(text).apply {
    isFocusable = true
    toolTipText = tooltip
    styled { t -> font = t.font }
    addActionListener { action() }
}

/**
 * Lays components out left to right and wraps to the next line when the width runs out, the way
 * text wraps; unlike FlowLayout it reports the wrapped height, so a parent gives it room, and it
 * narrows a component wider than a whole line to the line (a label then ends with "…").
 */
class WrapLayout(private val hgap: Int = 8, private val vgap: Int = 2) : LayoutManager {
    override fun addLayoutComponent(name: String?, comp: Component?) {}
    override fun removeLayoutComponent(comp: Component?) {}

    override fun preferredLayoutSize(parent: Container): Dimension = size(parent, availableWidth(parent))
    override fun minimumLayoutSize(parent: Container): Dimension = size(parent, availableWidth(parent)).let { Dimension(0, it.height) }

    private fun availableWidth(parent: Container): Int {
        val insets = parent.insets
        // Before the first layout the parent has no width: lay out on one line.
        return if (parent.width > 0) parent.width - insets.left - insets.right else Int.MAX_VALUE
    }

    private fun gapX() = WaveTheme.current.px(hgap)
    private fun gapY() = WaveTheme.current.px(vgap)

    private fun rows(parent: Container, width: Int): List<List<Pair<Component, Dimension>>> {
        val rows = mutableListOf<MutableList<Pair<Component, Dimension>>>()
        var row = mutableListOf<Pair<Component, Dimension>>()
        var x = 0
        for (c in parent.components) {
            if (!c.isVisible) continue
            val pref = c.preferredSize
            val w = minOf(pref.width, width)
            if (row.isNotEmpty() && x + gapX() + w > width) {
                rows += row
                row = mutableListOf()
                x = 0
            }
            x += (if (row.isEmpty()) 0 else gapX()) + w
            row += c to Dimension(w, pref.height)
        }
        if (row.isNotEmpty()) rows += row
        return rows
    }

    private fun size(parent: Container, width: Int): Dimension {
        val insets = parent.insets
        val rows = rows(parent, width)
        val w = rows.maxOfOrNull { r -> r.sumOf { it.second.width } + gapX() * (r.size - 1) } ?: 0
        val h = rows.sumOf { r -> r.maxOf { it.second.height } } + gapY() * (rows.size - 1).coerceAtLeast(0)
        return Dimension(w + insets.left + insets.right, h + insets.top + insets.bottom)
    }

    override fun layoutContainer(parent: Container) {
        val insets = parent.insets
        val width = (parent.width - insets.left - insets.right).coerceAtLeast(0)
        var y = insets.top
        for (row in rows(parent, width)) {
            val h = row.maxOf { it.second.height }
            var x = insets.left
            for ((c, d) in row) {
                c.setBounds(x, y + (h - d.height) / 2, d.width, d.height)
                x += d.width + gapX()
            }
            y += h + gapY()
        }
    }
}

/** A transparent panel with a [WrapLayout]. */
fun wrapRow(vararg children: Component, hgap: Int = 8, vgap: Int = 2): JPanel = JPanel(WrapLayout(hgap, vgap)).apply {
    isOpaque = false
    children.forEach { add(it) }
}

/**
 * Text that wraps at word boundaries to the width it is given (warnings, reasons, descriptions):
 * never cut mid-word, never wider than its parent. `code` in backticks shows in the editor font on
 * the code background, as the core's Markdown means it ([markdown]).
 */
class TextBlock(
    text: String = "",
    tone: Tone = Tone.NORMAL,
    private val small: Boolean = false,
    private val markdown: Boolean = false,
    private val mono: Boolean = false,
    /** The text can be selected and copied (a value in Details); otherwise it takes no focus. */
    val selectable: Boolean = false,
) : JTextPane(DefaultStyledDocument()), Themed {
    /** A property whose change renders the text again. */
    private fun <T> rendering(initial: T) = kotlin.properties.Delegates.observable(initial) { _, _, _ -> render(WaveTheme.current) }

    var source: String by rendering(text)
    var tone: Tone by rendering(tone)
    var bold: Boolean by rendering(false)

    /** Lines after the first of each paragraph start this many pixels further in (a bullet list). */
    var hangingIndent: Int by rendering(0)

    /** Centred lines (an empty state's reason). */
    var centered: Boolean by rendering(false)

    /** The first line starts this many pixels further in (room for a label placed before it). */
    var firstLineIndent: Int by rendering(0)

    init {
        editorKit = WrapAnywhereKit()
        isEditable = false
        isOpaque = false
        isFocusable = selectable
        (caret as? javax.swing.text.DefaultCaret)?.updatePolicy = javax.swing.text.DefaultCaret.NEVER_UPDATE
        border = BorderFactory.createEmptyBorder()
        margin = Insets(0, 0, 0, 0)
        alignmentX = LEFT_ALIGNMENT
        render(WaveTheme.current)
    }

    /** The text as shown (backticks gone). */
    val plainText: String get() = document.getText(0, document.length).replace(NO_BREAK_SPACE, ' ')

    /** The width of its widest word: narrower than that, the word would have to break inside. */
    val widestWord: Int
        get() {
            val metrics = getFontMetrics(font)
            return plainText.split(Regex("\\s+")).maxOfOrNull { metrics.stringWidth(it) } ?: 0
        }

    override fun themeChanged(theme: Theme) = render(theme)

    private fun render(t: Theme) {
        val base = if (mono) t.monoFont else if (small) t.smallFont else t.font
        font = base
        foreground = tone.color(t)
        val doc = styledDocument
        doc.remove(0, doc.length)
        val plain = SimpleAttributeSet().apply {
            StyleConstants.setFontFamily(this, base.family)
            StyleConstants.setFontSize(this, base.size)
            StyleConstants.setForeground(this, tone.color(t))
            StyleConstants.setBold(this, bold)
        }
        val code = SimpleAttributeSet(plain).apply {
            StyleConstants.setFontFamily(this, t.monoFont.family)
            StyleConstants.setBackground(this, t.codeBackground)
        }
        val codeMetrics = getFontMetrics(t.monoFont.deriveFont(base.size2D))
        for (run in if (markdown) InlineCode.split(source) else listOf(InlineCode.Run(source, false))) {
            // A `chip` stays on one line (a command reads as one token) unless it is wider than the
            // whole line; then it breaks at its own spaces, never inside a word.
            val text = if (run.code && codeMetrics.stringWidth(run.text) <= chipRoom()) run.text.replace(' ', NO_BREAK_SPACE) else run.text
            doc.insertString(doc.length, text, if (run.code) code else plain)
        }
        // Any character past Latin-1 (a bullet, a dash, "…") sets AbstractDocument.MultiByteProperty
        // (package-private, "multiByte"), which switches Swing to the JDK's line BreakIterator: it
        // breaks inside "Node.js", "v16.20.2" and "-rf". Lines break at spaces instead, and inside a
        // word only when it alone is wider than the line (WrapAnywhereKit).
        doc.putProperty(MULTI_BYTE_PROPERTY, false)
        val paragraph = SimpleAttributeSet().apply {
            StyleConstants.setAlignment(this, if (centered) StyleConstants.ALIGN_CENTER else StyleConstants.ALIGN_LEFT)
            StyleConstants.setLeftIndent(this, hangingIndent.toFloat())
            StyleConstants.setFirstLineIndent(this, (firstLineIndent - hangingIndent).toFloat())
        }
        doc.setParagraphAttributes(0, doc.length, paragraph, false)
        revalidate()
        repaint()
    }

    private var boundsWidth = -1

    /** The widest a `chip` may be and still be kept on one line: the line, before the first layout any width. */
    private fun chipRoom(): Int = if (boundsWidth > 0) boundsWidth - hangingIndent else Int.MAX_VALUE

    /** Which chips the last rendering kept on one line; a new width that changes that renders again. */
    private fun chipsKeptWhole(room: Int): List<Boolean> {
        if (!markdown) return emptyList()
        val fm = getFontMetrics(WaveTheme.current.monoFont.deriveFont(font.size2D))
        return InlineCode.split(source).filter { it.code }.map { fm.stringWidth(it.text) <= room }
    }

    override fun setBounds(x: Int, y: Int, width: Int, height: Int) {
        val before = chipsKeptWhole(chipRoom())
        super.setBounds(x, y, width, height)
        // Wrapped text is as tall as its width makes it: when the width changed, let the parent ask again.
        if (width != boundsWidth) {
            boundsWidth = width
            if (before != chipsKeptWhole(chipRoom())) render(WaveTheme.current)
            if (width > 0 && preferredSize.height != height) javax.swing.SwingUtilities.invokeLater { parent?.let { (it as? JComponent)?.revalidate() } }
        }
    }

    override fun getMinimumSize(): Dimension = Dimension(0, super.getMinimumSize().height)

    private companion object {
        const val MULTI_BYTE_PROPERTY = "multiByte"

        /** Swing's line breaking (whitespace-based, see render) never breaks at U+00A0. */
        const val NO_BREAK_SPACE = '\u00A0'
    }
}

/**
 * Wrapping as people expect for commands and paths: at spaces where it can, and inside a word only
 * when the word alone is wider than the line (Swing would otherwise let it run past the edge).
 */
class WrapAnywhereKit : javax.swing.text.StyledEditorKit() {
    private val factory = javax.swing.text.ViewFactory { elem ->
        when (elem.name) {
            javax.swing.text.AbstractDocument.ContentElementName -> object : javax.swing.text.LabelView(elem) {
                override fun getMinimumSpan(axis: Int): Float = if (axis == javax.swing.text.View.X_AXIS) 0f else super.getMinimumSpan(axis)
            }
            javax.swing.text.AbstractDocument.ParagraphElementName -> HangingParagraphView(elem)
            javax.swing.text.AbstractDocument.SectionElementName -> javax.swing.text.BoxView(elem, javax.swing.text.View.Y_AXIS)
            javax.swing.text.StyleConstants.ComponentElementName -> javax.swing.text.ComponentView(elem)
            javax.swing.text.StyleConstants.IconElementName -> javax.swing.text.IconView(elem)
            else -> javax.swing.text.LabelView(elem)
        }
    }

    override fun getViewFactory(): javax.swing.text.ViewFactory = factory

    override fun createDefaultDocument(): javax.swing.text.Document = DefaultStyledDocument(ThemeStyleContext())

    /**
     * A paragraph that paints each row once. Swing's ParagraphView paints the first row a second time
     * when the first line's indent is negative (a hanging indent: the bullet lists of Details), so with
     * antialiased text that row came out heavier and darker than the lines under it.
     */
    private class HangingParagraphView(elem: javax.swing.text.Element) : javax.swing.text.ParagraphView(elem) {
        override fun paint(g: Graphics, a: Shape) {
            if (firstLineIndent >= 0) return super.paint(g, a)
            val clip = g.clipBounds
            for (i in 0 until viewCount) {
                val row = getChildAllocation(i, a)?.bounds ?: continue
                // The first row draws from its allocation's left edge minus the hanging indent.
                val drawn = if (i == 0) Rectangle(row.x + firstLineIndent, row.y, row.width - firstLineIndent, row.height) else row
                if (clip == null || drawn.intersects(clip)) paintChild(g, row, i)
            }
        }
    }
}

/**
 * Styled text asks its StyleContext for a font by family name, which makes a new font without
 * the fallback the theme's fonts carry (the IDE's fonts draw a character the main font lacks from
 * another font; a font made by name draws a box). This context derives from the theme's fonts.
 */
class ThemeStyleContext : javax.swing.text.StyleContext() {
    override fun getFont(family: String, style: Int, size: Int): Font {
        val t = WaveTheme.current
        for (base in listOf(t.monoFont, t.font, t.smallFont)) {
            if (base.family == family) return base.deriveFont(style, size.toFloat())
        }
        return super.getFont(family, style, size)
    }
}

/** `code` spans in the core's one-line Markdown. */
object InlineCode {
    data class Run(val text: String, val code: Boolean)

    /** Splits [text] at backticks; an unmatched backtick is shown as it is. */
    fun split(text: String): List<Run> {
        val runs = mutableListOf<Run>()
        var i = 0
        val plain = StringBuilder()
        while (i < text.length) {
            val c = text[i]
            if (c == '`') {
                val end = text.indexOf('`', i + 1)
                if (end > i + 1) {
                    if (plain.isNotEmpty()) { runs += Run(plain.toString(), false); plain.setLength(0) }
                    runs += Run(text.substring(i + 1, end), true)
                    i = end + 1
                    continue
                }
            }
            plain.append(c)
            i++
        }
        if (plain.isNotEmpty()) runs += Run(plain.toString(), false)
        return runs
    }
}

/**
 * A card in the feed: one rounded border in the theme's card colours around its content. Cards
 * never nest; what sits inside (output, approval) is set apart by its fill, not another border.
 */
open class CardPanel : JPanel(BorderLayout()), Themed {
    /** Full width, own height: in the feed's vertical box a card never stretches. */
    override fun getMaximumSize(): Dimension = Dimension(Int.MAX_VALUE, preferredSize.height)

    /** The border colour; an approval waiting for the person draws it in the warning colour. */
    protected open fun borderColor(t: Theme): Color = t.cardBorder

    init {
        isOpaque = false
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        border = BorderFactory.createEmptyBorder(theme.px(8), theme.px(10), theme.px(8), theme.px(10))
    }

    override fun paintComponent(g: Graphics) {
        val t = WaveTheme.current
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        val arc = t.px(10)
        g2.color = t.cardBackground
        g2.fillRoundRect(0, 0, width - 1, height - 1, arc, arc)
        g2.color = borderColor(t)
        g2.drawRoundRect(0, 0, width - 1, height - 1, arc, arc)
        g2.dispose()
        super.paintComponent(g)
    }
}

/** A filled, rounded area inside a card (an approval, a banner); no border of its own. [fill] null: no fill. */
open class FilledPanel(layout: LayoutManager, private val fill: (Theme) -> Color?) : JPanel(layout) {
    init {
        isOpaque = false
    }

    override fun paintComponent(g: Graphics) {
        val t = WaveTheme.current
        val color = fill(t)
        if (color != null) {
            val g2 = g.create() as Graphics2D
            g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
            g2.color = color
            val arc = t.px(8)
            g2.fillRoundRect(0, 0, width, height, arc, arc)
            g2.dispose()
        }
        super.paintComponent(g)
    }
}

/** An icon in front of wrapping text, top-aligned (a warning, a note). */
class IconText(private val iconOf: (Theme) -> Icon, val text: TextBlock) : JPanel(BorderLayout()) {
    private val iconLabel = JLabel()

    init {
        isOpaque = false
        alignmentX = LEFT_ALIGNMENT
        iconLabel.verticalAlignment = SwingConstants.TOP
        iconLabel.styled { t -> icon = iconOf(t); border = BorderFactory.createEmptyBorder(t.px(1), 0, 0, t.px(6)) }
        add(iconLabel, BorderLayout.WEST)
        add(text, BorderLayout.CENTER)
    }
}

/**
 * A collapsed section: a "Details" link with a chevron that shows or hides [content]. The
 * [summary] next to it says what is inside without opening it.
 */
class DetailsSection(title: String, summary: String?, private val content: JComponent, centered: Boolean = false) : JPanel(BorderLayout()) {
    val toggle = LinkLabel(title, null) { setExpanded(!expanded) }
    val summaryLabel = secondaryLabel(summary ?: "")
    var expanded = false
        private set
    private val holder: JComponent

    init {
        isOpaque = false
        alignmentX = LEFT_ALIGNMENT
        toggle.styled { t -> icon = t.icons.collapsed; foreground = t.link; font = t.smallFont }
        summaryLabel.isVisible = !summary.isNullOrBlank()
        add(if (centered) JPanel(java.awt.FlowLayout(java.awt.FlowLayout.CENTER, 0, 0)).apply { isOpaque = false; add(toggle) } else wrapRow(toggle, summaryLabel, hgap = 6), BorderLayout.NORTH)
        content.isVisible = false
        // Indented under the link's text, so what Details holds reads as its content.
        holder = if (centered) content else JPanel(BorderLayout()).apply {
            isOpaque = false
            add(content, BorderLayout.CENTER)
            styled { t -> border = BorderFactory.createEmptyBorder(t.px(4), t.px(20), 0, 0) }
            isVisible = false
        }
        add(holder, BorderLayout.CENTER)
    }

    fun setExpanded(value: Boolean) {
        expanded = value
        content.isVisible = value
        holder.isVisible = value
        toggle.styled { t -> icon = if (expanded) t.icons.expanded else t.icons.collapsed; foreground = t.link; font = t.smallFont }
        revalidate()
        repaint()
    }
}

/** A vertical stack of left-aligned rows, each as wide as the stack; [gapAbove] px above it while it has visible rows. */
fun verticalStack(gapAbove: Int = 0): JPanel = object : JPanel() {
    override fun getInsets(): Insets {
        val top = if (gapAbove > 0 && components.any { it.isVisible }) WaveTheme.current.px(gapAbove) else 0
        return Insets(top, 0, 0, 0)
    }
}.apply {
    isOpaque = false
    layout = javax.swing.BoxLayout(this, javax.swing.BoxLayout.Y_AXIS)
    alignmentX = Component.LEFT_ALIGNMENT
}

/** Adds [c] left-aligned (BoxLayout lines children up by their alignment). */
fun JPanel.addRow(c: JComponent): JComponent {
    c.alignmentX = Component.LEFT_ALIGNMENT
    add(c)
    return c
}

/**
 * Facts as an aligned list: the names in one column (UI font, secondary), the values beside them
 * in the editor font, wrapping and selectable so a path or a pid can be copied. Narrower than a
 * name and a short value side by side, each value goes under its name.
 */
class KeyValueList : JPanel(), Themed {
    private val rows = mutableListOf<Pair<ToneLabel, TextBlock>>()

    init {
        isOpaque = false
        alignmentX = LEFT_ALIGNMENT
        layout = Layout()
    }

    fun add(name: String, value: String): TextBlock {
        val label = ToneLabel(name, Tone.SECONDARY, small = true)
        val block = TextBlock(value, mono = true, selectable = true).apply { getAccessibleContext().accessibleName = name }
        rows += label to block
        add(label)
        add(block)
        revalidate()
        return block
    }

    /** The values by name, in order (what the tests read). */
    fun values(): Map<String, String> = rows.associate { (l, v) -> l.text to v.plainText }

    override fun themeChanged(theme: Theme) = revalidate()

    private inner class Layout : LayoutManager {
        override fun addLayoutComponent(name: String?, comp: Component?) {}
        override fun removeLayoutComponent(comp: Component?) {}

        private fun nameWidth() = rows.maxOfOrNull { it.first.preferredSize.width } ?: 0
        private fun gap() = WaveTheme.current.px(12)
        private fun sideBySide(width: Int) = width <= 0 || width - nameWidth() - gap() >= WaveTheme.current.px(120)

        private fun heights(width: Int): List<Int> = rows.map { (l, v) ->
            if (sideBySide(width)) maxOf(l.preferredSize.height, CardHeader.heightFor(v, width - nameWidth() - gap()))
            else l.preferredSize.height + CardHeader.heightFor(v, width)
        }

        override fun preferredLayoutSize(parent: Container): Dimension {
            val width = parent.width - parent.insets.left - parent.insets.right
            val h = heights(width).sum() + WaveTheme.current.px(2) * (rows.size - 1).coerceAtLeast(0)
            val w = if (width > 0) width else nameWidth() + gap() + (rows.maxOfOrNull { it.second.preferredSize.width } ?: 0)
            return Dimension(w + parent.insets.left + parent.insets.right, h + parent.insets.top + parent.insets.bottom)
        }

        override fun minimumLayoutSize(parent: Container) = Dimension(0, preferredLayoutSize(parent).height)

        override fun layoutContainer(parent: Container) {
            val ins = parent.insets
            val width = (parent.width - ins.left - ins.right).coerceAtLeast(0)
            val side = sideBySide(width)
            var y = ins.top
            for ((i, h) in heights(width).withIndex()) {
                val (l, v) = rows[i]
                val lh = l.preferredSize.height
                l.setBounds(ins.left, y, if (side) nameWidth() else width, lh)
                if (side) {
                    val vx = ins.left + nameWidth() + gap()
                    v.setBounds(vx, y, width - nameWidth() - gap(), CardHeader.heightFor(v, width - nameWidth() - gap()))
                } else {
                    v.setBounds(ins.left, y + lh, width, CardHeader.heightFor(v, width))
                }
                y += h + WaveTheme.current.px(2)
            }
        }
    }
}

/**
 * A button that can also offer other ways to do what it does, as the platform's option button
 * (Commit ▾): while [optionsShown], a chevron past a divider at its right end opens a menu of
 * [options] (a click there, or the Down key); a click anywhere else is the button's own action.
 * It is one button to the Look and Feel, which paints it, so it keeps the IDE's look.
 */
class OptionButton(text: String, tooltip: String, private val optionsTooltip: String, action: () -> Unit) : JButton(text) {
    var options: List<Pair<String, () -> Unit>> = emptyList()

    var optionsShown: Boolean = false
        set(value) {
            if (field == value) return
            field = value
            toolTipText = if (value) "$mainTooltip — $optionsTooltip" else mainTooltip
            revalidate()
            repaint()
        }

    private val mainTooltip = tooltip

    init {
        isFocusable = true
        toolTipText = tooltip
        styled { t -> font = t.font }
        addActionListener { if (!pressedOnArrow) action() }
        getInputMap(WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_DOWN, 0), "showOptions")
        actionMap.put("showOptions", object : AbstractAction() {
            override fun actionPerformed(e: ActionEvent) { if (optionsShown) showOptions() }
        })
    }

    private var pressedOnArrow = false

    /** The width of the chevron part. */
    private fun arrowRoom(): Int = if (optionsShown) WaveTheme.current.px(22) else 0

    private fun onArrow(x: Int) = optionsShown && x >= width - arrowRoom() - WaveTheme.current.px(4)

    override fun getInsets(): Insets {
        val i = super.getInsets()
        return Insets(i.top, i.left, i.bottom, i.right + arrowRoom())
    }

    override fun getInsets(insets: Insets?): Insets {
        val i = super.getInsets(insets)
        i.right += arrowRoom()
        return i
    }

    override fun processMouseEvent(e: MouseEvent) {
        if (e.id == MouseEvent.MOUSE_PRESSED) pressedOnArrow = onArrow(e.x)
        if (e.id == MouseEvent.MOUSE_RELEASED && pressedOnArrow && contains(e.point)) {
            super.processMouseEvent(e)
            pressedOnArrow = false
            showOptions()
            return
        }
        super.processMouseEvent(e)
    }

    /** The menu of the other ways, under the button. */
    fun showOptions() {
        val menu = javax.swing.JPopupMenu()
        for ((label, run) in options) menu.add(javax.swing.JMenuItem(label).apply { addActionListener { run() } })
        if (isShowing) menu.show(this, 0, height)
    }

    override fun paintComponent(g: Graphics) {
        super.paintComponent(g)
        if (!optionsShown) return
        val t = WaveTheme.current
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        val isDefault = getClientProperty(ApprovalView.DEFAULT_BUTTON) == true
        val ink = if (isDefault) javax.swing.UIManager.getColor("Button.default.foreground") ?: Color.WHITE else foreground
        val x = width - arrowRoom() - t.px(2)
        g2.color = Color(ink.red, ink.green, ink.blue, 110)
        g2.fillRect(x, t.px(6), 1, height - t.px(12))
        g2.color = ink
        g2.stroke = BasicStroke(t.px(1).toFloat().coerceAtLeast(1f), BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
        val cx = x + (arrowRoom() + t.px(2)) / 2f
        val cy = height / 2f
        val s = t.px(3).toFloat()
        g2.draw(java.awt.geom.Path2D.Float().apply { moveTo(cx - s, cy - s / 2); lineTo(cx, cy + s / 2); lineTo(cx + s, cy - s / 2) })
        g2.dispose()
    }
}
