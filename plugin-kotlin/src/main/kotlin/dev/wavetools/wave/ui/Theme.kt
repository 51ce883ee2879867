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

/** The icons the tool window shows. The IDE layer gives the platform's; [PaintedIcons] draws plain shapes. */
interface WaveIcons {
    val stop: Icon
    val moveToBackground: Icon
    val softWrap: Icon
    val showDiff: Icon
    val warning: Icon
    val help: Icon
    val expanded: Icon
    val collapsed: Icon
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
    /** Secondary text (Label.infoForeground / Component.infoForeground). */
    val secondary: Color,
    /** Lines between areas (OnePixelDivider). */
    val separator: Color,
    val link: Color,
    val error: Color,
    val warning: Color,
    val success: Color,
    /** A call or task that runs. */
    val running: Color,
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

/** Simple shapes in the theme's colours, for the panel outside the IDE (tests, screenshots). */
object PaintedIcons : WaveIcons {
    private class Shape(private val draw: Graphics2D.(Int, Theme) -> Unit) : Icon {
        override fun getIconWidth() = WaveTheme.current.px(16)
        override fun getIconHeight() = WaveTheme.current.px(16)
        override fun paintIcon(c: Component?, g: Graphics, x: Int, y: Int) {
            val g2 = g.create() as Graphics2D
            g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
            g2.translate(x, y)
            g2.draw(iconWidth, WaveTheme.current)
            g2.dispose()
        }
    }

    private fun Graphics2D.line(width: Float, color: Color) {
        stroke = BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
        this.color = color
    }

    private fun iconGrey(t: Theme) = if (t.isDark) Color(0xCED0D6) else Color(0x6C707E)

    override val stop: Icon = Shape { s, t ->
        color = t.error
        fill(RoundRectangle2D.Float(s * 0.2f, s * 0.2f, s * 0.6f, s * 0.6f, s * 0.15f, s * 0.15f))
    }
    override val moveToBackground: Icon = Shape { s, t ->
        line(s / 12f, iconGrey(t))
        drawLine(s / 2, s / 6, s / 2, s * 5 / 8)
        drawLine(s / 2 - s / 5, s * 5 / 8 - s / 5, s / 2, s * 5 / 8)
        drawLine(s / 2 + s / 5, s * 5 / 8 - s / 5, s / 2, s * 5 / 8)
        drawLine(s / 6, s * 5 / 6, s * 5 / 6, s * 5 / 6)
    }
    override val softWrap: Icon = Shape { s, t ->
        line(s / 12f, iconGrey(t))
        drawLine(s / 6, s / 4, s * 5 / 6, s / 4)
        val p = Path2D.Float()
        p.moveTo(s / 6f, s / 2f); p.lineTo(s * 0.7f, s / 2f); p.quadTo(s * 0.85f, s / 2f, s * 0.85f, s * 0.62f)
        p.quadTo(s * 0.85f, s * 0.75f, s * 0.7f, s * 0.75f); p.lineTo(s * 0.5f, s * 0.75f)
        draw(p)
        drawLine((s * 0.5f).toInt(), (s * 0.75f).toInt(), (s * 0.6f).toInt(), (s * 0.65f).toInt())
        drawLine((s * 0.5f).toInt(), (s * 0.75f).toInt(), (s * 0.6f).toInt(), (s * 0.85f).toInt())
    }
    override val showDiff: Icon = Shape { s, t ->
        line(s / 12f, iconGrey(t))
        drawRoundRect(s / 8, s / 6, s * 5 / 16, s * 2 / 3, s / 8, s / 8)
        drawRoundRect(s * 9 / 16, s / 6, s * 5 / 16, s * 2 / 3, s / 8, s / 8)
        drawLine(s * 7 / 16, s / 2, s * 9 / 16, s / 2)
    }
    override val warning: Icon = Shape { s, t ->
        val p = Path2D.Float()
        p.moveTo(s / 2f, s * 0.1f); p.lineTo(s * 0.95f, s * 0.9f); p.lineTo(s * 0.05f, s * 0.9f); p.closePath()
        color = if (t.isDark) Color(0xF2C55C) else Color(0xFFAF0F)
        fill(p)
        line(s / 10f, if (t.isDark) Color(0x2B2D30) else Color.WHITE)
        drawLine(s / 2, (s * 0.38f).toInt(), s / 2, (s * 0.6f).toInt())
        drawLine(s / 2, (s * 0.76f).toInt(), s / 2, (s * 0.76f).toInt())
    }
    override val help: Icon = Shape { s, t ->
        line(s / 12f, t.link)
        drawOval(s / 8, s / 8, s * 3 / 4, s * 3 / 4)
        val p = Path2D.Float()
        p.moveTo(s * 0.38f, s * 0.4f); p.quadTo(s * 0.38f, s * 0.26f, s * 0.5f, s * 0.26f)
        p.quadTo(s * 0.63f, s * 0.26f, s * 0.63f, s * 0.38f); p.quadTo(s * 0.63f, s * 0.47f, s * 0.5f, s * 0.52f); p.lineTo(s * 0.5f, s * 0.58f)
        draw(p)
        drawLine(s / 2, (s * 0.72f).toInt(), s / 2, (s * 0.72f).toInt())
    }
    override val expanded: Icon = Shape { s, t ->
        line(s / 12f, iconGrey(t))
        drawLine(s / 4, s * 3 / 8, s / 2, s * 5 / 8)
        drawLine(s / 2, s * 5 / 8, s * 3 / 4, s * 3 / 8)
    }
    override val collapsed: Icon = Shape { s, t ->
        line(s / 12f, iconGrey(t))
        drawLine(s * 3 / 8, s / 4, s * 5 / 8, s / 2)
        drawLine(s * 5 / 8, s / 2, s * 3 / 8, s * 3 / 4)
    }
}
