package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import javax.swing.JComponent

/**
 * A Bash call: the command and a running clock while it runs — never partial output (BASH-FG-3) —
 * then the output once, with ANSI colours, the exit code or signal, the duration, cwd notices, and
 * "Open Full Output" when the core cut the output. The core's note to the model about the cut ("read
 * it with the Read tool …") is not for people: the output shows where text was left out, the footer
 * how much, with the link.
 */
class BashCard(started: ToolStarted, context: CardContext) : CommandCard(started, context) {
    val moveAction = CardAction(WaveBundle.message("card.moveToBackground.button"), { it.icons.moveToBackground }, WaveBundle.message("card.moveToBackground.tooltip")) { requestMove() }

    override val controls: List<CardAction> get() = listOf(moveAction, stopAction)

    var result: BashResult? = null
        private set
    var output: OutputPane? = null
        private set

    /** Why a move to the background was refused, once it was. */
    var notice: String? = null
        private set

    init {
        buildHeader()
    }

    override fun refreshButtons() {
        super.refreshButtons()
        val controllable = isRunning && actions.canControl(callId)
        moveAction.isVisible = controllable
        // The core cannot move a call that waits for permission (its command has not started).
        moveAction.isEnabled = controllable && notice == null && !waitingForApproval
    }

    fun requestMove() {
        if (!moveAction.isEnabled) return
        moveAction.isEnabled = false
        moveAction.label = WaveBundle.message("card.moving.button")
        actions.moveToBackground(callId)
    }

    /** The core declined to background the call (it already ended, or cannot): say why, keep Stop. */
    fun moveRefused(reason: String) {
        notice = reason
        moveAction.label = WaveBundle.message("card.moveToBackground.button")
        body.addRow(TextBlock(reason, Tone.WARNING, small = true))
        refreshButtons()
        revalidate()
    }

    override fun onFinished(event: ToolFinished) {
        val r = BashResult.from(event.shown)
        result = r
        val (text, tone) = status(r)
        showOutcome(text, tone)
        body.removeAll()
        footer.clear()
        val omission = if (r.truncated) Omission.find(r.output) else null
        if (r.output.isNotEmpty() && !r.movedToBackground) {
            val shown = (omission?.let { r.output.replaceRange(it.range, it.marker) } ?: r.output).trimEnd('\n')
            val pane = OutputPane(shown, listOfNotNull(omission?.marker))
            output = pane
            body.addRow(outputArea(pane, MAX_OUTPUT_LINES, showEnd = true))
            addSoftWrapToggle()
        }
        // A command that never ran (no shell, unwritable output directory) or that the core aborted says why.
        if (r.error != null && r.output.isEmpty()) body.addRow(TextBlock(r.error, Tone.ERROR, small = true))
        footer.add(secondaryLabel(Format.duration(if (r.durationMs > 0) r.durationMs else event.durationMs)))
        if (r.movedToBackground) {
            val how = when {
                r.backgroundedByUser -> WaveBundle.message("card.bash.movedByUser.text")
                r.assistantAutoBackgrounded -> WaveBundle.message("card.bash.movedAfterTimeout.text")
                else -> WaveBundle.message("card.bash.startedInBackground.text")
            }
            footer.addText(how, tooltip = WaveBundle.message("card.bash.task.tooltip", r.backgroundTaskId ?: ""))
        }
        r.cwdNotices.forEach { footer.addText(it) }
        if (r.survivors.isNotEmpty()) {
            footer.addText(
                WaveBundle.message("card.bash.leftRunning.text", r.survivors.joinToString(", ") { it.command }),
                Tone.WARNING,
                r.survivors.joinToString("\n") { WaveBundle.message("card.bash.process.tooltip", it.command, it.pid) },
            )
        }
        sandboxNote(r.sandboxed)?.let { footer.add(it) }
        val file = r.outputPath
        if (file != null && !r.movedToBackground) footer.add(outputLink(r, file, omission))
    }

    /** "40.4 KB omitted — Open Full Output" when cut; "Open Output File" when processes still write to it. */
    private fun outputLink(r: BashResult, file: String, omission: Omission?): JComponent {
        if (!r.truncated) return LinkLabel(WaveBundle.message("card.openOutputFile.link")) { actions.openFile(file, null) }.apply { toolTipText = file }
        val omitted = omission?.omittedBytes ?: (r.outputBytes - r.output.length).coerceAtLeast(0)
        return wrapRow(
            secondaryLabel(WaveBundle.message("card.omitted.text", Format.bytes(omitted))),
            LinkLabel(WaveBundle.message("card.openFullOutput.link")) { actions.openFile(file, null) }.apply { toolTipText = file },
            hgap = 4,
        )
    }

    private fun status(r: BashResult): Pair<String, Tone> = when {
        r.movedToBackground -> WaveBundle.message("card.status.inBackground") to Tone.RUNNING
        r.interrupted -> WaveBundle.message("card.status.interrupted") to Tone.WARNING
        r.timedOut -> WaveBundle.message("card.status.stoppedAtTimeout") to Tone.WARNING
        r.signal != null -> WaveBundle.message("card.status.killedBy", r.signal) to Tone.ERROR
        r.exitCode != null -> WaveBundle.message("card.status.exit", r.exitCode) to (if (r.exitCode == 0) Tone.SUCCESS else Tone.ERROR)
        // It never ran (denied, no sandbox, no shell): why, in a few words.
        r.errorKind != null && !r.errorKind.isCommandOutcome -> r.errorKind.headline() to Tone.ERROR
        r.isError -> WaveBundle.message("card.status.failed") to Tone.ERROR
        else -> WaveBundle.message("card.status.done") to Tone.SUCCESS
    }

    /**
     * The core's note between the head and the tail of a cut output, addressed to the model
     * (`[… 41,322 bytes omitted. Full output (47.1 KB): /tmp/… — read it with …]`); shown to people
     * as [marker].
     */
    data class Omission(val range: IntRange, val omittedBytes: Long) {
        val marker: String get() = WaveBundle.message("output.omitted.marker", Format.bytes(omittedBytes))

        companion object {
            private val PATTERN = Regex("""\[… ([\d,]+) bytes omitted\.[^\n]*]""")

            fun find(output: String): Omission? = PATTERN.find(output)?.let { m ->
                Omission(m.range, m.groupValues[1].replace(",", "").toLongOrNull() ?: 0)
            }
        }
    }

    companion object {
        const val MAX_OUTPUT_LINES = 24
    }
}
