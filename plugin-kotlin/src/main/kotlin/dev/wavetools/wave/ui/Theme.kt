package dev.wavetools.wave.ui

import java.awt.BasicStroke
import java.awt.Color
import java.awt.Component
import java.awt.Container
import java.awt.Font
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.RenderingHints
import java.awt.geom.Path2D
import java.awt.geom.RoundRectangle2D
import java.util.concurrent.CopyOnWriteArrayList
import javax.swing.Icon
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.UIManager
import kotlin.math.roundToInt

/**
 * The icons the tool window shows. The IDE layer maps each to the platform's (the AllIcons name
 * is on each member) or to an icon the plugin ships (`icons/…svg` in the resources); [PaintedIcons]
 * draws close stand-ins of the platform's New UI icons and the shipped SVGs themselves for the
 * panel outside the IDE (tests, screenshots).
 */
interface WaveIcons {
    /** AllIcons.Actions.Suspend (New UI: a red outlined square). */
    val stop: Icon
    /** Shipped: icons/moveToBackground.svg — an arrow into the corner, never the debugger's Resume ▶. */
    val moveToBackground: Icon
    /** AllIcons.Actions.ToggleSoftWrap. */
    val softWrap: Icon
    /** AllIcons.Actions.Diff. */
    val showDiff: Icon
    /** AllIcons.General.Warning. */
    val warning: Icon
    /** AllIcons.Actions.Help. */
    val help: Icon
    /** AllIcons.General.ArrowDown (New UI: a chevron). */
    val expanded: Icon
    /** AllIcons.General.ArrowRight (New UI: a chevron). */
    val collapsed: Icon
    /** AnimatedIcon.Default: the platform's spinner while a call runs; it repaints the component it is painted on. */
    val running: Icon
    /** AllIcons.RunConfigurations.TestPaused: waiting for the person's answer. */
    val waiting: Icon
    /** AllIcons.RunConfigurations.TestPassed. */
    val passed: Icon
    /** AllIcons.RunConfigurations.TestFailed. */
    val failed: Icon
    /** AllIcons.RunConfigurations.TestTerminated: stopped, interrupted, no longer asked. */
    val stopped: Icon
    /** AllIcons.RunConfigurations.Scroll_down. */
    val scrollToEnd: Icon
    /** AllIcons.Actions.GC (the console's Clear All). */
    val clear: Icon
    /** AllIcons.General.Settings. */
    val settings: Icon
    /** AllIcons.Actions.Close: a tab's close button. */
    val close: Icon
}

/**
 * Every colour, font, inset scale and icon `ui/` uses. `ui/` has no IntelliJ classes, so the IDE
 * layer fills one from the platform (theme keys, the editor colour scheme's console and diff
 * colours and font, the UI scale) and [WaveTheme.install]s it again whenever the IDE's theme or
 * colour scheme changes; components on screen restyle themselves then ([styled], [Themed]).
 */
