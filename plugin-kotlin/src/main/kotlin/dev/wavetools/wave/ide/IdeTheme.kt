package dev.wavetools.wave.ide

import com.intellij.execution.process.ConsoleHighlighter
import com.intellij.execution.ui.ConsoleViewContentType
import com.intellij.icons.AllIcons
import com.intellij.ide.ui.LafManagerListener
import com.intellij.ide.ui.UISettingsListener
import com.intellij.ide.ui.laf.darcula.ui.DarculaButtonUI
import com.intellij.openapi.Disposable
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.components.Service
import com.intellij.openapi.components.service
import com.intellij.openapi.diff.DiffColors
import com.intellij.openapi.editor.colors.EditorColorsListener
import com.intellij.openapi.editor.colors.EditorColorsManager
import com.intellij.openapi.editor.colors.EditorFontType
import com.intellij.openapi.editor.colors.TextAttributesKey
import com.intellij.ui.AnimatedIcon
import com.intellij.ui.JBColor
import com.intellij.ui.scale.JBUIScale
import com.intellij.util.ui.JBFont
import com.intellij.util.ui.UIUtil
import dev.wavetools.wave.ui.ShippedIcon
import dev.wavetools.wave.ui.Theme
import dev.wavetools.wave.ui.WaveIcons
import dev.wavetools.wave.ui.WaveTheme
import java.awt.Color
import javax.swing.Icon

/**
 * Fills the tool window's [Theme] from the platform — theme keys through JBColor, JBFont, the UI
 * scale, the colour scheme's console colours, diff colours and console font, AllIcons — and
 * installs it again whenever the Look and Feel, the UI settings (zoom) or the colour scheme
 * change, so the cards already on screen follow. One per application.
 */
@Service(Service.Level.APP)
class IdeThemeService : Disposable {
    init {
        val bus = ApplicationManager.getApplication().messageBus.connect(this)
        bus.subscribe(LafManagerListener.TOPIC, LafManagerListener { reinstall() })
        bus.subscribe(UISettingsListener.TOPIC, UISettingsListener { reinstall() })
        bus.subscribe(EditorColorsManager.TOPIC, EditorColorsListener { reinstall() })
        WaveTheme.install(read())
    }

    // Listeners may be told on any thread; the panels restyle on the UI thread.
    private fun reinstall() = ApplicationManager.getApplication().invokeLater { WaveTheme.install(read()) }

    override fun dispose() {}

