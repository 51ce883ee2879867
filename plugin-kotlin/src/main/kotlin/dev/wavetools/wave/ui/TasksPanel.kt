package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.TaskInfo
import java.awt.BorderLayout
import java.awt.Dimension
import java.awt.GridBagConstraints
import java.awt.GridBagLayout
import java.awt.Insets
import java.nio.file.Paths
import java.time.Clock
import java.time.Duration
import java.time.Instant
import javax.swing.BorderFactory
import javax.swing.JPanel
import javax.swing.Timer

/**
 * Background tasks as a table with aligned columns — the state's icon, the command, its state, how
 * long it ran (`18 min`) and its actions (Show Log, Stop while it runs) — and below it the live
 * tail of the log being shown, read off the UI thread ([LiveTail]). The command, which tells the
 * rows apart, keeps its room: narrow, the state's words go (the icon and the tooltip keep them).
 * Its preferred height is its content, so the splitter above it leaves no empty band.
 */
class TasksPanel(
    private val actions: CallActions,
    private val clock: Clock = Clock.systemUTC(),
    private val softWrap: SoftWrapSetting = SoftWrapSetting(),
    /** Reads the log file: never the UI thread (a log on a slow disk must not freeze the IDE). */
    private val tailPoller: java.util.concurrent.ScheduledExecutorService = LiveTail.POLLER,
) : JPanel(BorderLayout()), Themed {
    private val tasks = LinkedHashMap<String, TaskInfo>()
    private val table = JPanel(GridBagLayout()).apply { isOpaque = false }
    /** The log being shown: its header, and its output filling the panel's remaining height. */
    private val tailPane = JPanel(BorderLayout()).apply { isOpaque = false }
    val title = ToneLabel(WaveBundle.message("tasks.title"))
    private val rows = LinkedHashMap<String, Row>()
    private val timer = Timer(1000) { tick() }

    var selectedTaskId: String? = null
        private set
    /** The log being followed, while one is shown. */
    var tail: LiveTail? = null
        private set
    var tailOutput: OutputPane? = null
        private set
    private var tailArea: ScrollingOutput? = null

    /** Rows or the log tail came or went: the panel's height changed (the splitter follows it). */
    var onChange: () -> Unit = {}

    /** One task: its cells in the table's columns. */
    inner class Row(var task: TaskInfo) {
        val dot = StatusIcon(CallState.RUNNING)
        val command = MonoLabel(Format.oneLine(task.command))
        val state = ToneLabel("", Tone.SECONDARY, small = true)
        val runtime = ToneLabel("", Tone.SECONDARY, small = true)
        val showLog = LinkLabel(WaveBundle.message("tasks.showLog.link")) { select(task.taskId) }
        val stop = IconButton({ it.icons.stop }, WaveBundle.message("tasks.stop.button"), WaveBundle.message("tasks.stop.tooltip")) {
            stopRequested = true
            update(this.task)
            actions.stopTask(task.taskId)
        }
        var stopRequested = false
            private set

        init {
            command.toolTipText = listOfNotNull(task.command, task.description, origin(task)).joinToString("\n")
            update(task)
        }

        fun update(t: TaskInfo) {
            task = t
            val (text, tone) = describe(t)
            state.text = text
            state.tone = tone
            dot.state = when {
                t.isRunning -> CallState.RUNNING
                t.status == "completed" -> CallState.PASSED
                tone == Tone.ERROR -> CallState.FAILED
                else -> CallState.STOPPED
            }
            dot.toolTipText = text
            runtime.text = Format.shortDuration(if (t.isRunning) runningFor(t) else Duration.ofMillis(t.runtimeMs))
            // Only the command gives way when the row is narrow.
            state.minimumSize = state.preferredSize
            runtime.minimumSize = runtime.preferredSize
            stop.isVisible = t.isRunning
            stop.isEnabled = t.isRunning && !stopRequested
        }
    }

    init {
        isOpaque = true
        title.styled { t -> font = t.font; border = BorderFactory.createEmptyBorder(t.px(6), t.px(10), t.px(4), t.px(10)) }
        val top = verticalStack()
        top.addRow(title)
        top.addRow(table)
        add(top, BorderLayout.NORTH)
        add(tailPane, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
        isVisible = false
    }

    override fun doLayout() {
        // Narrow, the state's words step back for the command (the icon and its tooltip keep the state).
        val wide = width <= 0 || width >= WaveTheme.current.px(STATE_TEXT_MIN_WIDTH)
        rows.values.forEach { it.state.isVisible = wide }
        super.doLayout()
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        table.border = BorderFactory.createEmptyBorder(0, theme.px(10), theme.px(6), theme.px(6))
        tailPane.border = BorderFactory.createEmptyBorder(0, theme.px(10), theme.px(8), theme.px(10))
    }

    /** The state column: Running, Exit 0, Exit 1, Stopped, Killed by SIGKILL. */
    fun describe(t: TaskInfo): Pair<String, Tone> = when (t.status) {
        "running" -> WaveBundle.message("tasks.state.running") to Tone.RUNNING
        "completed" -> WaveBundle.message("card.status.exit", t.exitCode ?: 0) to Tone.SUCCESS
        "killed" -> WaveBundle.message("tasks.state.stopped") to Tone.SECONDARY
        else -> (t.exitCode?.let { WaveBundle.message("card.status.exit", it) } ?: t.signal?.let { WaveBundle.message("card.status.killedBy", it) } ?: WaveBundle.message("card.status.failed")) to Tone.ERROR
    }

    /** How a task came to run in the background, when it was not started there. */
    fun origin(t: TaskInfo): String? = when (t.origin) {
        "user" -> WaveBundle.message("tasks.origin.user")
        "timeout" -> WaveBundle.message("tasks.origin.timeout")
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
            addRow(r, rows.size - 1)
        } else {
            row.update(task)
        }
        val running = tasks.values.count { it.isRunning }
        title.text = if (running > 0) WaveBundle.message("tasks.title.running", running) else WaveBundle.message("tasks.title")
        isVisible = true
        if (running > 0) timer.start() else timer.stop()
        revalidate()
        repaint()
        onChange()
    }

    private fun addRow(r: Row, y: Int) {
        val t = WaveTheme.current
        fun c(x: Int, weight: Double = 0.0, fill: Int = GridBagConstraints.NONE, anchor: Int = GridBagConstraints.WEST) = GridBagConstraints().apply {
            gridx = x; gridy = y; weightx = weight; this.fill = fill; this.anchor = anchor
            insets = Insets(t.px(2), 0, t.px(2), t.px(10))
        }
        // Only the command shrinks (ending with "…"); the other columns keep their width, aligned.
        r.command.minimumSize = Dimension(0, r.command.preferredSize.height)
        table.add(r.dot, c(0).apply { insets = Insets(0, 0, 0, t.px(4)) })
        table.add(r.command, c(1, 1.0, GridBagConstraints.HORIZONTAL))
        table.add(r.state, c(2))
        table.add(r.runtime, c(3, anchor = GridBagConstraints.EAST))
        table.add(r.showLog, c(4))
        table.add(r.stop, c(5).apply { insets = Insets(0, 0, 0, 0) })
    }

    /** Shows the task's log under the table, following it while it grows (read off the UI thread). */
    fun select(taskId: String) {
        val t = tasks[taskId] ?: return
        closeTail()
        selectedTaskId = taskId
        rows.values.forEach { it.showLog.isVisible = it.task.taskId != taskId }
        // One line: the command (cut with "…" when narrow), then what to do with its log.
        val header = JPanel(BorderLayout()).apply {
            isOpaque = false
            add(MonoLabel(Format.oneLine(t.command)).apply { toolTipText = WaveBundle.message("tasks.log.title", t.command, t.outputPath) }, BorderLayout.CENTER)
            add(wrapRow(
                LinkLabel(WaveBundle.message("tasks.openLog.link")) { actions.openFile(t.outputPath, null) }.apply { toolTipText = t.outputPath },
                LinkLabel(WaveBundle.message("tasks.closeLog.link")) { closeTail() },
                hgap = 10,
            ).apply { styled { th -> border = BorderFactory.createEmptyBorder(0, th.px(10), 0, 0) } }, BorderLayout.EAST)
            styled { th -> border = BorderFactory.createEmptyBorder(0, 0, th.px(4), 0) }
        }
        tailPane.add(header, BorderLayout.NORTH)
        // The log shows once it has been read (off the UI thread).
        tail = LiveTail(listOf(Paths.get(t.outputPath)), tailPoller) { texts, cut -> if (selectedTaskId == taskId) showTail(texts.first(), cut) }
        revalidate()
        repaint()
        onChange()
    }

    fun closeTail() {
        selectedTaskId = null
        tail?.close()
        tail = null
        tailOutput = null
        tailArea?.dispose()
        tailArea = null
        tailPane.removeAll()
        rows.values.forEach { it.showLog.isVisible = true }
        revalidate()
        repaint()
        onChange()
    }

    /** The log's end, in the same area as it grows (it keeps where the person scrolled to). */
    private fun showTail(text: String, earlierLeftOut: Boolean) {
        val shown = (if (earlierLeftOut) WaveBundle.message("tasks.log.earlierOmitted") + "\n" else "") + text.trimEnd('\n')
        tailOutput?.let { it.update(shown); return }
        val pane = OutputPane(shown, listOf(WaveBundle.message("tasks.log.earlierOmitted")))
        tailOutput = pane
        val area = ScrollingOutput(pane, TAIL_LINES, showEnd = true, softWrap)
        tailArea = area
        tailPane.add(area, BorderLayout.CENTER)
        revalidate()
        repaint()
    }

    fun tick() {
        rows.values.forEach { it.update(it.task) }
        if (tasks.values.none { it.isRunning }) timer.stop()
    }

    fun dispose() {
        timer.stop()
        tail?.close()
        tailArea?.dispose()
    }

    companion object {
        const val TAIL_LINES = 8

        /** Below this width a row shows the state as its icon only. */
        const val STATE_TEXT_MIN_WIDTH = 400
    }
}