class Theme(
    val name: String,
    val isDark: Boolean,
    /** The tool window's background and text. */
    val background: Color,
    val foreground: Color,
    /**
     * Secondary text (Label.infoForeground / Component.infoForeground). Kept as given where it
     * reads (WCAG AA, 4.5:1) on every background it is drawn on; otherwise moved towards the
     * foreground just enough ([Contrast.readable]) — the New UI's own greys are about 3.4:1 (light)
     * and 2.9:1 (dark).
     */
    secondary: Color,
    /** Lines between areas (OnePixelDivider). */
    val separator: Color,
    link: Color,
    error: Color,
    warning: Color,
    success: Color,
    /** A call or task that runs. */
    running: Color,
    /** A card's fill and its one border. */
    val cardBackground: Color,
    val cardBorder: Color,
    /** Input fields. */
    val inputBackground: Color,
    val controlBorder: Color,
    val focusColor: Color,
    /** Icon buttons (ActionButton). */
    val hoverBackground: Color,
    val pressedBackground: Color,
    /** A banner that needs the person (an approval), as the platform's warning banners. */
    val warningBackground: Color,
    val warningBorder: Color,
    /** Output areas: the colour scheme's console. */
    val outputBackground: Color,
    val outputForeground: Color,
    /** ANSI colours 0–15 from the colour scheme's console colours. */
    val ansi: List<Color>,
    /** Inline `code` in the core's reasons. */
    val codeBackground: Color,
    /** The colour scheme's diff colours: line backgrounds and the changed words on them. */
    val diffAddedLine: Color,
    val diffRemovedLine: Color,
    val diffAddedWord: Color,
    val diffRemovedWord: Color,
    /** The UI font, the smaller one for secondary lines (JBFont.medium), and the console font of the colour scheme. */
    val font: Font,
    val smallFont: Font,
    val monoFont: Font,
    /** The IDE's UI scale (JBUIScale); insets and gaps are multiplied by it. */
    val scale: Float,
    val icons: WaveIcons,
    /** Marks a button as the default one of its group (the platform's default-button style). */
    val markDefaultButton: (JButton) -> Unit = {},
) {
    init {
        require(ansi.size == 16) { "ansi needs the 16 console colours, got ${ansi.size}" }
    }

    /** Where text is drawn: the window, a card, an approval's banner, inline code. */
    val textBackgrounds: List<Color> get() = listOf(background, cardBackground, warningBackground, codeBackground)

    val secondary: Color = Contrast.readable(secondary, listOf(background, cardBackground, warningBackground, codeBackground, outputBackground), foreground)
    val link: Color = Contrast.readable(link, textBackgrounds, foreground)
    val error: Color = Contrast.readable(error, textBackgrounds, foreground)
    val warning: Color = Contrast.readable(warning, textBackgrounds, foreground)
    val success: Color = Contrast.readable(success, textBackgrounds, foreground)
    val running: Color = Contrast.readable(running, textBackgrounds, foreground)

    /** [n] pixels at this theme's scale. */
    fun px(n: Int): Int = (n * scale).roundToInt()

    companion object {
        /**
         * The current Swing Look and Feel's colours (UIManager), for the panel outside the IDE. The
         * IDE installs a theme built from the platform instead.
         */
        fun fromLookAndFeel(): Theme {
            fun color(vararg keys: String, fallback: Color): Color {
                for (k in keys) UIManager.getColor(k)?.let { return Color(it.rgb, true) }
                return fallback
            }
            val background = color("ToolWindow.background", "Panel.background", fallback = Color(0xF7F8FA))
            val foreground = color("Label.foreground", "Panel.foreground", fallback = Color(0x000000))
            val dark = luminance(background) < 0.5
            val output = color("EditorPane.background", "TextPane.background", fallback = if (dark) Color(0x1E1F22) else Color.WHITE)
            val font = UIManager.getFont("Label.font") ?: Font(Font.SANS_SERIF, Font.PLAIN, 13)
            val plainFont = font.deriveFont(Font.PLAIN)
            return Theme(
                name = "Look and Feel",
                isDark = dark,
                background = background,
                foreground = foreground,
                secondary = color("Label.infoForeground", "Component.infoForeground", "Label.disabledForeground", fallback = mix(foreground, background, 0.45)),
                separator = color("OnePixelDivider.background", "Separator.foreground", fallback = mix(foreground, background, 0.85)),
                link = color("Link.activeForeground", "Component.linkColor", "Hyperlink.linkColor", fallback = if (dark) Color(0x6B9BFA) else Color(0x315FBD)),
                error = color("Label.errorForeground", fallback = if (dark) Color(0xDB5C5C) else Color(0xDB3B4B)),
                warning = color("Label.warningForeground", fallback = if (dark) Color(0xD6AE58) else Color(0xA46704)),
                success = color("Label.successForeground", fallback = if (dark) Color(0x5FAD65) else Color(0x208A3C)),
                running = color("Link.activeForeground", fallback = if (dark) Color(0x548AF7) else Color(0x3574F0)),
                cardBackground = background,
                cardBorder = color("Borders.color", "Component.borderColor", fallback = mix(foreground, background, 0.85)),
                inputBackground = color("TextField.background", fallback = output),
                controlBorder = color("Component.borderColor", fallback = mix(foreground, background, 0.7)),
                focusColor = color("Component.focusColor", fallback = if (dark) Color(0x3574F0) else Color(0x3574F0)),
                hoverBackground = color("ActionButton.hoverBackground", fallback = mix(background, foreground, 0.08)),
                pressedBackground = color("ActionButton.pressedBackground", fallback = mix(background, foreground, 0.14)),
                warningBackground = if (dark) Color(0x3D3223) else Color(0xFFF5DB),
                warningBorder = if (dark) Color(0x5E4D33) else Color(0xFED277),
                outputBackground = output,
                outputForeground = color("EditorPane.foreground", "TextPane.foreground", fallback = foreground),
                ansi = if (dark) DARK_ANSI else LIGHT_ANSI,
                codeBackground = mix(background, foreground, 0.08),
                diffAddedLine = if (dark) Color(0x294436) else Color(0xE3F7E7),
                diffRemovedLine = if (dark) Color(0x484A4A) else Color(0xEBECF0),
                diffAddedWord = if (dark) Color(0x3C6E4A) else Color(0xBEE6BE),
                diffRemovedWord = if (dark) Color(0x656868) else Color(0xD6D6D6),
                font = plainFont,
                smallFont = plainFont.deriveFont(plainFont.size2D - 1f),
                monoFont = Font(Font.MONOSPACED, Font.PLAIN, plainFont.size),
                scale = 1f,
                icons = PaintedIcons,
            )
        }

        /** The console colours of the platform's default light scheme. */
        val LIGHT_ANSI: List<Color> = listOf(
            0x000000, 0xF50000, 0x00A000, 0xC4A000, 0x0000FF, 0xC000C0, 0x00A3A3, 0x808080,
            0x595959, 0xFF5555, 0x4CC04C, 0xDDCC00, 0x5C5CFF, 0xFF55FF, 0x00CCCC, 0xFFFFFF,
        ).map(::Color)

        /** The console colours of the platform's default dark scheme. */
        val DARK_ANSI: List<Color> = listOf(
            0xFFFFFF, 0xF0524F, 0x5C962C, 0xA68A0D, 0x3993D4, 0xA771BF, 0x00A3A3, 0x808080,
            0x595959, 0xFF4050, 0x4FC414, 0xE5BF00, 0x1FB0FF, 0xED7EED, 0x00E5E5, 0xFFFFFF,
        ).map(::Color)

        fun luminance(c: Color): Double = (0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue) / 255.0

        /** [a] moved towards [b] by [t] (0 = a, 1 = b). */
        fun mix(a: Color, b: Color, t: Double): Color = Color(
            (a.red + (b.red - a.red) * t).roundToInt(),
            (a.green + (b.green - a.green) * t).roundToInt(),
            (a.blue + (b.blue - a.blue) * t).roundToInt(),
        )
    }
}

