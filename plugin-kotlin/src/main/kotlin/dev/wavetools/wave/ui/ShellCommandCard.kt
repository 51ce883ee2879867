package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ShellCommandResult
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolProgress
import dev.wavetools.wave.bridge.ToolStarted

/**
 * A `run_shell_command` call: the Bash card's header, status and footer. Unlike Bash this tool
 * shows live output: while it runs, the latest output tail from `tool/progress` (the core sends at
 * most one a second). When it ends, its output (stdout, or stderr when there is nothing else) and
 * what went wrong; the other fields of the result — directory, stderr, signal, background
 * processes, process group — are in a collapsed Details section.
 */
class ShellCommandCard(started: ToolStarted, context: CardContext) : CommandCard(started, context) {
    val directory: String? = arg("directory")?.takeIf { it.isNotBlank() }

    /** The live tail while running: the last `tool/progress` message. */
    var tail: OutputPane? = null
        private set
    var progressCount = 0
        private set
    var result: ShellCommandResult? = null
        private set

    /** The output shown in the card when it ended. */
    var output: OutputPane? = null
        private set

    var details: DetailsSection? = null
        private set

    /** The result's fields by the names the model reads (what the tests compare with the result text). */
    val fieldValues = LinkedHashMap<String, String>()

    init {
        buildHeader()
        directory?.let { commandLabel.toolTipText = WaveBundle.message("card.shell.commandIn.tooltip", command, it) }
    }

    /** A `tool/progress` for this call: the output tail replaces the previous one. */
    fun progress(event: ToolProgress) {
        if (!isRunning) return
        progressCount++
        val text = event.message ?: return
        val pane = OutputPane(text.trimEnd('\n'))
        tail = pane
        body.removeAll()
        val seconds = event.progress?.toLong()
        body.addRow(secondaryLabel(if (seconds != null) WaveBundle.message("card.shell.latestOutputAfter.text", seconds) else WaveBundle.message("card.shell.latestOutput.text")))
        body.addRow(outputArea(pane, TAIL_LINES, showEnd = true))
        if (footer.softWrapToggle == null) addSoftWrapToggle()
        revalidate()
        repaint()
    }

    override fun onFinished(event: ToolFinished) {
        val r = ShellCommandResult.from(event.shown)
        result = r
        tail = null
        val (text, tone) = when {
            r.interrupted -> WaveBundle.message("card.status.interrupted") to Tone.WARNING
            r.timedOut -> WaveBundle.message("card.status.timedOut") to Tone.ERROR
            r.signal != null -> WaveBundle.message("card.status.killedBy", r.signalName ?: r.signal.toString()) to Tone.ERROR
            r.exitCode != null -> WaveBundle.message("card.status.exit", r.exitCode) to (if (r.exitCode == 0) Tone.SUCCESS else Tone.ERROR)
            r.kind != null -> r.kind!!.headline() to Tone.ERROR
            else -> WaveBundle.message("card.status.done") to Tone.SUCCESS
        }
        showOutcome(text, tone)
        body.removeAll()
        footer.clear()
        fieldValues.clear()
        r.fields().forEach { (name, value) -> fieldValues[name] = value }

        val stdout = r.stdout.trimEnd('\n')
        val stderr = r.stderr.trimEnd('\n')
        // stdout is the output; when there is none, stderr is (a failing command often writes only there).
        val stderrIsMain = stdout.isEmpty() && stderr.isNotEmpty()
        val main = if (stderrIsMain) stderr else stdout
        if (main.isNotEmpty()) {
            val pane = OutputPane(main)
            output = pane
            body.addRow(outputArea(pane, OUTPUT_LINES, showEnd = true))
            addSoftWrapToggle()
        }
        r.error?.takeIf { it.isNotBlank() }?.let { body.addRow(TextBlock(it, Tone.ERROR, small = true)) }
        body.addRow(detailsSection(r, stderr.takeIf { !stderrIsMain && it.isNotEmpty() }))

        footer.add(secondaryLabel(Format.duration(if (r.durationMs > 0) r.durationMs else event.durationMs)))
        sandboxNote(r.sandboxed)?.let { footer.add(it) }
        r.stdoutPath?.let { p -> footer.add(LinkLabel(WaveBundle.message("card.shell.openFullStdout.link")) { actions.openFile(p, null) }.apply { toolTipText = p }) }
        r.stderrPath?.let { p -> footer.add(LinkLabel(WaveBundle.message("card.shell.openFullStderr.link")) { actions.openFile(p, null) }.apply { toolTipText = p }) }
    }

    /**
     * Directory, stderr, signal, background processes and process group: there when someone looks
     * for them. Each fact is a line of its own ("Directory: web"), stderr an output area under its
     * name, so nothing needs a second column at narrow widths.
     */
    private fun detailsSection(r: ShellCommandResult, stderr: String?): DetailsSection {
        val content = verticalStack()
        val summary = mutableListOf<String>()
        fun fact(nameKey: String, value: String) = content.addRow(TextBlock(WaveBundle.message("card.shell.details.fact", WaveBundle.message(nameKey), value), Tone.SECONDARY, small = true))
        fact("card.shell.details.directory", r.directory.ifEmpty { "(root)" })
        r.signal?.let { fact("card.shell.details.signal", r.signalName?.let { n -> "$it ($n)" } ?: "$it") }
        if (r.backgroundPids.isNotEmpty()) {
            val named = r.backgroundProcesses.associate { it.pid to it.command }
            fact("card.shell.details.background", r.backgroundPids.joinToString(", ") { pid -> named[pid]?.let { WaveBundle.message("card.bash.process.tooltip", it, pid) } ?: pid.toString() })
            summary += if (r.backgroundPids.size == 1) WaveBundle.message("card.shell.details.background.one") else WaveBundle.message("card.shell.details.background.many", r.backgroundPids.size)
        }
        r.pgid?.let { fact("card.shell.details.pgid", it.toString()) }
        if (stderr != null) {
            content.addRow(secondaryLabel(WaveBundle.message("card.shell.details.stderr")))
            content.addRow(outputArea(OutputPane(stderr), OUTPUT_LINES, showEnd = true))
            summary.add(0, WaveBundle.message("card.shell.details.stderr.summary"))
        }
        return DetailsSection(WaveBundle.message("card.details.link"), summary.joinToString(" · ").ifEmpty { null }, content).also { details = it }
    }

    companion object {
        const val TAIL_LINES = 10
        const val OUTPUT_LINES = 16
    }
}
