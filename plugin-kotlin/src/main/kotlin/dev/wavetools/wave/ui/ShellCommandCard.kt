package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ShellCommandResult
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolProgress
import dev.wavetools.wave.bridge.ToolStarted

/**
 * A `run_shell_command` call: the Bash card's header, status and footer. While it runs, the end of
 * its stdout and stderr as the files the core names in `tool/output` hold them (from a core that
 * does not name them, the tails `tool/progress` carries, at most one a second). When it ends, its
 * output (stdout, or stderr when there is nothing else) and what went wrong; the other fields of
 * the result — directory, stderr, signal, background processes, process group — are an aligned
 * list in a collapsed Details section.
 */
class ShellCommandCard(started: ToolStarted, context: CardContext) : CommandCard(started, context) {
    val directory: String? = arg("directory")?.takeIf { it.isNotBlank() }

    /** The output so far while running: the files' tails, or the last `tool/progress` message. */
    val tail: OutputPane? get() = liveOutput
    var progressCount = 0
        private set
    var result: ShellCommandResult? = null
        private set

    /** The output shown in the card when it ended. */
    var output: OutputPane? = null
        private set

    var details: DetailsSection? = null
        private set

    /** The Details list: the result's other fields by their names as shown. */
    var detailsList: KeyValueList? = null
        private set

    /** The result's fields by the names the model reads (what the tests compare with the result text). */
    val fieldValues = LinkedHashMap<String, String>()

    init {
        buildHeader()
        directory?.let { commandLabel.toolTipText = WaveBundle.message("card.shell.commandIn.tooltip", command, it) }
    }

    /** A `tool/progress` for this call: its tail is the output so far, unless the card follows the files. */
    fun progress(event: ToolProgress) {
        if (!isRunning) return
        progressCount++
        if (followsFile) return
        val text = event.message ?: return
        showLiveText(text.trimEnd('\n'), earlierLeftOut = false)
    }

    /** stdout's last lines, then stderr's under a `[stderr]` line, as `tool/progress` shows them. */
    override fun showLive(texts: List<String>, cut: Boolean) {
        val (out, moreOut) = LiveTail.lastLines(texts[0], LIVE_LINES)
        val err = texts.getOrNull(1)?.takeIf { it.isNotBlank() }?.let { LiveTail.lastLines(it, LIVE_LINES / 2) }
        val text = listOfNotNull(out.takeIf { it.isNotBlank() }, err?.let { "[stderr]\n" + it.first }).joinToString("\n")
        showLiveText(text, cut || moreOut || err?.second == true)
    }

