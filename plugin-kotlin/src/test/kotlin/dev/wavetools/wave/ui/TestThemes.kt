package dev.wavetools.wave.ui

import java.awt.Color
import java.awt.Font
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.GraphicsEnvironment
import java.awt.RenderingHints
import javax.swing.AbstractButton
import javax.swing.JComponent
import javax.swing.UIManager
import javax.swing.plaf.ComponentUI
import javax.swing.plaf.FontUIResource
import javax.swing.plaf.basic.BasicButtonUI

/**
 * Themes for screenshots and tests that mirror the IntelliJ New UI "Light" and "Dark" themes
 * (platform-resources expUI_light.theme.json / expUI_dark.theme.json: the Grey/Blue/Green/Yellow/Red
 * palettes and the keys named below) and their editor schemes (text and background, console
 * background). Fonts: Inter 13 and JetBrains Mono 13, as the New UI ships them, where installed.
 */
object TestThemes {
    private fun c(rgb: Int) = Color(rgb)

    private val families: Set<String> by lazy { GraphicsEnvironment.getLocalGraphicsEnvironment().availableFontFamilyNames.toSet() }
    private fun family(wanted: String, fallback: String) = if (wanted in families) wanted else fallback

    private val uiFont: Font by lazy { withFallback(Font(family("Inter", Font.SANS_SERIF), Font.PLAIN, 13)) }
    private val monoFont: Font by lazy { withFallback(Font(family("JetBrains Mono", Font.MONOSPACED), Font.PLAIN, 13)) }

    /**
     * The font with the platform's fallback fonts for characters it lacks (✖, ⚡, CJK), as the
     * IDE's fonts have (UIUtil.getFontWithFallback does the same there); the plain font where the
     * JDK does not let us.
     */
    private fun withFallback(font: Font): Font = try {
        Class.forName("sun.font.FontUtilities").getMethod("getCompositeFontUIResource", Font::class.java).invoke(null, font) as Font
    } catch (e: Exception) {
        font
    }

    val light: Theme by lazy {
        Theme(
            name = "New UI Light",
            isDark = false,
            background = c(0xF7F8FA), // ToolWindow.background = Grey13
            foreground = c(0x000000), // Label.foreground (IntelliJ parent theme)
            secondary = c(0x818594), // *.infoForeground = Grey7
            separator = c(0xEBECF0), // OnePixelDivider.background = Grey12
            link = c(0x315FBD), // Link.activeForeground = Blue2
            error = c(0xDB3B4B), // Label.errorForeground = Red4
            warning = c(0xA46704), // Yellow1
            success = c(0x208A3C), // Green4
            running = c(0x3574F0), // Blue4
            cardBackground = c(0xF7F8FA),
            cardBorder = c(0xDFE1E5), // Grey11
            inputBackground = c(0xFFFFFF), // TextField.background = Grey14
            controlBorder = c(0xC9CCD6), // Component.borderColor = Grey9
            focusColor = c(0x3574F0), // *.focusColor = Blue4
            hoverBackground = c(0xEBECF0), // ActionButton.hoverBackground = Grey12
            pressedBackground = c(0xDFE1E5), // ActionButton.pressedBackground = Grey11
            warningBackground = c(0xFFF5DB), // Editor.ToolTip.warningBackground = Yellow9
            warningBorder = c(0xFED277), // Editor.ToolTip.warningBorder = Yellow6
            outputBackground = c(0xFFFFFF), // Light scheme TEXT background
            outputForeground = c(0x080808), // Light scheme TEXT foreground
            ansi = Theme.LIGHT_ANSI,
            codeBackground = c(0xEBECF0),
            diffAddedLine = c(0xE3F7E7), // Green10
            diffRemovedLine = c(0xEBECF0),
            diffAddedWord = c(0xAFDBB8), // Green8
            diffRemovedWord = c(0xC9CCD6),
            font = uiFont,
            smallFont = uiFont.deriveFont(12f), // JBFont.medium(): one point smaller
            monoFont = monoFont,
            scale = 1f,
            icons = PaintedIcons,
        )
    }