/** WCAG 2 contrast, computed from the theme's colours. */
object Contrast {
    /** AA for normal text. */
    const val AA = 4.5

    fun luminance(c: Color): Double {
        fun channel(v: Int): Double = (v / 255.0).let { if (it <= 0.03928) it / 12.92 else Math.pow((it + 0.055) / 1.055, 2.4) }
        return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)
    }

    fun ratio(a: Color, b: Color): Double {
        val la = luminance(a)
        val lb = luminance(b)
        return (maxOf(la, lb) + 0.05) / (minOf(la, lb) + 0.05)
    }

    /**
     * [text] when it reaches [min] on every one of [backgrounds]; otherwise [text] moved towards
     * [towards] (the theme's foreground) by the smallest step, in hundredths, that does — so a
     * theme's colour stays recognisable and only gains the contrast it lacked.
     */
    fun readable(text: Color, backgrounds: List<Color>, towards: Color, min: Double = AA): Color {
        for (step in 0..100) {
            val c = Theme.mix(text, towards, step / 100.0)
            if (backgrounds.all { ratio(c, it) >= min }) return c
        }
        return towards
    }
}

/**
 * The theme in use. The IDE installs one built from the platform and installs a new one when the
 * theme or colour scheme changes; listeners (each tool window) then restyle what is on screen.
 * Read on the UI thread.
 */
object WaveTheme {
    @Volatile
    private var installed: Theme? = null
    private val listeners = CopyOnWriteArrayList<() -> Unit>()

    val current: Theme
        get() = installed ?: Theme.fromLookAndFeel().also { installed = it }

