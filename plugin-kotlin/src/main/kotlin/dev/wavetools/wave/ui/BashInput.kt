package dev.wavetools.wave.ui

import java.awt.BorderLayout
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.RenderingHints
import java.awt.event.KeyAdapter
import java.awt.event.KeyEvent
import javax.swing.BorderFactory
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JTextField

/**
 * Bash mode: a line where a person types a command; Enter runs it through the core's Bash tool
 * (same runner, environment and shims as the agent's; output when it ends). Up/Down walk the history.
 */
class BashInput(private val onRun: (String) -> Unit) : JPanel(BorderLayout()), Themed {
    val field = PlaceholderField(WaveBundle.message("input.placeholder"))
    private val prompt = JLabel("$")
    private val history = mutableListOf<String>()
    private var historyIndex = 0

    init {
        field.toolTipText = WaveBundle.message("input.tooltip")
        field.addActionListener { submit() }
        field.addKeyListener(object : KeyAdapter() {
            override fun keyPressed(e: KeyEvent) {
                when (e.keyCode) {
                    KeyEvent.VK_UP -> recall(-1)
                    KeyEvent.VK_DOWN -> recall(+1)
                }
            }
        })
        add(prompt, BorderLayout.WEST)
        add(field, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        border = BorderFactory.createEmptyBorder(theme.px(6), theme.px(10), theme.px(6), theme.px(10))
        (layout as BorderLayout).hgap = theme.px(6)
        prompt.font = theme.monoFont
        prompt.foreground = theme.secondary
        field.font = theme.monoFont
        field.background = theme.inputBackground
        field.foreground = theme.foreground
        field.caretColor = theme.foreground
        field.border = BorderFactory.createCompoundBorder(
            BorderFactory.createLineBorder(theme.controlBorder),
            BorderFactory.createEmptyBorder(theme.px(3), theme.px(6), theme.px(3), theme.px(6)),
        )
    }

    override fun paintComponent(g: Graphics) {
        super.paintComponent(g)
        g.color = WaveTheme.current.separator
        g.fillRect(0, 0, width, 1)
    }

    fun submit() {
        val command = field.text.trim()
        if (command.isEmpty() || !field.isEnabled) return
        if (history.lastOrNull() != command) history += command
        historyIndex = history.size
        field.text = ""
        onRun(command)
    }

    fun recall(step: Int) {
        if (history.isEmpty()) return
        historyIndex = (historyIndex + step).coerceIn(0, history.size)
        field.text = history.getOrNull(historyIndex) ?: ""
    }

    /** Enabled only while the core is ready; otherwise says why. */
    fun setReady(ready: Boolean, why: String? = null) {
        field.isEnabled = ready
        prompt.isEnabled = ready
        field.toolTipText = if (ready) WaveBundle.message("input.tooltip") else why
    }

    /** A text field that shows [placeholder] in the secondary colour while it is empty. */
    class PlaceholderField(val placeholder: String) : JTextField() {
        override fun paintComponent(g: Graphics) {
            super.paintComponent(g)
            if (text.isNotEmpty()) return
            val g2 = g.create() as Graphics2D
            g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON)
            g2.color = WaveTheme.current.secondary
            g2.font = font
            val fm = g2.fontMetrics
            g2.drawString(placeholder, insets.left, (height - fm.height) / 2 + fm.ascent)
            g2.dispose()
        }
    }
}
