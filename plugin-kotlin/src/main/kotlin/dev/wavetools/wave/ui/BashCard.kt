package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted

/**
 * A Bash call: the command and a running clock while it runs, with the end of what it prints so
 * far (the model gets the output only when it ends, BASH-FG-3; the tool window reads the file the
 * core names), then the output once, with ANSI colours — its first and last lines when it is long,
 * "Show All" for the rest — the exit code or signal, the duration and cwd notices. The core's note
 * to the model about a cut ("read it with the Read tool …") is not for people: the output shows
 * where text was left out, "Show All" opens the file.
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
        // The core cannot move a call that waits for permission (its command has not started): no
        // button that does nothing until then.
        moveAction.isVisible = controllable && !waitingForApproval
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
        footer.addText(reason, Tone.WARNING)
        refreshButtons()
        revalidate()
    }

    override fun onFinished(event: ToolFinished) {
        val r = BashResult.from(event.shown)
        result = r
        val (text, tone, state) = status(r)
        showOutcome(text, tone, state)
        body.removeAll()
        footer.clear()
        val omission = if (r.truncated) Omission.find(r.output) else null
        var partial = false
        if (r.output.isNotEmpty() && !r.movedToBackground) {
            val shown = (omission?.let { r.output.replaceRange(it.range, it.marker) } ?: r.output).trimEnd('\n')
            val bounded = BoundedText.of(shown, HEAD_LINES, TAIL_LINES, omission = omission?.let { it.marker to Format.bytes(it.omittedBytes) })
            partial = bounded.isPartial
            val pane = OutputPane(bounded.text, listOfNotNull(omission?.marker, bounded.marker))
            output = pane
            body.addRow(outputArea(pane))
        }
        // A command that never ran (no shell, unwritable output directory) or that the core aborted says why.
        if (r.error != null && r.output.isEmpty()) body.addRow(TextBlock(r.error, Tone.ERROR, small = true))
        footer.add(secondaryLabel(Format.duration(if (r.durationMs > 0) r.durationMs else event.durationMs)))
        if (r.signal == null) ExitSignals.describe(r.exitCode)?.let { footer.addText(it) }
        addStandingNotes()
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
        if (!r.movedToBackground && (partial || r.truncated)) footer.add(showAllLink(WaveBundle.message("card.bash.output.title", Format.firstLine(command, 60)), r.output, file))
        else if (file != null && !r.movedToBackground) footer.add(LinkLabel(WaveBundle.message("card.openOutputFile.link")) { actions.openFile(file, null) }.apply { toolTipText = file })
    }

    private fun status(r: BashResult): Triple<String, Tone, CallState> = when {
        r.movedToBackground -> Triple(WaveBundle.message("card.status.inBackground"), Tone.RUNNING, CallState.BACKGROUND)
        r.interrupted -> Triple(WaveBundle.message("card.status.interrupted"), Tone.WARNING, CallState.STOPPED)
        r.timedOut -> Triple(WaveBundle.message("card.status.stoppedAtTimeout"), Tone.WARNING, CallState.STOPPED)
        r.signal != null -> Triple(WaveBundle.message("card.status.killedBy", r.signal), Tone.ERROR, CallState.FAILED)
        r.exitCode != null -> if (r.exitCode == 0) Triple(WaveBundle.message("card.status.exit", 0), Tone.SUCCESS, CallState.PASSED) else Triple(WaveBundle.message("card.status.exit", r.exitCode), Tone.ERROR, CallState.FAILED)
        // It never ran (denied, no sandbox, no shell): why, in a few words.
        r.errorKind != null && !r.errorKind.isCommandOutcome -> Triple(r.errorKind.headline(), Tone.ERROR, CallState.FAILED)
        r.isError -> Triple(WaveBundle.message("card.status.failed"), Tone.ERROR, CallState.FAILED)
        else -> Triple(WaveBundle.message("card.status.done"), Tone.SUCCESS, CallState.PASSED)
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
        /** A long output shows its first lines (how it started) and its last (where summaries and errors are). */
        const val HEAD_LINES = 5
        const val TAIL_LINES = 18
    }
}
