package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.TaskInfo
import java.awt.BorderLayout
import java.awt.Dimension
import java.awt.FlowLayout
import java.io.RandomAccessFile
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.time.Clock
import java.time.Duration
import java.time.Instant
import javax.swing.BorderFactory
import javax.swing.BoxLayout
import javax.swing.JButton
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.Timer

/**
 * Follows a background task's log file while it is shown: reads what was appended since the last
 * look and keeps the last [maxChars] characters, so a task that prints gigabytes costs no memory.
 */
class LogTail(val path: Path, private val maxChars: Int = 64 * 1024) {
    private var offset = 0L
    private val buffer = StringBuilder()

    /** Reads new bytes; returns true when the text changed. */
    fun poll(): Boolean {
        if (!Files.isRegularFile(path)) return false
        RandomAccessFile(path.toFile(), "r").use { f ->
            val size = f.length()
            if (size < offset) { offset = 0; buffer.setLength(0) } // truncated or replaced
            if (size == offset) return false
            val start = maxOf(offset, size - maxChars * 4L)
            val bytes = ByteArray((size - start).toInt())
            f.seek(start)
            f.readFully(bytes)
            offset = size
            if (start > 0 && buffer.isEmpty()) buffer.append("… (earlier output not shown)\n")
            buffer.append(String(bytes, StandardCharsets.UTF_8))
            if (buffer.length > maxChars) buffer.delete(0, buffer.length - maxChars)
            return true
        }
    }

    val text: String get() = buffer.toString()
}

/**
 * Background tasks: status, runtime and exit of each, a Stop button while it runs, and a live tail
 * of the selected task's log.
 */
class TasksPanel(private val actions: CallActions, private val clock: Clock = Clock.systemUTC()) : JPanel(BorderLayout()) {
    private val tasks = LinkedHashMap<String, TaskInfo>()
    private val list = JPanel().apply { layout = BoxLayout(this, BoxLayout.Y_AXIS); isOpaque = false }
    private val tailPane = JPanel(BorderLayout()).apply { isOpaque = false }
    private val title = JLabel("Background tasks")
    private val rows = LinkedHashMap<String, Row>()
    private val timer = Timer(1000) { tick() }

    var selectedTaskId: String? = null
        private set
    var tail: LogTail? = null
        private set
    var tailOutput: OutputPane? = null
        private set

    inner class Row(var task: TaskInfo) : JPanel(BorderLayout(6, 0)) {
        val dot = StatusDot(WaveTheme.running)
        val status = secondaryLabel("")
        val stop: JButton = smallButton("Stop", "Stop this task and its child processes") {
            stop.isEnabled = false
            stop.text = "Stopping…"
            actions.stopTask(task.taskId)
        }
        val showLog = LinkLabel("Log") { select(task.taskId) }

        init {
            isOpaque = false
            border = BorderFactory.createEmptyBorder(2, 4, 2, 4)
            val left = JPanel(FlowLayout(FlowLayout.LEFT, 6, 0)).apply { isOpaque = false }
            left.add(dot)
            left.add(monoLabel(task.command).apply { toolTipText = task.command })
            task.description?.let { left.add(secondaryLabel("· $it")) }
            origin(task)?.let { left.add(secondaryLabel("· $it")) }
            val right = JPanel(FlowLayout(FlowLayout.RIGHT, 6, 0)).apply { isOpaque = false }
            right.add(status); right.add(showLog); right.add(stop)
            add(left, BorderLayout.CENTER)
            add(right, BorderLayout.EAST)
            update(task)
        }

        override fun getMaximumSize(): Dimension = Dimension(Int.MAX_VALUE, preferredSize.height)

        fun update(t: TaskInfo) {
            task = t
            val (text, color) = describe(t)
            status.text = text
            dot.color = color
            stop.isVisible = t.isRunning
            repaint()
        }
    }

