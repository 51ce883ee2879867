package dev.wavetools.wave.ui

import java.awt.Color
import java.awt.Font
import javax.swing.UIManager

/**
 * Colours and fonts taken from the current Look and Feel (UIManager), so the tool window follows
 * the IDE theme (IntelliJ Light, Darcula, ...). Every key has a fallback for plain Swing (tests).
 * Read fresh each time a component is built or themed, never cached across a theme switch.
 */
object WaveTheme {
    private fun color(vararg keys: String, fallback: Color): Color {
        for (k in keys) UIManager.getColor(k)?.let { return Color(it.rgb, true) }
        return fallback
    }

    val background: Color get() = color("ToolWindow.background", "Panel.background", fallback = Color(0xF7F8FA))
    val foreground: Color get() = color("Label.foreground", "Panel.foreground", fallback = Color(0x1E1F22))
    val secondary: Color get() = color("Label.infoForeground", "Component.infoForeground", "Label.disabledForeground", fallback = mix(foreground, background, 0.45))
    val border: Color get() = color("Component.borderColor", "Borders.color", "Separator.foreground", fallback = mix(foreground, background, 0.8))
    val cardBackground: Color get() = color("EditorPane.background", "TextArea.background", "TextPane.background", fallback = Color.WHITE)
    val link: Color get() = color("Component.linkColor", "link.foreground", "Hyperlink.linkColor", fallback = if (isDark) Color(0x589DF6) else Color(0x2470B3))

    val isDark: Boolean get() = luminance(background) < 0.5

    val error: Color get() = color("Label.errorForeground", "Component.errorFocusColor", fallback = if (isDark) Color(0xFF6B68) else Color(0xC7222D))
    val success: Color get() = color("Label.successForeground", fallback = if (isDark) Color(0x5FB865) else Color(0x208A3C))
    val warning: Color get() = color("Label.warningForeground", fallback = if (isDark) Color(0xE0A84E) else Color(0xA46704))
    val running: Color get() = link

    val addedBackground: Color get() = if (isDark) Color(0x294436) else Color(0xE3F5E1)
    val removedBackground: Color get() = if (isDark) Color(0x4E2A2A) else Color(0xFBE5E5)
    val addedWord: Color get() = if (isDark) Color(0x3C6E4A) else Color(0xA9E2A4)
    val removedWord: Color get() = if (isDark) Color(0x7A3B3B) else Color(0xF2B3B3)

    val font: Font get() = UIManager.getFont("Label.font") ?: Font(Font.SANS_SERIF, Font.PLAIN, 13)
    val monospace: Font get() = Font(Font.MONOSPACED, Font.PLAIN, font.size)

    fun luminance(c: Color): Double = (0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue) / 255.0

    /** [a] moved towards [b] by [t] (0 = a, 1 = b). */
    fun mix(a: Color, b: Color, t: Double): Color = Color(
        (a.red + (b.red - a.red) * t).toInt(),
        (a.green + (b.green - a.green) * t).toInt(),
        (a.blue + (b.blue - a.blue) * t).toInt(),
    )

    fun hex(c: Color) = String.format("#%02x%02x%02x", c.red, c.green, c.blue)
}