    val dark: Theme by lazy {
        Theme(
            name = "New UI Dark",
            isDark = true,
            background = c(0x2B2D30), // *.background = Grey2
            foreground = c(0xDFE1E5), // *.foreground = Grey12
            secondary = c(0x6F737A), // *.infoForeground = Grey7
            separator = c(0x393B40), // OnePixelDivider.background = Grey3
            link = c(0x6B9BFA), // Link.activeForeground = Blue9
            error = c(0xDB5C5C), // Label.errorForeground = Red7
            warning = c(0xD6AE58), // Yellow6
            success = c(0x5FAD65), // Green7
            running = c(0x548AF7), // Blue8
            cardBackground = c(0x2B2D30),
            cardBorder = c(0x43454A), // Grey4
            inputBackground = c(0x2B2D30), // TextField.background = Grey2
            controlBorder = c(0x4E5157), // Component.borderColor = Grey5
            focusColor = c(0x3574F0), // *.focusColor = Blue6
            hoverBackground = c(0x393B40), // ActionButton.hoverBackground = Grey3
            pressedBackground = c(0x4E5157), // ActionButton.pressedBackground = Grey5
            warningBackground = c(0x3D3223), // Editor.ToolTip.warningBackground = Yellow1
            warningBorder = c(0x5E4D33), // Editor.ToolTip.warningBorder = Yellow2
            outputBackground = c(0x1E1F22), // Dark scheme TEXT background, CONSOLE_BACKGROUND_KEY
            outputForeground = c(0xBCBEC4),
            ansi = Theme.DARK_ANSI,
            codeBackground = c(0x393B40),
            diffAddedLine = c(0x294436),
            diffRemovedLine = c(0x484A4A),
            diffAddedWord = c(0x3C6E4A),
            diffRemovedWord = c(0x5E6060),
            font = uiFont,
            smallFont = uiFont.deriveFont(12f),
            monoFont = monoFont,
            scale = 1f,
            icons = PaintedIcons,
        )
    }

    /**
     * Makes [theme] current, with the Swing defaults (fonts, the button look) the IDE's Look and
     * Feel would give: plain fonts, not Metal's bold ones, and buttons drawn as the New UI draws them.
     */
    fun install(theme: Theme) {
        UIManager.put("swing.boldMetal", false)
        UIManager.setLookAndFeel(UIManager.getCrossPlatformLookAndFeelClassName())
        val font = FontUIResource(theme.font)
        for (key in listOf("Label.font", "Button.font", "TextField.font", "TextArea.font", "TextPane.font", "ToolTip.font", "Panel.font")) UIManager.put(key, font)
        fun put(key: String, color: Color) = UIManager.put(key, javax.swing.plaf.ColorUIResource(color))
        put("Panel.background", theme.background)
        put("Label.foreground", theme.foreground)
        put("Viewport.background", theme.background)
        put("ScrollPane.background", theme.background)
        put("SplitPane.background", theme.background)
        put("ScrollBar.background", theme.background)
        put("ScrollBar.track", theme.background)
        put("ScrollBar.thumb", if (theme.isDark) c(0x4E5157) else c(0xC9CCD6))
        put("ScrollBar.thumbHighlight", if (theme.isDark) c(0x4E5157) else c(0xC9CCD6))
        put("ScrollBar.thumbShadow", if (theme.isDark) c(0x4E5157) else c(0xC9CCD6))
        put("ScrollBar.thumbDarkShadow", if (theme.isDark) c(0x4E5157) else c(0xC9CCD6))
        UIManager.put("ScrollBarUI", NewUiScrollBarUIFactory::class.java.name)
        UIManager.put(NewUiScrollBarUIFactory::class.java.name, NewUiScrollBarUIFactory::class.java)
        UIManager.put("ButtonUI", NewUiButtonUIFactory::class.java.name)
        UIManager.put(NewUiButtonUIFactory::class.java.name, NewUiButtonUIFactory::class.java)
        // Text fields as Darcula draws them: rounded, a one-pixel border, the focus ring.
        UIManager.put("TextFieldUI", NewUiTextFieldUIFactory::class.java.name)
        UIManager.put(NewUiTextFieldUIFactory::class.java.name, NewUiTextFieldUIFactory::class.java)
        UIManager.put("TextField.border", javax.swing.plaf.BorderUIResource(NewUiFieldBorder()))
        UIManager.put("ScrollPane.border", javax.swing.plaf.BorderUIResource(NewUiFieldBorder()))
        UIManager.put("Button.default.foreground", javax.swing.plaf.ColorUIResource(Color.WHITE))
        WaveTheme.install(theme)
    }
}

/**
 * Darcula's text field border, as the IDE draws it around a JTextField or a JScrollPane holding a
 * text area: rounded corners, the theme's control border, and the 2 px focus ring in the focus
 * colour while the field (or the area inside the scroll pane) has the focus.
 */
class NewUiFieldBorder : javax.swing.border.Border {
    override fun getBorderInsets(c: java.awt.Component): java.awt.Insets {
        val t = WaveTheme.current
        return if (c is javax.swing.JScrollPane) java.awt.Insets(t.px(3), t.px(3), t.px(3), t.px(3)) else java.awt.Insets(t.px(5), t.px(8), t.px(5), t.px(8))
    }

    override fun isBorderOpaque() = false

    override fun paintBorder(c: java.awt.Component, g: Graphics, x: Int, y: Int, width: Int, height: Int) {
        val t = WaveTheme.current
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        val view = (c as? javax.swing.JScrollPane)?.viewport?.view
        val focused = c.hasFocus() || (view != null && view.hasFocus())
        val arc = t.px(8).toFloat()
        if (focused) {
            g2.color = t.focusColor
            g2.stroke = java.awt.BasicStroke(t.px(2).toFloat())
            g2.draw(java.awt.geom.RoundRectangle2D.Float(x + 1f, y + 1f, width - 2f, height - 2f, arc, arc))
        } else {
            g2.color = t.controlBorder
            g2.draw(java.awt.geom.RoundRectangle2D.Float(x + 0.5f, y + 0.5f, width - 1f, height - 1f, arc, arc))
        }
        g2.dispose()
    }
}