    override fun onFinished(event: ToolFinished) {
        val r = ShellCommandResult.from(event.shown)
        result = r
        val (text, tone, state) = when {
            r.interrupted -> Triple(WaveBundle.message("card.status.interrupted"), Tone.WARNING, CallState.STOPPED)
            r.timedOut -> Triple(WaveBundle.message("card.status.timedOut"), Tone.ERROR, CallState.STOPPED)
            r.signal != null -> Triple(WaveBundle.message("card.status.killedBy", r.signalName ?: r.signal.toString()), Tone.ERROR, CallState.FAILED)
            r.exitCode != null -> if (r.exitCode == 0) Triple(WaveBundle.message("card.status.exit", 0), Tone.SUCCESS, CallState.PASSED) else Triple(WaveBundle.message("card.status.exit", r.exitCode), Tone.ERROR, CallState.FAILED)
            r.kind != null -> Triple(r.kind!!.headline(), Tone.ERROR, CallState.FAILED)
            else -> Triple(WaveBundle.message("card.status.done"), Tone.SUCCESS, CallState.PASSED)
        }
        showOutcome(text, tone, state)
        body.removeAll()
        footer.clear()
        fieldValues.clear()
        r.fields().forEach { (name, value) -> fieldValues[name] = value }

        val stdout = r.stdout.trimEnd('\n')
        val stderr = r.stderr.trimEnd('\n')
        // stdout is the output; when there is none, stderr is (a failing command often writes only there).
        val stderrIsMain = stdout.isEmpty() && stderr.isNotEmpty()
        val main = if (stderrIsMain) stderr else stdout
        var partial = false
        if (main.isNotEmpty()) {
            val bounded = BoundedText.of(main, BashCard.HEAD_LINES, OUTPUT_TAIL_LINES)
            partial = bounded.isPartial
            val pane = OutputPane(bounded.text, listOfNotNull(bounded.marker))
            output = pane
            body.addRow(outputArea(pane))
        }
        r.error?.takeIf { it.isNotBlank() }?.let { body.addRow(TextBlock(it, Tone.ERROR, small = true)) }
        body.addRow(detailsSection(r, stderr.takeIf { !stderrIsMain && it.isNotEmpty() }))

        footer.add(secondaryLabel(Format.duration(if (r.durationMs > 0) r.durationMs else event.durationMs)))
        if (r.signal == null) ExitSignals.describe(r.exitCode)?.let { footer.addText(it) }
        addStandingNotes()
        sandboxNote(r.sandboxed)?.let { footer.add(it) }
        if (partial && r.stdoutPath == null) footer.add(showAllLink(WaveBundle.message("card.bash.output.title", Format.firstLine(command, 60)), main, null))
        r.stdoutPath?.let { p -> footer.add(LinkLabel(WaveBundle.message("card.shell.openFullStdout.link")) { actions.openFile(p, null) }.apply { toolTipText = p }) }
        r.stderrPath?.let { p -> footer.add(LinkLabel(WaveBundle.message("card.shell.openFullStderr.link")) { actions.openFile(p, null) }.apply { toolTipText = p }) }
    }

    /**
     * Directory, stderr, signal, background processes and process group: there when someone looks
     * for them, as an aligned list of names and values (values selectable), stderr an output under it.
     */
    private fun detailsSection(r: ShellCommandResult, stderr: String?): DetailsSection {
        val content = verticalStack()
        val list = KeyValueList()
        detailsList = list
        val summary = mutableListOf<String>()
        list.add(WaveBundle.message("card.shell.details.directory"), r.directory.ifEmpty { "(root)" })
        r.signal?.let { list.add(WaveBundle.message("card.shell.details.signal"), r.signalName?.let { n -> "$it ($n)" } ?: "$it") }
        if (r.backgroundPids.isNotEmpty()) {
            val named = r.backgroundProcesses.associate { it.pid to it.command }
            list.add(WaveBundle.message("card.shell.details.background"), r.backgroundPids.joinToString("\n") { pid -> named[pid]?.let { WaveBundle.message("card.bash.process.tooltip", it, pid) } ?: pid.toString() })
            summary += if (r.backgroundPids.size == 1) WaveBundle.message("card.shell.details.background.one") else WaveBundle.message("card.shell.details.background.many", r.backgroundPids.size)
        }
        r.pgid?.let { list.add(WaveBundle.message("card.shell.details.pgid"), it.toString()) }
        content.addRow(list)
        if (stderr != null) {
            content.addRow(ToneLabel(WaveBundle.message("card.shell.details.stderr"), Tone.SECONDARY, small = true).apply { styled { t -> border = javax.swing.BorderFactory.createEmptyBorder(t.px(6), 0, t.px(2), 0) } })
            content.addRow(outputArea(OutputPane(BoundedText.of(stderr, BashCard.HEAD_LINES, OUTPUT_TAIL_LINES).text)))
            summary.add(0, WaveBundle.message("card.shell.details.stderr.summary"))
        }
        return DetailsSection(WaveBundle.message("card.details.link"), summary.joinToString(" · ").ifEmpty { null }, content).also { details = it }
    }

    companion object {
        const val OUTPUT_TAIL_LINES = 10
    }
}
