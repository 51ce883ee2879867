package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.BorderLayout
import java.awt.Color
import java.time.Clock
import java.time.Instant
import javax.swing.BorderFactory
import javax.swing.JComponent
import javax.swing.JPanel

/** What every card needs from the feed: the controls' target, the clock, the workspace root, the soft-wrap setting. */
class CardContext(
    val actions: CallActions,
    val clock: Clock = Clock.systemUTC(),
    var root: String? = null,
    val softWrap: SoftWrapSetting = SoftWrapSetting(),
)

/**
 * One tool call in the session feed, built from `tool/started` and completed by `tool/finished`:
 * a [header], then an approval while the core asks about the call, the [body] and the [footer].
 */
abstract class ToolCallCard(val started: ToolStarted, protected val context: CardContext) : CardPanel() {
    val callId: String get() = started.callId
    var finished: ToolFinished? = null
        private set

    val isRunning: Boolean get() = finished == null

    protected val actions: CallActions get() = context.actions
    protected val clock: Clock get() = context.clock

    protected val startedAt: Instant = try {
        Instant.parse(started.startedAt)
    } catch (e: Exception) {
        context.clock.instant()
    }

    /** The approval for this call, once the core asked. */
    var approval: ApprovalView? = null
        private set

    private val approvalSlot = verticalStack(gapAbove = 6)
    val body = verticalStack(gapAbove = 6)
    val footer = CardFooter()

    init {
        val content = verticalStack()
        content.addRow(approvalSlot)
        content.addRow(body)
        content.addRow(footer)
        add(content, BorderLayout.CENTER)
    }

    protected fun arg(name: String): String? = started.arguments?.get(name)?.takeIf { it.isJsonPrimitive }?.asString

    protected fun setHeader(header: JComponent) = add(header, BorderLayout.NORTH)

    fun finish(event: ToolFinished) {
        finished = event
        onFinished(event)
        event.resultUnavailable?.let { showSummaryOnly(event, it) }
        revalidate()
        repaint()
    }

    protected abstract fun onFinished(event: ToolFinished)

    /**
     * The whole result could not be had (the core no longer keeps it): [onFinished] built the card
     * from the summary's header fields; this says so and shows the summary's preview of the text.
     */
    protected open fun showSummaryOnly(event: ToolFinished, reason: String) {
        body.addRow(TextBlock(WaveBundle.message("card.resultUnavailable.text"), Tone.SECONDARY, small = true).also { it.toolTipText = reason })
        val preview = event.summary?.preview?.trimEnd('\n').orEmpty()
        if (preview.isNotEmpty() && showsPreview) body.addRow(outputArea(OutputPane(preview), SUMMARY_PREVIEW_LINES, showEnd = false))
    }

    /** Whether [showSummaryOnly] adds the preview; a card whose own text is the preview already says no. */
    protected open val showsPreview: Boolean get() = true

    /** Called every second while running (and once by tests). */
    open fun tick() {}

    /**
     * Shows the core's question about this call inside the card, so the command is shown once and
     * the answer sits with it; the card's status and border follow the question.
     */
    fun attachApproval(view: ApprovalView) {
        approval = view
        approvalSlot.removeAll()
        approvalSlot.addRow(view)
        view.model.onChange { approvalChanged(); revalidate(); repaint() }
        approvalChanged()
        revalidate()
        repaint()
    }

    /** The question opened, was answered or withdrawn. */
    protected open fun approvalChanged() {}

    val waitingForApproval: Boolean get() = approval?.model?.isOpen == true

    override fun borderColor(t: Theme): Color = if (waitingForApproval) t.warningBorder else t.cardBorder

    private val subscriptions = mutableListOf<AutoCloseable>()

    /** Closed when the card leaves the feed. */
    protected fun track(subscription: AutoCloseable) {
        subscriptions += subscription
    }

    /** An output area that follows the tool window's soft-wrap setting, with the toggle in the footer. */
    protected fun outputArea(pane: OutputPane, maxLines: Int, showEnd: Boolean): OutputArea {
        val area = OutputArea(pane, maxLines, showEnd, context.softWrap)
        track(AutoCloseable { area.dispose() })
        return area
    }

    protected fun addSoftWrapToggle() = track(footer.addSoftWrapToggle(context.softWrap))

    /** Stops timers and listeners; the card is leaving the feed. */
    open fun dispose() {
        subscriptions.forEach { it.close() }
        subscriptions.clear()
    }
}

/**
 * The line under a card's content: small secondary facts (duration, what happened) that wrap, and
 * at its end the output's soft-wrap toggle when the card shows output.
 */
class CardFooter : JPanel(BorderLayout()) {
    val items = wrapRow(hgap = 10)
    private var toggle: IconButton? = null

    init {
        isOpaque = false
        styled { t -> border = BorderFactory.createEmptyBorder(t.px(4), 0, 0, 0) }
        add(items, BorderLayout.CENTER)
        isVisible = false
    }

    fun add(item: JComponent) {
        items.add(item)
        isVisible = true
    }

    /** A fact that may be long (a directory, a list of processes): it wraps rather than being cut. */
    fun addText(text: String, tone: Tone = Tone.SECONDARY, tooltip: String? = null): TextBlock =
        TextBlock(text, tone, small = true).also { it.toolTipText = tooltip; add(it) }

    fun clear() {
        items.removeAll()
        toggle?.let { remove(it) }
        toggle = null
        isVisible = false
    }

    /** The soft-wrap toggle for the card's output; the subscription ends with the card. */
    fun addSoftWrapToggle(setting: SoftWrapSetting): AutoCloseable {
        val button = IconButton({ it.icons.softWrap }, WaveBundle.message("output.softWrap.button"), WaveBundle.message("output.softWrap.tooltip")) { setting.enabled = !setting.enabled }
        button.selected = setting.enabled
        toggle?.let { remove(it) }
        toggle = button
        add(button, BorderLayout.EAST)
        isVisible = true
        return setting.onChange { button.selected = it }
    }

    val softWrapToggle: IconButton? get() = toggle

    /** The texts shown, in order (what the tests read). */
    fun texts(): List<String> = texts(items)

    private fun texts(c: java.awt.Component): List<String> = when (c) {
        is javax.swing.JLabel -> listOfNotNull(c.text)
        is TextBlock -> listOf(c.plainText)
        is java.awt.Container -> c.components.flatMap { texts(it) }
        else -> emptyList()
    }
}

/** How many lines of a summary's preview a card shows when it has nothing else. */
const val SUMMARY_PREVIEW_LINES = 12

object Cards {
    fun create(started: ToolStarted, context: CardContext): ToolCallCard = when (started.name) {
        "Bash" -> BashCard(started, context)
        "run_shell_command" -> ShellCommandCard(started, context)
        "Edit", "MultiEdit", "Write" -> EditCard(started, context)
        else -> CompactCard(started, context)
    }
}
