package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.BorderLayout
import java.awt.FlowLayout
import java.time.Clock
import javax.swing.Box
import javax.swing.BoxLayout
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.Timer

/**
 * A Bash call: the command line, its description and a running state with elapsed time while it
 * runs — never partial output (BASH-FG-3) — then the output once, with ANSI colours, the exit code
 * or signal, the duration, cwd notices and "Open full output" when the result was truncated.
 */
class BashCard(started: ToolStarted, actions: CallActions, clock: Clock = Clock.systemUTC()) : ToolCallCard(started, actions, clock) {
    val command: String = arg("command") ?: ""
    val description: String? = arg("description")

    val statusLabel = JLabel()
    val statusDot = StatusDot(WaveTheme.running)
    val moveButton: JButton = smallButton("Move to background", "Keep it running as a background task (Ctrl+B)") { requestMove() }
    val stopButton: JButton = smallButton("Stop", "Stop the command and its child processes") { requestStop() }
    private val buttons = JPanel(FlowLayout(FlowLayout.RIGHT, 4, 0)).apply { isOpaque = false; add(moveButton); add(stopButton) }
    private val body = JPanel().apply { isOpaque = false; layout = BoxLayout(this, BoxLayout.Y_AXIS) }
    private val timer = Timer(1000) { tick() }

    var result: BashResult? = null
        private set
    var output: OutputPane? = null
        private set
    val footerLabels = mutableListOf<JComponent>()
    var notice: String? = null
        private set

    /** An approval card for this call is open: the command has not started and cannot be moved yet. */
    var waitingForPermission = false
        set(value) {
            field = value
            refreshButtons()
        }

    init {
        add(commandHeader(command, description, statusDot, statusLabel, buttons), BorderLayout.NORTH)
        add(body, BorderLayout.CENTER)
        refreshButtons()
        tick()
        timer.start()
    }

    override fun tick() = showElapsed(statusLabel)

    /** Re-reads whether this host can still control the call (it may have been started elsewhere). */
    fun refreshButtons() {
        val controllable = isRunning && actions.canControl(callId)
        buttons.isVisible = isRunning
        moveButton.isEnabled = controllable && notice == null && !waitingForPermission
        stopButton.isEnabled = controllable
    }

    fun requestMove() {
        if (!moveButton.isEnabled) return
        moveButton.isEnabled = false
        moveButton.text = "Moving…"
        actions.moveToBackground(callId)
    }

    fun requestStop() {
        if (!stopButton.isEnabled) return
        stopButton.isEnabled = false
        moveButton.isEnabled = false
        stopButton.text = "Stopping…"
        actions.stop(callId)
    }

    /** The core declined to background the call (it already ended, or cannot): say why, keep Stop. */
    fun moveRefused(reason: String) {
        notice = reason
        moveButton.text = "Move to background"
        body.add(secondaryLabel(reason).apply { foreground = WaveTheme.warning })
        refreshButtons()
        revalidate()
    }

    override fun onFinished(event: ToolFinished) {
        timer.stop()
        val r = BashResult.from(event.result)
        result = r
        buttons.isVisible = false
        body.removeAll()
        val (text, color) = status(r)
        statusLabel.text = text
        statusLabel.foreground = color
        statusDot.color = color
        if (r.output.isNotEmpty() && !r.movedToBackground) {
            val pane = OutputPane(r.output.trimEnd('\n'))
            // The core's "[… N bytes omitted. Full output …]" line between head and tail is for the
            // model; here it reads as a note, and the footer links the file.
            if (r.truncated) OMISSION_MARKER.find(pane.plainText)?.let { pane.markAsNote(it.range) }
            output = pane
            body.add(Box.createVerticalStrut(4))
            body.add(OutputScroll(pane, MAX_OUTPUT_LINES, showEnd = true))
        }
        // A command that never ran (no shell, unwritable output directory) or that the core aborted says why.
        if (r.error != null && r.output.isEmpty()) {
            body.add(secondaryLabel(Format.firstLine(r.error, 300)).apply { foreground = WaveTheme.error; toolTipText = r.error; alignmentX = LEFT_ALIGNMENT })
        }
        val footer = JPanel(FlowLayout(FlowLayout.LEFT, 10, 2)).apply { isOpaque = false; alignmentX = LEFT_ALIGNMENT }
        footerLabels.clear()
        val parts = mutableListOf<JComponent>()
        parts += secondaryLabel(Format.duration(if (r.durationMs > 0) r.durationMs else event.durationMs))
        if (r.movedToBackground) {
            val how = when {
                r.backgroundedByUser -> "Moved to the background"
                r.assistantAutoBackgrounded -> "Still running after its timeout; continued in the background"
                else -> "Running in the background"
            }
            parts += secondaryLabel("$how as task ${r.backgroundTaskId}")
        }
        r.cwdNotices.forEach { parts += secondaryLabel(it) }
        if (r.survivors.isNotEmpty()) {
            parts += secondaryLabel("Left running: " + r.survivors.joinToString { "${it.command} (pid ${it.pid})" }).apply { foreground = WaveTheme.warning }
        }
        val file = r.outputPath
        if (file != null && !r.movedToBackground) {
            // Truncated: the file has what the card could not show. Survivors: they are still writing to it.
            val label = if (r.truncated) "Open full output (${Format.bytes(r.outputBytes)})" else "Open output file"
            parts += LinkLabel(label) { actions.openFile(file, null) }.apply { toolTipText = file }
        }
        parts.forEach { footer.add(it); footerLabels += it }
        body.add(footer)
    }

    private fun status(r: BashResult): Pair<String, java.awt.Color> = when {
        r.movedToBackground -> "In background" to WaveTheme.running
        r.interrupted -> "Interrupted" to WaveTheme.warning
        r.timedOut -> "Stopped at its timeout" to WaveTheme.warning
        r.signal != null -> "Killed by ${r.signal}" to WaveTheme.error
        r.exitCode != null -> "Exit ${r.exitCode}" to (if (r.exitCode == 0) WaveTheme.success else WaveTheme.error)
        r.error != null -> "Not run" to WaveTheme.error
        r.isError -> "Failed" to WaveTheme.error
        else -> "Done" to WaveTheme.success
    }

    override fun dispose() = timer.stop()

    companion object {
        const val MAX_OUTPUT_LINES = 24
        private val OMISSION_MARKER = Regex("""\[… [\d,]+ bytes omitted\.[^\n]*]""")
    }
}