/** A text field whose background is the rounded shape inside its border, as Darcula paints it. */
class NewUiTextFieldUI : javax.swing.plaf.basic.BasicTextFieldUI() {
    override fun paintSafely(g: Graphics) {
        val c = component
        val t = WaveTheme.current
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        g2.color = if (c.isEnabled) c.background else t.background
        val arc = t.px(8).toFloat()
        g2.fill(java.awt.geom.RoundRectangle2D.Float(0.5f, 0.5f, c.width - 1f, c.height - 1f, arc, arc))
        g2.dispose()
        super.paintSafely(g)
    }

    override fun paintBackground(g: Graphics) {}

    override fun installDefaults() {
        super.installDefaults()
        component.isOpaque = false
    }
}

object NewUiTextFieldUIFactory {
    @JvmStatic
    @Suppress("UNUSED_PARAMETER")
    fun createUI(c: JComponent): ComponentUI = NewUiTextFieldUI()
}

/**
 * Buttons as the New UI draws them (rounded, a one-pixel border, the default button filled with the
 * accent colour), so the screenshots show what the IDE shows rather than Metal's bevels.
 */
class NewUiButtonUI : BasicButtonUI() {
    override fun installDefaults(b: AbstractButton) {
        super.installDefaults(b)
        b.isOpaque = false
        b.isRolloverEnabled = true
        val t = WaveTheme.current
        b.border = javax.swing.BorderFactory.createEmptyBorder(t.px(4), t.px(14), t.px(4), t.px(14))
    }

    override fun paint(g: Graphics, c: JComponent) {
        val b = c as AbstractButton
        val t = WaveTheme.current
        val isDefault = b.getClientProperty(ApprovalView.DEFAULT_BUTTON) == true
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        val arc = t.px(8)
        val accent = if (t.isDark) Color(0x3574F0) else Color(0x3574F0)
        g2.color = if (isDefault && b.isEnabled) accent else t.inputBackground
        g2.fillRoundRect(0, 0, c.width - 1, c.height - 1, arc, arc)
        g2.color = if (isDefault && b.isEnabled) accent else t.controlBorder
        g2.drawRoundRect(0, 0, c.width - 1, c.height - 1, arc, arc)
        g2.dispose()
        b.foreground = if (isDefault && b.isEnabled) Color.WHITE else t.foreground
        super.paint(g, c)
    }

    /** Disabled text flat in the secondary colour (Basic draws it etched). */
    override fun paintText(g: Graphics, c: JComponent, textRect: java.awt.Rectangle, text: String) {
        val b = c as AbstractButton
        val fm = g.fontMetrics
        g.color = if (b.isEnabled) b.foreground else WaveTheme.current.secondary
        javax.swing.plaf.basic.BasicGraphicsUtils.drawStringUnderlineCharAt(c, g as Graphics2D, text, if (b.isEnabled) b.displayedMnemonicIndex else -1, textRect.x.toFloat(), (textRect.y + fm.ascent).toFloat())
    }
}

/** What UIManager asks for a button's UI: its static createUI (a ComponentUI subclass cannot declare one in Kotlin). */
object NewUiButtonUIFactory {
    @JvmStatic
    @Suppress("UNUSED_PARAMETER")
    fun createUI(c: JComponent): ComponentUI = NewUiButtonUI()
}

/** Scrollbars as the New UI draws them: a thin rounded thumb, no track, no arrow buttons. */
class NewUiScrollBarUI : javax.swing.plaf.basic.BasicScrollBarUI() {
    override fun createDecreaseButton(orientation: Int) = zeroButton()
    override fun createIncreaseButton(orientation: Int) = zeroButton()

    private fun zeroButton() = javax.swing.JButton().apply {
        preferredSize = java.awt.Dimension(0, 0)
        minimumSize = preferredSize
        maximumSize = preferredSize
    }

    override fun getPreferredSize(c: JComponent) =
        if (scrollbar.orientation == javax.swing.JScrollBar.VERTICAL) java.awt.Dimension(10, 48) else java.awt.Dimension(48, 10)

    override fun paintTrack(g: Graphics, c: JComponent, trackBounds: java.awt.Rectangle) {}

    override fun paintThumb(g: Graphics, c: JComponent, r: java.awt.Rectangle) {
        if (r.isEmpty) return
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        val t = WaveTheme.current
        g2.color = if (t.isDark) Color(0x5A5D63) else Color(0xC9CCD6)
        g2.fillRoundRect(r.x + 2, r.y + 2, r.width - 4, r.height - 4, 6, 6)
        g2.dispose()
    }
}

object NewUiScrollBarUIFactory {
    @JvmStatic
    @Suppress("UNUSED_PARAMETER")
    fun createUI(c: JComponent): ComponentUI = NewUiScrollBarUI()
}
