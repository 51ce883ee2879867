package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ToolOutput
import dev.wavetools.wave.bridge.ToolStarted
import java.nio.file.Paths
import java.time.Duration
import javax.swing.JComponent
import javax.swing.Timer

/**
 * A shell command's card, the same for Bash and run_shell_command: the status icon, `$ command`
 * on one line (cut with "…" at the end, the whole command in the tooltip; shown whole, wrapped,
 * while the person is asked about it), its description below, and on the right the status — a
 * running clock, then the outcome — with Stop (and Move to Background for Bash) while it runs.
 * While it runs the card shows the end of what it prints, read from the file the core names in
 * `tool/output` (off the UI thread, a few times a second); when it ends, the result replaces it.
 */
abstract class CommandCard(started: ToolStarted, context: CardContext) : ToolCallCard(started, context) {
    val command: String = arg("command") ?: ""
    val description: String? = arg("description")?.takeIf { it.isNotBlank() }

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

    /** The output so far, while the command runs (null before the first of it arrives). */
    var liveOutput: OutputPane? = null
        private set
    private var liveTail: LiveTail? = null

    /** Subclasses call this once their controls exist. */
    protected fun buildHeader() {
        header = CardHeader(statusIcon, commandLabel, statusLabel, controls, chevron, descriptionBlock)
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
            statusIcon.state = CallState.WAITING
            return
        }
        statusLabel.text = WaveBundle.message("card.status.running", Format.elapsed(Duration.between(startedAt, clock.instant())))
        statusLabel.tone = Tone.RUNNING
        statusIcon.state = CallState.RUNNING
    }

    override fun approvalChanged() {
        // While the person decides, they read the whole command; afterwards one line is enough.
        header.title = if (waitingForApproval) fullCommand else commandLabel
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

    /** `tool/output`: follow the command's files until it ends. */
    fun followOutput(event: ToolOutput) {
        if (!isRunning || liveTail != null || event.outputPath.isEmpty()) return
        val files = listOfNotNull(event.outputPath, event.stderrPath).map { Paths.get(it) }
        liveTail = LiveTail(files) { texts, cut -> if (isRunning) showLive(texts, cut) }.also { track(it) }
    }

    /** Whether the output so far is what [followOutput] shows (run_shell_command's progress tails step back then). */
    val followsFile: Boolean get() = liveTail != null

    /** The end of the output so far, as the files hold it: [texts] per file, [cut] when earlier output is left out. */
    protected open fun showLive(texts: List<String>, cut: Boolean) {
        val (tail, more) = LiveTail.lastLines(texts.first(), LIVE_LINES)
        showLiveText(tail, cut || more)
    }

    /** Puts [text] (the end of the output so far) in the card, reusing the area it is already in. */
    protected fun showLiveText(text: String, earlierLeftOut: Boolean) {
        if (text.isBlank()) return
        val marker = WaveBundle.message("output.live.earlier")
        val shown = if (earlierLeftOut) "$marker\n$text" else text
        val pane = liveOutput
        if (pane != null) {
            pane.update(shown)
        } else {
            val p = OutputPane(shown, listOf(marker))
            liveOutput = p
            body.removeAll()
            body.addRow(outputArea(p))
            bodyChanged()
        }
        revalidate()
        repaint()
    }

    /** The outcome on the right: [text] in [tone], with [state]'s icon. */
    protected fun showOutcome(text: String, tone: Tone, state: CallState) {
        timer.stop()
        liveTail?.close()
        liveTail = null
        liveOutput = null
        statusLabel.text = text
        statusLabel.tone = tone
        statusIcon.state = state
        controls.forEach { it.isVisible = false }
    }

    /** "Ran outside the sandbox", discreetly, when the core says the command left it. */
    protected fun sandboxNote(sandboxed: Boolean?): JComponent? =
        if (sandboxed == false) secondaryLabel(WaveBundle.message("card.outsideSandbox.text")).apply { toolTipText = WaveBundle.message("card.outsideSandbox.tooltip") } else null

    override fun dispose() {
        timer.stop()
        liveTail?.close()
        super.dispose()
    }

    companion object {
        /** How many of the last lines a running command shows. */
        const val LIVE_LINES = 12
    }
}

/** A label in the console font, for commands; cut with "…" when short of room. */
class MonoLabel(text: String) : EllipsisLabel(text) {
    init {
        styled { t -> font = t.monoFont; foreground = t.foreground }
    }
}

/** What a shell's exit code above 128 says: the command was ended by signal n - 128. */
object ExitSignals {
    private val NAMES = mapOf(1 to "SIGHUP", 2 to "SIGINT", 3 to "SIGQUIT", 4 to "SIGILL", 6 to "SIGABRT", 8 to "SIGFPE", 9 to "SIGKILL", 11 to "SIGSEGV", 13 to "SIGPIPE", 14 to "SIGALRM", 15 to "SIGTERM")

    /** "Terminated by SIGTERM" for 143; null for codes that name no signal. */
    fun describe(exitCode: Int?): String? {
        val n = (exitCode ?: return null) - 128
        val name = NAMES[n] ?: return null
        return WaveBundle.message("card.exit.bySignal", name, exitCode, n)
    }
}