    /** Makes [theme] current and tells every listener; call on the UI thread. */
    fun install(theme: Theme) {
        installed = theme
        listeners.forEach { it() }
    }

    fun addListener(listener: () -> Unit): AutoCloseable {
        listeners += listener
        return AutoCloseable { listeners -= listener }
    }

    val isDark get() = current.isDark
    val foreground get() = current.foreground
    val secondary get() = current.secondary
    val error get() = current.error
    val warning get() = current.warning
    val success get() = current.success
    val running get() = current.running
    val link get() = current.link
}

/** A component that restyles more than [styled] can say (documents, painted parts, detached children). */
interface Themed {
    fun themeChanged(theme: Theme)
}

private const val STYLER_KEY = "wave.styler"

/**
 * Styles this component from the current theme now and again on every theme change: [styler] is
 * kept with the component and replaced by the next call, so a label whose colour follows its state
 * calls this again when the state changes.
 */
fun <T : JComponent> T.styled(styler: T.(Theme) -> Unit): T {
    val self = this
    putClientProperty(STYLER_KEY, { theme: Theme -> self.styler(theme) })
    styler(WaveTheme.current)
    return this
}

object Restyle {
    /** Re-applies every styler and [Themed] hook under [root], then lays it out and repaints it. */
    fun tree(root: Component, theme: Theme = WaveTheme.current) {
        visit(root, theme)
        (root as? JComponent)?.revalidate()
        root.repaint()
    }

    private fun visit(c: Component, theme: Theme) {
        @Suppress("UNCHECKED_CAST")
        ((c as? JComponent)?.getClientProperty(STYLER_KEY) as? (Theme) -> Unit)?.invoke(theme)
        (c as? Themed)?.themeChanged(theme)
        if (c is Container) for (child in c.components) visit(child, theme)
    }
}

/**
 * The icons outside the IDE (tests, screenshots): the plugin's own SVGs drawn from their files
 * ([ShippedIcon]), and for the platform's icons close stand-ins of their New UI versions — the
 * same shape on the 16 px grid, the same colours (light / dark), named after the AllIcons field
 * they stand for — so a screenshot shows what the IDE will.
 */
