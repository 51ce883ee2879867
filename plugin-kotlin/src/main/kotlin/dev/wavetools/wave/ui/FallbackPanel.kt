package dev.wavetools.wave.ui

import java.awt.BorderLayout
import java.awt.FlowLayout
import javax.swing.BorderFactory
import javax.swing.BoxLayout
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JTextArea

/** Shown instead of the session when Node.js is missing or the core cannot start: what is wrong and the fix. */
class FallbackPanel(private val host: HostServices, private val onRetry: () -> Unit) : JPanel(BorderLayout()) {
    val titleLabel = JLabel()
    val details = JTextArea()

    init {
        background = WaveTheme.background
        border = BorderFactory.createEmptyBorder(16, 16, 16, 16)
        val box = JPanel().apply { layout = BoxLayout(this, BoxLayout.Y_AXIS); isOpaque = false }
        titleLabel.font = WaveTheme.font.deriveFont(java.awt.Font.BOLD, WaveTheme.font.size2D + 2f)
        titleLabel.alignmentX = LEFT_ALIGNMENT
        details.isEditable = false
        details.lineWrap = true
        details.wrapStyleWord = true
        details.isOpaque = false
        details.font = WaveTheme.font
        details.foreground = WaveTheme.foreground
        details.alignmentX = LEFT_ALIGNMENT
        details.border = BorderFactory.createEmptyBorder(8, 0, 8, 0)
        val buttons = JPanel(FlowLayout(FlowLayout.LEFT, 0, 0)).apply { isOpaque = false; alignmentX = LEFT_ALIGNMENT }
        buttons.add(smallButton("Open Settings") { host.openSettings() })
        buttons.add(javax.swing.Box.createHorizontalStrut(6))
        buttons.add(smallButton("Download Node.js for Wave Tools") { host.downloadNode() })
        buttons.add(javax.swing.Box.createHorizontalStrut(6))
        buttons.add(smallButton("Retry") { onRetry() })
        box.add(titleLabel)
        box.add(javax.swing.Box.createVerticalStrut(8))
        box.add(buttons)
        add(box, BorderLayout.NORTH)
        // The message wraps to the panel's width, so it takes the rest of the space rather than a fixed height.
        add(details, BorderLayout.CENTER)
    }

    fun show(title: String, message: String) {
        titleLabel.text = title
        details.text = message
    }
}
