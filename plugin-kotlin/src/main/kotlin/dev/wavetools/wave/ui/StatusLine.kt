package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.AgentsStatus
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.SandboxStatus
import java.awt.BorderLayout
import java.awt.Graphics
import javax.swing.BorderFactory
import javax.swing.JPanel

/**
 * The line at the top: the core's state, the login environment commands get, and the sandbox they
 * run in — each a few words, the details in their tooltips. The items wrap to a second line when
 * the tool window is narrow.
 */
class StatusLine : JPanel(BorderLayout()), Themed {
    val coreIcon = StatusIcon(CallState.STOPPED)
    val coreLabel = ToneLabel(WaveBundle.message("status.core.stopped"), Tone.NORMAL, small = true)
    val envLabel = ToneLabel("", Tone.SECONDARY, small = true).apply { isVisible = false }
    val sandboxLabel = ToneLabel("", Tone.SECONDARY, small = true).apply { isVisible = false }
    val agentsLabel = ToneLabel("", Tone.SECONDARY, small = true).apply { isVisible = false }
    private val items = wrapRow(wrapRow(coreIcon, coreLabel, hgap = 4), envLabel, sandboxLabel, agentsLabel, hgap = 14)
    private var toolbar: javax.swing.JComponent? = null

    init {
        add(items, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
    }

    /** The tool window's toolbar at the end of this line (the IDE's ActionToolbar, or an [IconToolbar]). */
    fun setToolbar(c: javax.swing.JComponent) {
        toolbar?.let { remove(it) }
        toolbar = c
        add(c, BorderLayout.EAST)
        revalidate()
        repaint()
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        border = BorderFactory.createEmptyBorder(theme.px(4), theme.px(10), theme.px(4), theme.px(6))
    }

    override fun paintComponent(g: Graphics) {
        super.paintComponent(g)
        g.color = WaveTheme.current.separator
        g.fillRect(0, height - 1, width, 1)
    }

    fun showCore(state: CoreState) {
        val (text, tone) = describe(state)
        coreLabel.text = text
        coreLabel.tone = if (tone == Tone.ERROR || tone == Tone.WARNING) tone else Tone.NORMAL
        coreIcon.state = when (state) {
            is CoreState.Ready -> CallState.PASSED
            is CoreState.Starting, is CoreState.Restarting -> CallState.RUNNING
            is CoreState.Failed -> CallState.FAILED
            is CoreState.Stopped -> CallState.STOPPED
        }
        coreLabel.toolTipText = when (state) {
            is CoreState.Ready -> WaveBundle.message("status.core.ready.tooltip", state.info.serverInfo.version, state.pid)
            is CoreState.Failed -> (listOf(state.reason) + state.detail).joinToString("\n")
            is CoreState.Restarting -> state.reason
            else -> null
        }
        if (state !is CoreState.Ready) {
            envLabel.isVisible = false
            sandboxLabel.isVisible = false
            agentsLabel.isVisible = false
        }
        revalidate()
        repaint()
    }

    fun showEnv(status: EnvStatus) {
        envLabel.text = describe(status)
        envLabel.tone = when {
            status.state == "degraded" -> Tone.WARNING
            status.state == "failed" && !isTurnedOff(status) -> Tone.ERROR
            else -> Tone.SECONDARY
        }
        envLabel.toolTipText = envTooltip(status)
        envLabel.isVisible = true
        status.sandbox?.let { showSandbox(it) }
        revalidate()
        repaint()
    }

    /** Whether agents can reach this core (`mcp --attach`) and how many are attached; hidden when the core does not listen. */
    fun showAgents(status: AgentsStatus) {
        val endpoint = status.endpoint
        agentsLabel.isVisible = endpoint != null
        if (endpoint != null) {
            agentsLabel.text = when {
                endpoint.problem != null -> WaveBundle.message("status.agents.unreachable")
                status.connected == 0 -> WaveBundle.message("status.agents.none")
                status.connected == 1 -> WaveBundle.message("status.agents.one")
                else -> WaveBundle.message("status.agents.many", status.connected)
            }
            agentsLabel.tone = if (endpoint.problem != null) Tone.WARNING else Tone.SECONDARY
            agentsLabel.toolTipText = if (endpoint.problem != null) {
                WaveBundle.message("status.agents.unreachable.tooltip", endpoint.url, endpoint.problem)
            } else {
                WaveBundle.message("status.agents.tooltip", endpoint.url)
            }
        }
        revalidate()
        repaint()
    }

    /** Which sandbox commands run in; "No sandbox" with the reason and the fix in the tooltip. */
    fun showSandbox(s: SandboxStatus) {
        sandboxLabel.isVisible = true
        if (s.active) {
            val name = SANDBOX_NAMES[s.kind]?.let { WaveBundle.message(it) } ?: s.kind
            sandboxLabel.text = WaveBundle.message(if (s.networkDenied) "status.sandbox.activeNoNetwork" else "status.sandbox.active", name)
            sandboxLabel.tone = Tone.SECONDARY
            sandboxLabel.toolTipText = listOfNotNull(
                WaveBundle.message(if (s.networkDenied) "status.sandbox.networkDenied.tooltip" else "status.sandbox.networkAllowed.tooltip"),
                s.reason,
            ).joinToString("\n")
        } else {
            sandboxLabel.text = WaveBundle.message("status.sandbox.none")
            sandboxLabel.tone = Tone.WARNING
            sandboxLabel.toolTipText = listOfNotNull(s.reason ?: WaveBundle.message("status.sandbox.none.tooltip"), s.remedy).joinToString("\n")
        }
    }

    private fun envTooltip(s: EnvStatus): String? = listOfNotNull(
        s.reason,
        s.adoptedKeys.takeIf { it.isNotEmpty() }?.let { WaveBundle.message("status.env.adopted", it.joinToString(", ")) },
        s.durationMs?.takeIf { s.state == "ok" || s.state == "degraded" }?.let { WaveBundle.message("status.env.took", Format.duration(it)) },
    ).joinToString("\n").ifEmpty { null }

    companion object {
        private val SANDBOX_NAMES = mapOf("bubblewrap" to "status.sandbox.bubblewrap", "seatbelt" to "status.sandbox.seatbelt")

        fun describe(state: CoreState): Pair<String, Tone> = when (state) {
            is CoreState.Stopped -> WaveBundle.message("status.core.stopped") to Tone.SECONDARY
            is CoreState.Starting -> WaveBundle.message("status.core.starting") to Tone.RUNNING
            is CoreState.Ready -> WaveBundle.message("status.core.ready") to Tone.SUCCESS
            is CoreState.Restarting -> WaveBundle.message("status.core.restarting", Format.duration(state.delay.toMillis()), state.attempt) to Tone.WARNING
            is CoreState.Failed -> WaveBundle.message("status.core.failed", Format.firstLine(state.reason, 80)) to Tone.ERROR
        }

        fun describe(s: EnvStatus): String {
            val shell = s.shell?.substringAfterLast('/')?.substringAfterLast('\\') ?: "shell"
            val variables = s.adoptedKeys.size
            return when {
                s.state == "pending" -> WaveBundle.message("status.env.pending", shell)
                s.state == "ok" -> WaveBundle.message("status.env.ok", shell, variables)
                s.state == "degraded" -> WaveBundle.message("status.env.degraded", shell, variables)
                isTurnedOff(s) -> WaveBundle.message("status.env.off")
                s.state == "failed" -> WaveBundle.message("status.env.failed")
                else -> s.state
            }
        }

        /** A probe that never ran (turned off with WAVE_LOGIN_ENV=0) is a choice, not a failure; the tooltip says why. */
        fun isTurnedOff(s: EnvStatus): Boolean = s.state == "failed" && s.attempts == 0
    }
}
