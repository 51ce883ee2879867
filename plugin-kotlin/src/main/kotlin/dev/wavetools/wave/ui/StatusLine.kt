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
        envLabel.foreground = when {
            status.state == "degraded" -> WaveTheme.warning
            status.state == "failed" && !isTurnedOff(status) -> WaveTheme.error
            else -> WaveTheme.secondary
        }
        envLabel.toolTipText = listOfNotNull(
            status.reason,
            status.adoptedKeys.takeIf { it.isNotEmpty() }?.let { "Adopted: " + it.joinToString(", ") },
        ).joinToString("\n").ifEmpty { null }
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
            val variables = if (s.adoptedKeys.size == 1) "1 variable" else "${s.adoptedKeys.size} variables"
            return when {
                s.state == "pending" -> "Login environment: probing $shell…"
                s.state == "ok" -> "Login environment: $shell · $variables$took"
                s.state == "degraded" -> "Login environment: $shell · $variables$took · degraded: ${s.reason ?: "partial"}"
                isTurnedOff(s) -> "Login environment: not probed; using the IDE's environment"
                s.state == "failed" -> "Login environment: not loaded (${s.reason ?: "probe failed"}); using the IDE's environment"
                else -> "Login environment: ${s.state}"
            }
        }

        /** A probe that never ran (turned off with WAVE_LOGIN_ENV=0) is a choice, not a failure; the tooltip says why. */
        fun isTurnedOff(s: EnvStatus): Boolean = s.state == "failed" && s.attempts == 0
    }
}