object PaintedIcons : WaveIcons {
    private class Shape(private val draw: Graphics2D.(Theme) -> Unit) : Icon {
        override fun getIconWidth() = WaveTheme.current.px(16)
        override fun getIconHeight() = WaveTheme.current.px(16)
        override fun paintIcon(c: Component?, g: Graphics, x: Int, y: Int) {
            val g2 = g.create() as Graphics2D
            g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
            g2.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE)
            g2.translate(x, y)
            // Drawn on the icons' 16-unit grid, scaled to the theme.
            val t = WaveTheme.current
            g2.scale(t.scale.toDouble(), t.scale.toDouble())
            g2.draw(t)
            g2.dispose()
        }
    }

    private fun Graphics2D.pen(width: Float, color: Color) {
        stroke = BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
        this.color = color
    }

    private fun path(build: Path2D.Float.() -> Unit) = Path2D.Float().apply(build)

    /** The New UI icon greys: #6C707E on light, #CED0D6 on dark. */
    private fun grey(t: Theme) = if (t.isDark) Color(0xCED0D6) else Color(0x6C707E)

    /** The test-state greys (TestPaused, TestTerminated): #818594 / #868A91. */
    private fun stateGrey(t: Theme) = if (t.isDark) Color(0x868A91) else Color(0x818594)

    override val stop: Icon = Shape { t ->
        // AllIcons.Actions.Suspend: an outlined red square with a pale fill.
        val square = RoundRectangle2D.Float(2.5f, 2.5f, 11f, 11f, 3f, 3f)
        color = if (t.isDark) Color(0x402929) else Color(0xFFF7F7)
        fill(square)
        pen(1f, if (t.isDark) Color(0xDB5C5C) else Color(0xDB3B4B))
        draw(square)
    }

    override val moveToBackground: Icon = ShippedIcon("moveToBackground")

    override val softWrap: Icon = Shape { t ->
        // AllIcons.Actions.ToggleSoftWrap: two lines, the second bending back under itself.
        pen(1f, grey(t))
        drawLine(3, 4, 13, 4)
        draw(path { moveTo(3f, 8f); lineTo(11f, 8f); quadTo(13.5f, 8f, 13.5f, 10f); quadTo(13.5f, 12f, 11f, 12f); lineTo(8f, 12f) })
        draw(path { moveTo(9.5f, 10.5f); lineTo(8f, 12f); lineTo(9.5f, 13.5f) })
    }

    override val showDiff: Icon = Shape { t ->
        // AllIcons.Actions.Diff: two panes and the arrows between them.
        pen(1f, grey(t))
        draw(RoundRectangle2D.Float(1.5f, 2.5f, 5f, 11f, 2f, 2f))
        draw(RoundRectangle2D.Float(9.5f, 2.5f, 5f, 11f, 2f, 2f))
        drawLine(7, 8, 9, 8)
    }

    override val warning: Icon = Shape { t ->
        // AllIcons.General.Warning: an amber triangle with a dark exclamation mark.
        val p = path { moveTo(8f, 1.5f); lineTo(15f, 14f); lineTo(1f, 14f); closePath() }
        color = if (t.isDark) Color(0xF2C55C) else Color(0xFFAF0F)
        pen(1f, color)
        fill(p); draw(p)
        pen(1.5f, if (t.isDark) Color(0x2B2D30) else Color.WHITE)
        drawLine(8, 6, 8, 9)
        fill(java.awt.geom.Ellipse2D.Float(7.2f, 10.8f, 1.6f, 1.6f))
    }

    override val help: Icon = Shape { t ->
        // AllIcons.Actions.Help: a grey circle with a question mark.
        pen(1f, grey(t))
        draw(java.awt.geom.Ellipse2D.Float(1.5f, 1.5f, 13f, 13f))
        draw(path { moveTo(6f, 6.3f); quadTo(6f, 4.5f, 8f, 4.5f); quadTo(10f, 4.5f, 10f, 6.2f); quadTo(10f, 7.4f, 8f, 8.2f); lineTo(8f, 9.2f) })
        fill(java.awt.geom.Ellipse2D.Float(7.3f, 10.6f, 1.4f, 1.4f))
    }

    override val expanded: Icon = Shape { t ->
        // AllIcons.General.ArrowDown (New UI chevron).
        pen(1f, grey(t))
        draw(path { moveTo(4f, 6.5f); lineTo(8f, 10.5f); lineTo(12f, 6.5f) })
    }

    override val collapsed: Icon = Shape { t ->
        // AllIcons.General.ArrowRight (New UI chevron).
        pen(1f, grey(t))
        draw(path { moveTo(6.5f, 4f); lineTo(10.5f, 8f); lineTo(6.5f, 12f) })
    }

    override val running: Icon = Spinner

    override val waiting: Icon = Shape { t ->
        // AllIcons.RunConfigurations.TestPaused: two grey bars.
        color = stateGrey(t)
        fill(RoundRectangle2D.Float(4f, 2f, 2f, 12f, 2f, 2f))
        fill(RoundRectangle2D.Float(10f, 2f, 2f, 12f, 2f, 2f))
    }

    override val passed: Icon = Shape { t ->
        // AllIcons.RunConfigurations.TestPassed: a green check mark.
        pen(if (t.isDark) 2f else 2.2f, if (t.isDark) Color(0x5FAD65) else Color(0x55A76A))
        draw(path { moveTo(2.5f, 8.25f); lineTo(6f, 11.75f); lineTo(13.5f, 4.25f) })
    }

    override val failed: Icon = Shape { t ->
        // AllIcons.RunConfigurations.TestFailed: a red disc with a cross cut out of it.
        val disc = java.awt.geom.Area(java.awt.geom.Ellipse2D.Float(1f, 1f, 14f, 14f))
        val cross = BasicStroke(1.6f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
        disc.subtract(java.awt.geom.Area(cross.createStrokedShape(java.awt.geom.Line2D.Float(5.25f, 5.25f, 10.75f, 10.75f))))
        disc.subtract(java.awt.geom.Area(cross.createStrokedShape(java.awt.geom.Line2D.Float(10.75f, 5.25f, 5.25f, 10.75f))))
        color = if (t.isDark) Color(0xDB5C5C) else Color(0xE55765)
        fill(disc)
    }

    override val stopped: Icon = Shape { t ->
        // AllIcons.RunConfigurations.TestTerminated: a grey cross.
        pen(1.8f, stateGrey(t))
        drawLine(3, 3, 13, 13)
        drawLine(13, 3, 3, 13)
    }

    override val scrollToEnd: Icon = Shape { t ->
        // AllIcons.RunConfigurations.Scroll_down: an arrow down onto a line.
        pen(1f, grey(t))
        drawLine(8, 2, 8, 10)
        draw(path { moveTo(4.5f, 6.5f); lineTo(8f, 10f); lineTo(11.5f, 6.5f) })
        drawLine(3, 13, 13, 13)
    }

    override val clear: Icon = Shape { t ->
        // AllIcons.Actions.GC (New UI: a bin).
        pen(1f, grey(t))
        drawLine(2, 4, 14, 4)
        draw(path { moveTo(6f, 4f); lineTo(6f, 2.5f); lineTo(10f, 2.5f); lineTo(10f, 4f) })
        draw(path { moveTo(3.5f, 4f); lineTo(4.5f, 13.5f); lineTo(11.5f, 13.5f); lineTo(12.5f, 4f) })
        drawLine(7, 7, 7, 11)
        drawLine(9, 7, 9, 11)
    }

    override val settings: Icon = Shape { t ->
        // AllIcons.General.Settings: a gear.
        pen(1f, grey(t))
        val gear = path {
            for (i in 0 until 16) {
                val a = Math.PI * 2 * i / 16
                val r = if (i % 2 == 0) 6.5 else 4.8
                val x = (8 + r * Math.cos(a)).toFloat()
                val y = (8 + r * Math.sin(a)).toFloat()
                if (i == 0) moveTo(x, y) else lineTo(x, y)
            }
            closePath()
        }
        draw(gear)
        draw(java.awt.geom.Ellipse2D.Float(6f, 6f, 4f, 4f))
    }

    override val close: Icon = Shape { t ->
        // AllIcons.Actions.Close: a small thin cross.
        pen(1f, grey(t))
        drawLine(5, 5, 11, 11)
        drawLine(11, 5, 5, 11)
    }
}