    init {
        isOpaque = true
        background = WaveTheme.background
        border = BorderFactory.createMatteBorder(1, 0, 0, 0, WaveTheme.border)
        title.font = title.font.deriveFont(java.awt.Font.BOLD)
        title.border = BorderFactory.createEmptyBorder(4, 8, 4, 8)
        add(title, BorderLayout.NORTH)
        val center = JPanel(BorderLayout()).apply { isOpaque = false }
        center.add(list, BorderLayout.NORTH)
        center.add(tailPane, BorderLayout.CENTER)
        add(center, BorderLayout.CENTER)
        isVisible = false
    }

    fun describe(t: TaskInfo): Pair<String, java.awt.Color> {
        val runtime = if (t.isRunning) Format.elapsed(runningFor(t)) else Format.duration(t.runtimeMs)
        return when (t.status) {
            "running" -> "running $runtime" to WaveTheme.running
            "completed" -> "exit 0 · $runtime" to WaveTheme.success
            "killed" -> "stopped${t.signal?.let { " ($it)" } ?: ""} · $runtime" to WaveTheme.warning
            else -> (if (t.exitCode != null) "exit ${t.exitCode}" else t.signal?.let { "killed by $it" } ?: "failed") + " · $runtime" to WaveTheme.error
        }
    }

    /** How a task came to run in the background, when it was not started there. */
    fun origin(t: TaskInfo): String? = when (t.origin) {
        "user" -> "moved here with Ctrl+B"
        "timeout" -> "moved here after its timeout"
        else -> null
    }

    private fun runningFor(t: TaskInfo): Duration = try {
        Duration.between(Instant.parse(t.startedAt), clock.instant())
    } catch (e: Exception) {
        Duration.ofMillis(t.runtimeMs)
    }

    fun tasks(): List<TaskInfo> = tasks.values.toList()
    fun row(taskId: String): Row? = rows[taskId]

    /** Adds or updates a task (from `task/started`, `task/finished` or `tasks/list`). */
    fun upsert(task: TaskInfo) {
        tasks[task.taskId] = task
        val row = rows[task.taskId]
        if (row == null) {
            val r = Row(task)
            rows[task.taskId] = r
            list.add(r)
        } else {
            row.update(task)
        }
        title.text = "Background tasks (${tasks.values.count { it.isRunning }} running)"
        isVisible = true
        if (tasks.values.any { it.isRunning }) timer.start() else timer.stop()
        revalidate()
        repaint()
    }

    fun select(taskId: String) {
        val t = tasks[taskId] ?: return
        selectedTaskId = taskId
        tail = LogTail(Paths.get(t.outputPath))
        tailPane.removeAll()
        val header = JPanel(FlowLayout(FlowLayout.LEFT, 6, 2)).apply { isOpaque = false }
        header.add(secondaryLabel("Log of ${t.taskId}: ${t.outputPath}"))
        header.add(LinkLabel("Open") { actions.openFile(t.outputPath, null) })
        header.add(LinkLabel("Close") { closeTail() })
        tailPane.add(header, BorderLayout.NORTH)
        refreshTail(force = true)
        timer.start()
        revalidate()
    }

    fun closeTail() {
        selectedTaskId = null
        tail = null
        tailOutput = null
        tailPane.removeAll()
        revalidate()
        repaint()
    }

    /** Re-reads the tail (every second while shown). */
    fun refreshTail(force: Boolean = false) {
        val t = tail ?: return
        if (!t.poll() && !force) return
        tailOutput?.parent?.parent?.let { tailPane.remove(it) }
        val pane = OutputPane(t.text)
        tailOutput = pane
        val scroll = JScrollPane(pane)
        scroll.preferredSize = Dimension(200, 160)
        tailPane.add(scroll, BorderLayout.CENTER)
        pane.caretPosition = pane.document.length
        revalidate()
    }

    fun tick() {
        rows.values.forEach { it.update(it.task) }
        refreshTail()
        if (tasks.values.none { it.isRunning } && tail == null) timer.stop()
    }

    fun dispose() = timer.stop()
}