    companion object {
        /** Creates the service (and so installs the theme and starts following changes) if it is not yet. */
        fun ensureInstalled() {
            service<IdeThemeService>()
        }

        private fun named(key: String, light: Int, dark: Int): Color = JBColor.namedColor(key, JBColor(light, dark))

        fun read(): Theme {
            val scheme = EditorColorsManager.getInstance().globalScheme
            val dark = !JBColor.isBright()
            fun fg(key: TextAttributesKey): Color? = scheme.getAttributes(key)?.foregroundColor
            fun bg(key: TextAttributesKey): Color? = scheme.getAttributes(key)?.backgroundColor
            val fallbackAnsi = if (dark) Theme.DARK_ANSI else Theme.LIGHT_ANSI
            val ansiKeys = listOf(
                ConsoleHighlighter.BLACK, ConsoleHighlighter.RED, ConsoleHighlighter.GREEN, ConsoleHighlighter.YELLOW,
                ConsoleHighlighter.BLUE, ConsoleHighlighter.MAGENTA, ConsoleHighlighter.CYAN, ConsoleHighlighter.GRAY,
                ConsoleHighlighter.DARKGRAY, ConsoleHighlighter.RED_BRIGHT, ConsoleHighlighter.GREEN_BRIGHT, ConsoleHighlighter.YELLOW_BRIGHT,
                ConsoleHighlighter.BLUE_BRIGHT, ConsoleHighlighter.MAGENTA_BRIGHT, ConsoleHighlighter.CYAN_BRIGHT, ConsoleHighlighter.WHITE,
            )
            val editorBackground = scheme.defaultBackground
            val consoleBackground = scheme.getColor(ConsoleViewContentType.CONSOLE_BACKGROUND_KEY) ?: editorBackground
            val background = named("ToolWindow.background", 0xF7F8FA, 0x2B2D30)
            val foreground = named("Label.foreground", 0x000000, 0xDFE1E5)
            // The diff viewer marks changed words with the scheme's colour and whole lines with a paler one.
            val inserted = bg(DiffColors.DIFF_INSERTED) ?: if (dark) Color(0x3C6E4A) else Color(0xBEE6BE)
            val deleted = bg(DiffColors.DIFF_DELETED) ?: if (dark) Color(0x656868) else Color(0xD6D6D6)
            val label = JBFont.label()
            return Theme(
                name = "IDE",
                isDark = dark,
                background = background,
                foreground = foreground,
                secondary = named("Label.infoForeground", 0x818594, 0x6F737A),
                separator = named("OnePixelDivider.background", 0xEBECF0, 0x393B40),
                link = named("Link.activeForeground", 0x315FBD, 0x6B9BFA),
                error = named("Label.errorForeground", 0xDB3B4B, 0xDB5C5C),
                warning = named("Label.warningForeground", 0xA46704, 0xD6AE58),
                success = named("Label.successForeground", 0x208A3C, 0x5FAD65),
                running = named("Component.focusColor", 0x3574F0, 0x548AF7),
                cardBackground = background,
                cardBorder = named("Component.borderColor", 0xDFE1E5, 0x43454A),
                inputBackground = named("TextField.background", 0xFFFFFF, 0x2B2D30),
                controlBorder = named("Component.borderColor", 0xC9CCD6, 0x4E5157),
                focusColor = named("Component.focusColor", 0x3574F0, 0x3574F0),
                hoverBackground = named("ActionButton.hoverBackground", 0xEBECF0, 0x393B40),
                pressedBackground = named("ActionButton.pressedBackground", 0xDFE1E5, 0x4E5157),
                warningBackground = named("Editor.ToolTip.warningBackground", 0xFFF5DB, 0x3D3223),
                warningBorder = named("Editor.ToolTip.warningBorder", 0xFED277, 0x5E4D33),
                outputBackground = consoleBackground,
                outputForeground = fg(ConsoleViewContentType.NORMAL_OUTPUT_KEY) ?: scheme.defaultForeground,
                ansi = ansiKeys.mapIndexed { i, key -> fg(key) ?: fallbackAnsi[i] },
                codeBackground = named("Tag.background", 0xEBECF0, 0x393B40),
                diffAddedLine = Theme.mix(inserted, editorBackground, 0.55),
                diffRemovedLine = Theme.mix(deleted, editorBackground, 0.55),
                diffAddedWord = inserted,
                diffRemovedWord = deleted,
                font = label,
                smallFont = JBFont.medium(),
                // The console font of the scheme, with the platform's fallback for characters it lacks.
                monoFont = UIUtil.getFontWithFallback(scheme.getFont(EditorFontType.CONSOLE_PLAIN)),
                scale = JBUIScale.scale(1f),
                icons = PlatformIcons,
                markDefaultButton = { it.putClientProperty(DarculaButtonUI.DEFAULT_STYLE_KEY, true) },
            )
        }
    }
}

/**
 * The platform's own icons, so the cards and buttons look like every other tool window's; the
 * plugin's own where the platform has none that means the same (Move to Background: the
 * debugger's Resume ▶ beside Stop ■ reads as "run again / stop"), drawn from the SVG it ships
 * by the same code the screenshots use ([ShippedIcon]), so they show what the IDE shows.
 */
private object PlatformIcons : WaveIcons {
    private val background: Icon = ShippedIcon("moveToBackground")

    override val stop: Icon get() = AllIcons.Actions.Suspend
    override val moveToBackground: Icon get() = background
    override val softWrap: Icon get() = AllIcons.Actions.ToggleSoftWrap
    override val showDiff: Icon get() = AllIcons.Actions.Diff
    override val warning: Icon get() = AllIcons.General.Warning
    override val help: Icon get() = AllIcons.Actions.Help
    override val expanded: Icon get() = AllIcons.General.ArrowDown
    override val collapsed: Icon get() = AllIcons.General.ArrowRight
    override val running: Icon get() = AnimatedIcon.Default.INSTANCE
    override val waiting: Icon get() = AllIcons.RunConfigurations.TestPaused
    override val passed: Icon get() = AllIcons.RunConfigurations.TestPassed
    override val failed: Icon get() = AllIcons.RunConfigurations.TestFailed
    override val stopped: Icon get() = AllIcons.RunConfigurations.TestTerminated
    override val scrollToEnd: Icon get() = AllIcons.RunConfigurations.Scroll_down
    override val clear: Icon get() = AllIcons.Actions.GC
    override val settings: Icon get() = AllIcons.General.Settings
    override val close: Icon get() = AllIcons.Actions.Close
}