/**
 * A stand-in for AnimatedIcon.Default: eight grey bars around a centre, the lit one moving every
 * 130 ms. Like the platform's, painting it asks the component it is on to repaint when the next
 * frame is due, so any label showing it animates while it is showing and stops when it is not.
 */
object Spinner : Icon {
    const val FRAME_MS = 130L
    private val due = java.util.Collections.newSetFromMap(java.util.WeakHashMap<Component, Boolean>())

    /** The frame shown now; a screenshot pins it with the system property `wave.spinnerFrame`. */
    fun frame(): Int = System.getProperty("wave.spinnerFrame")?.toIntOrNull() ?: ((System.currentTimeMillis() / FRAME_MS) % 8).toInt()

    override fun getIconWidth() = WaveTheme.current.px(16)
    override fun getIconHeight() = WaveTheme.current.px(16)

    override fun paintIcon(c: Component?, g: Graphics, x: Int, y: Int) {
        val t = WaveTheme.current
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        g2.translate(x, y)
        g2.scale(t.scale.toDouble(), t.scale.toDouble())
        val base = if (t.isDark) Color(0xA8ADBD) else Color(0x7F8B91)
        val lit = frame()
        for (i in 0 until 8) {
            // The lit bar is opaque; the ones behind it fade, as the platform's frames do.
            val age = (lit - i + 8) % 8
            g2.color = Color(base.red, base.green, base.blue, (255 * (1.0 - age * 0.1)).toInt())
            val bar = g2.create() as Graphics2D
            bar.rotate(Math.PI / 4 * i, 8.0, 8.0)
            bar.fill(RoundRectangle2D.Float(7f, 1f, 2f, 4f, 2f, 2f))
            bar.dispose()
        }
        g2.dispose()
        if (c != null && c.isShowing && due.add(c)) {
            javax.swing.Timer(FRAME_MS.toInt()) { due.remove(c); c.repaint() }.apply { isRepeats = false; start() }
        }
    }
}
