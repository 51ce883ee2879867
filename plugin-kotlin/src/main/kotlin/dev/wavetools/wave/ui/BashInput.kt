package dev.wavetools.wave.ui

import java.awt.BorderLayout
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.Insets
import java.awt.RenderingHints
import java.awt.event.KeyAdapter
import java.awt.event.KeyEvent
import javax.swing.BorderFactory
import javax.swing.JPanel
import javax.swing.JTextField

/**
 * Bash mode: a line where a person types a command; Enter runs it through the core's Bash tool
 * (same runner, environment and shims as the agent's; output as it comes, as for the agent's
 * commands). Up/Down walk the history. The field is the Look and Feel's own (its rounded border
 * and focus ring); the `$` prompt sits inside it, as the Terminal's does.
 */
class BashInput(private val onRun: (String) -> Unit) : JPanel(BorderLayout()), Themed {
    val field = PlaceholderField(WaveBundle.message("input.placeholder"))
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
        add(field, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        border = BorderFactory.createEmptyBorder(theme.px(6), theme.px(8), theme.px(6), theme.px(8))
        field.font = theme.monoFont
        field.background = theme.inputBackground
        field.foreground = theme.foreground
        field.caretColor = theme.foreground
        field.revalidate()
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
        field.toolTipText = if (ready) WaveBundle.message("input.tooltip") else why
    }

    /**
     * A text field with the `$` [prompt] inside it, before the text, and [placeholder] in the
     * secondary colour while it is empty. Its border is the Look and Feel's: the prompt's room is
     * added to its insets, so the border, its rounded corners and its focus ring stay the IDE's.
     */
    class PlaceholderField(val placeholder: String, val prompt: String = "$") : JTextField() {
        private fun promptRoom(): Int = getFontMetrics(font).stringWidth(prompt) + WaveTheme.current.px(6)

        override fun getInsets(): Insets {
            val i = super.getInsets()
            return Insets(i.top, i.left + promptRoom(), i.bottom, i.right)
        }

        override fun getInsets(insets: Insets?): Insets {
            val i = super.getInsets(insets)
            i.left += promptRoom()
            return i
        }

        /** Where the prompt is drawn: the border's own left inset. */
        val promptX: Int get() = insets.left - promptRoom()

        override fun paintComponent(g: Graphics) {
            super.paintComponent(g)
            val g2 = g.create() as Graphics2D
            g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON)
            g2.font = font
            val fm = g2.fontMetrics
            val baseline = (height - fm.height) / 2 + fm.ascent
            g2.color = WaveTheme.current.secondary
            g2.drawString(prompt, promptX, baseline)
            if (text.isEmpty()) g2.drawString(placeholder, insets.left, baseline)
            g2.dispose()
        }
    }
}
