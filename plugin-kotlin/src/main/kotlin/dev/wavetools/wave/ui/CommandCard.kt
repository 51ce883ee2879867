package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ToolStarted
import java.time.Duration
import javax.swing.JComponent
import javax.swing.Timer

/**
 * A shell command's card, the same for Bash and run_shell_command: `$ command` on one line (cut
 * with "…" at the end, the whole command in the tooltip; shown whole, wrapped, while the person is
 * asked about it), its description below, and on the right the status — a running clock, then the
 * outcome — with Stop (and Move to Background for Bash) while it runs.
 */
abstract class CommandCard(started: ToolStarted, context: CardContext) : ToolCallCard(started, context) {
    val command: String = arg("command") ?: ""
    val description: String? = arg("description")?.takeIf { it.isNotBlank() }

    val statusDot = StatusDot(Tone.RUNNING)
    val statusLabel = ToneLabel("", Tone.RUNNING, small = true)

    /** The command as one line; visible while the card is not asking about it. */
    val commandLabel = MonoLabel("$ " + Format.oneLine(command)).apply { toolTipText = command }
    private val fullCommand = TextBlock("$ $command", mono = true)
    private val descriptionBlock = description?.let { TextBlock(it, Tone.SECONDARY, small = true) }

    val stopAction = CardAction(WaveBundle.message("card.stop.button"), { it.icons.stop }, WaveBundle.message("card.stop.tooltip")) { requestStop() }

    /** The card's controls, in the order they appear. */
    protected open val controls: List<CardAction> get() = listOf(stopAction)

    lateinit var header: CardHeader
        private set

    private val timer = Timer(1000) { tick() }

    /** Subclasses call this once their controls exist. */
    protected fun buildHeader() {
        header = CardHeader(listOf(statusDot), commandLabel, listOf(statusLabel), controls, descriptionBlock)
        setHeader(header)
        refreshButtons()
        tick()
        timer.start()
    }

    override fun tick() {
        if (!isRunning) return
        if (waitingForApproval) {
            statusLabel.text = WaveBundle.message("card.status.waitingForApproval")
            statusLabel.tone = Tone.WARNING
            statusDot.tone = Tone.WARNING
            return
        }
        statusLabel.text = WaveBundle.message("card.status.running", Format.elapsed(Duration.between(startedAt, clock.instant())))
        statusLabel.tone = Tone.RUNNING
        statusDot.tone = Tone.RUNNING
    }

    override fun approvalChanged() {
        // While the person decides, they read the whole command; afterwards one line is enough.
        header.flex = if (waitingForApproval) fullCommand else commandLabel
        refreshButtons()
        tick()
    }

    /**
     * Re-reads whether this window controls the call. Calls it cannot control (the agent's, run
     * through another connection) show no controls at all rather than controls that never work.
     */
    open fun refreshButtons() {
        val controllable = isRunning && actions.canControl(callId)
        stopAction.isVisible = controllable
        stopAction.isEnabled = controllable
    }

    fun requestStop() {
        if (!stopAction.isEnabled) return
        stopAction.isEnabled = false
        stopAction.label = WaveBundle.message("card.stopping.button")
        actions.stop(callId)
    }

    /** The outcome on the right: [text] in [tone]. */
    protected fun showOutcome(text: String, tone: Tone) {
        timer.stop()
        statusLabel.text = text
        statusLabel.tone = tone
        statusDot.tone = tone
        controls.forEach { it.isVisible = false }
    }

    /** "Ran outside the sandbox", discreetly, when the core says the command left it. */
    protected fun sandboxNote(sandboxed: Boolean?): JComponent? =
        if (sandboxed == false) secondaryLabel(WaveBundle.message("card.outsideSandbox.text")).apply { toolTipText = WaveBundle.message("card.outsideSandbox.tooltip") } else null

    override fun dispose() {
        timer.stop()
        super.dispose()
    }
}

/** A label in the console font, for commands. */
class MonoLabel(text: String) : javax.swing.JLabel(text) {
    init {
        styled { t -> font = t.monoFont; foreground = t.foreground }
    }

    override fun getMinimumSize() = java.awt.Dimension(0, super.getMinimumSize().height)
}
