package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.EnvStatus
import java.awt.BorderLayout
import java.awt.FlowLayout
import javax.swing.BorderFactory
import javax.swing.JLabel
import javax.swing.JPanel

/** Core state (starting / ready / restarting / failed with reason) and the login-environment probe's state. */
class StatusLine : JPanel(BorderLayout()) {
    val coreDot = StatusDot(WaveTheme.secondary)
    val coreLabel = JLabel("wave-core: stopped")
    val envLabel = secondaryLabel("")

    init {
        background = WaveTheme.background
        border = BorderFactory.createCompoundBorder(
            BorderFactory.createMatteBorder(0, 0, 1, 0, WaveTheme.border),
            BorderFactory.createEmptyBorder(3, 8, 3, 8),
        )
        val left = JPanel(FlowLayout(FlowLayout.LEFT, 6, 0)).apply { isOpaque = false }
        left.add(coreDot)
        left.add(coreLabel)
        add(left, BorderLayout.WEST)
        add(envLabel, BorderLayout.EAST)
    }

    fun showCore(state: CoreState) {
        val (text, color) = describe(state)
        coreLabel.text = text
        coreLabel.toolTipText = (state as? CoreState.Failed)?.detail?.takeIf { it.isNotEmpty() }?.joinToString("\n")
        coreDot.color = color
        if (state !is CoreState.Ready) envLabel.text = ""
        repaint()
    }

    fun showEnv(status: EnvStatus) {
        envLabel.text = describe(status)
        envLabel.foreground = when (status.state) {
            "degraded" -> WaveTheme.warning
            "failed" -> WaveTheme.error
            else -> WaveTheme.secondary
        }
        envLabel.toolTipText = if (status.adoptedKeys.isEmpty()) null else "Adopted: " + status.adoptedKeys.joinToString(", ")
    }

    companion object {
        fun describe(state: CoreState): Pair<String, java.awt.Color> = when (state) {
            is CoreState.Stopped -> "wave-core: stopped" to WaveTheme.secondary
            is CoreState.Starting -> "wave-core: starting…" to WaveTheme.running
            is CoreState.Ready -> "wave-core ${state.info.serverInfo.version}: ready" to WaveTheme.success
            is CoreState.Restarting -> "wave-core: restarting in ${Format.duration(state.delay.toMillis())} (attempt ${state.attempt}) — ${state.reason}" to WaveTheme.warning
            is CoreState.Failed -> "wave-core: failed — ${state.reason}" to WaveTheme.error
        }

        fun describe(s: EnvStatus): String {
            val shell = s.shell?.substringAfterLast('/') ?: "shell"
            val took = s.durationMs?.let { " · ${Format.duration(it)}" } ?: ""
            return when (s.state) {
                "pending" -> "Login environment: probing $shell…"
                "ok" -> "Login environment: $shell · ${s.adoptedKeys.size} variables$took"
                "degraded" -> "Login environment: $shell · ${s.adoptedKeys.size} variables$took · degraded: ${s.reason ?: "partial"}"
                "failed" -> "Login environment: not loaded (${s.reason ?: "probe failed"}); using the IDE's environment"
                else -> "Login environment: ${s.state}"
            }
        }
    }
}
