package dev.wavetools.wave.ui

import java.awt.BorderLayout
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
class BashInput(private val onRun: (String) -> Unit) : JPanel(BorderLayout(6, 0)) {
    val field = JTextField()
    private val prompt = JLabel("$")
    private val history = mutableListOf<String>()
    private var historyIndex = 0

    init {
        background = WaveTheme.background
        border = BorderFactory.createCompoundBorder(
            BorderFactory.createMatteBorder(1, 0, 0, 0, WaveTheme.border),
            BorderFactory.createEmptyBorder(6, 8, 6, 8),
        )
        prompt.font = WaveTheme.monospace.deriveFont(java.awt.Font.BOLD)
        prompt.foreground = WaveTheme.secondary
        field.font = WaveTheme.monospace
        field.toolTipText = "Run a command with the core's Bash tool (Enter). Up/Down: history."
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
        field.toolTipText = if (ready) "Run a command with the core's Bash tool (Enter). Up/Down: history." else why
    }
}
