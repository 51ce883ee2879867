package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ShellCommandResult
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolProgress
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.BorderLayout
import java.awt.FlowLayout
import java.awt.GridBagConstraints
import java.awt.GridBagLayout
import java.awt.Insets
import java.time.Clock
import javax.swing.BoxLayout
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.Timer

/**
 * A `run_shell_command` call. Unlike Bash, this tool's seed asks for live output: while it runs
 * the card shows the latest output tail from `tool/progress` (the core sends at most one a second),
 * then the result's fields — Command, Directory, Stdout, Stderr, Error, Exit Code, Signal,
 * Background PIDs, Process Group PGID — from `structuredContent`.
 */
class ShellCommandCard(started: ToolStarted, actions: CallActions, clock: Clock = Clock.systemUTC()) : ToolCallCard(started, actions, clock) {
    val command: String = arg("command") ?: ""
    val description: String? = arg("description")
    val directory: String? = arg("directory")

    val statusLabel = JLabel()
    val statusDot = StatusDot(WaveTheme.running)
    val stopButton: JButton = smallButton("Stop", "Stop the command and every process in its group") { requestStop() }
    private val body = JPanel().apply { isOpaque = false; layout = BoxLayout(this, BoxLayout.Y_AXIS) }
    private val timer = Timer(1000) { tick() }

    /** The live tail while running: the last `tool/progress` message. */
    var tail: OutputPane? = null
        private set
    var progressCount = 0
        private set
    var result: ShellCommandResult? = null
        private set

    /** The result's fields as shown, by name (what the tests read). */
    val fieldValues = LinkedHashMap<String, String>()
    private var lastProgressSeconds: Long? = null

    init {
        val sub = listOfNotNull(description?.takeIf { it.isNotBlank() }, directory?.takeIf { it.isNotBlank() }?.let { "in $it" })
        add(commandHeader(command, sub.joinToString(" · "), statusDot, statusLabel, stopButton), BorderLayout.NORTH)
        add(body, BorderLayout.CENTER)
        refreshButtons()
        tick()
        timer.start()
    }

    override fun tick() = showElapsed(statusLabel)

    fun refreshButtons() {
        stopButton.isVisible = isRunning
        stopButton.isEnabled = isRunning && actions.canControl(callId)
    }

    fun requestStop() {
        if (!stopButton.isEnabled) return
        stopButton.isEnabled = false
        stopButton.text = "Stopping…"
        actions.stop(callId)
    }

    /** A `tool/progress` for this call: the output tail replaces the previous one. */
    fun progress(event: ToolProgress) {
        if (!isRunning) return
        progressCount++
        lastProgressSeconds = event.progress?.toLong()
        val text = event.message ?: return
        val pane = OutputPane(text.trimEnd('\n'))
        tail = pane
        body.removeAll()
        body.add(secondaryLabel("Latest output" + (lastProgressSeconds?.let { " after ${it} s" } ?: "")).apply { alignmentX = LEFT_ALIGNMENT })
        body.add(OutputScroll(pane, TAIL_LINES, showEnd = true))
        revalidate()
        repaint()
    }

    override fun onFinished(event: ToolFinished) {
        timer.stop()
        val r = ShellCommandResult.from(event.result)
        result = r
        tail = null
        refreshButtons()
        body.removeAll()
        val (text, color) = when {
            r.interrupted -> "Interrupted" to WaveTheme.warning
            r.timedOut -> "Timed out" to WaveTheme.error
            r.signal != null -> "Killed by ${r.signalName ?: "signal ${r.signal}"}" to WaveTheme.error
            r.exitCode != null -> "Exit ${r.exitCode}" to (if (r.exitCode == 0) WaveTheme.success else WaveTheme.error)
            r.error != null -> "Failed" to WaveTheme.error
            else -> "Done" to WaveTheme.success
        }
        statusLabel.text = "$text · ${Format.duration(if (r.durationMs > 0) r.durationMs else event.durationMs)}"
        statusLabel.foreground = color
        statusDot.color = color
        val grid = JPanel(GridBagLayout()).apply { isOpaque = false; alignmentX = LEFT_ALIGNMENT }
        fieldValues.clear()
        r.fields().forEachIndexed { row, (name, value) ->
            fieldValues[name] = value
            val c = GridBagConstraints().apply { gridy = row; anchor = GridBagConstraints.NORTHWEST; insets = Insets(1, 0, 1, 8) }
            grid.add(secondaryLabel("$name:"), c.apply { gridx = 0; weightx = 0.0; fill = GridBagConstraints.NONE })
            grid.add(valueComponent(name, value, r), c.apply { gridx = 1; weightx = 1.0; fill = GridBagConstraints.HORIZONTAL })
        }
        body.add(grid)
        val files = listOfNotNull(r.stdoutPath?.let { "stdout" to it }, r.stderrPath?.let { "stderr" to it })
        if (files.isNotEmpty()) {
            val footer = JPanel(FlowLayout(FlowLayout.LEFT, 10, 2)).apply { isOpaque = false; alignmentX = LEFT_ALIGNMENT }
            files.forEach { (what, path) -> footer.add(LinkLabel("Open full $what") { actions.openFile(path, null) }.apply { toolTipText = path }) }
            body.add(footer)
        }
    }

    private fun valueComponent(name: String, value: String, r: ShellCommandResult): JComponent = when {
        (name == "Stdout" && r.stdout.isNotEmpty()) || (name == "Stderr" && r.stderr.isNotEmpty()) ->
            OutputScroll(OutputPane(value), OUTPUT_LINES, showEnd = true)
        name == "Error" && r.error != null -> JLabel(value).apply { foreground = WaveTheme.error; toolTipText = value }
        name == "Command" -> monoLabel(value)
        else -> JLabel(value).apply { foreground = if (value.startsWith("(")) WaveTheme.secondary else WaveTheme.foreground }
    }

    override fun dispose() = timer.stop()

    companion object {
        const val TAIL_LINES = 10
        const val OUTPUT_LINES = 16
    }
}
