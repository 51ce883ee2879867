package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.PermissionDecided
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
 * a [CardHeader] (status icon, title, status, actions, chevron), then an approval while the core
 * asks about the call, the [body] and the [footer]. A card whose body has something to show can
 * fold it: the chevron at the end of the header, the same on every kind of card.
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

    val statusIcon = StatusIcon(CallState.RUNNING)

    /** Folds and unfolds the body; shown once the body has something to show. */
    val chevron = IconButton({ if (expanded) it.icons.expanded else it.icons.collapsed }, WaveBundle.message("card.fold.button")) { setExpanded(!expanded) }.apply { isVisible = false }

    var expanded = true
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
        bodyChanged()
        revalidate()
        repaint()
    }

    protected abstract fun onFinished(event: ToolFinished)

    /** The chevron shows when the body has something to fold; a card starts [expanded] or not. */
    protected fun bodyChanged(expand: Boolean? = null) {
        chevron.isVisible = body.components.isNotEmpty() || foldsLazily
        expand?.let { expanded = it }
        body.isVisible = expanded
        chevron.repaint()
    }

    /** A card that builds its body only when unfolded (Read, Grep) has a chevron before it has a body. */
    protected open val foldsLazily: Boolean get() = false

    open fun setExpanded(value: Boolean) {
        expanded = value
        body.isVisible = value
        chevron.repaint()
        revalidate()
        repaint()
    }

    /**
     * The whole result could not be had (the core no longer keeps it): [onFinished] built the card
     * from the summary's header fields; this says so and shows the summary's preview of the text.
     */
    protected open fun showSummaryOnly(event: ToolFinished, reason: String) {
        body.addRow(TextBlock(WaveBundle.message("card.resultUnavailable.text"), Tone.SECONDARY, small = true).also { it.toolTipText = reason })
        val preview = event.summary?.preview?.trimEnd('\n').orEmpty()
        if (preview.isNotEmpty() && showsPreview) body.addRow(outputArea(OutputPane(BoundedText.of(preview, SUMMARY_PREVIEW_LINES, 0).text)))
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
        view.model.onChange { approvalChanged(); approvalAnswered(); revalidate(); repaint() }
        approvalChanged()
        revalidate()
        repaint()
    }

    /** The question opened, was answered or withdrawn. */
    protected open fun approvalChanged() {}

    /**
     * Once answered, the question leaves the card — the card says one thing at a time: its status
     * shows whether the call runs, the footer how it was allowed; what the person told the agent
     * or why it is no longer asked stays as a line of the card.
     */
    private fun approvalAnswered() {
        val view = approval ?: return
        if (view.model.isOpen) return
        val note = view.model.closedNote()
        view.isVisible = note != null
        view.model.allowedNote()?.let { if (it !in footer.texts()) footer.addText(it) }
    }

    /** What the permission check said without asking (allowed despite warnings), kept across the footer's rebuilds. */
    private val decisions = mutableListOf<String>()

    /** `permission/decided` for this call that was no question: the card says it in its footer. */
    fun decided(event: PermissionDecided) {
        if (event.outcome != "allow") return // a denial is the call's own result, shown when it ends
        val why = event.warnings.joinToString("; ") { it.message }.ifEmpty { event.reason }
        val note = WaveBundle.message("card.allowedDespiteWarnings", why)
        decisions += note
        footer.addText(note, Tone.WARNING)
    }

    /** How the call was allowed, for a footer rebuilt when the call ends. */
    protected fun addStandingNotes() {
        approval?.model?.allowedNote()?.let { footer.addText(it) }
        decisions.forEach { footer.addText(it, Tone.WARNING) }
    }

    val waitingForApproval: Boolean get() = approval?.model?.isOpen == true

    override fun borderColor(t: Theme): Color = if (waitingForApproval) t.warningBorder else t.cardBorder

    private val subscriptions = mutableListOf<AutoCloseable>()

    /** Closed when the card leaves the feed. */
    protected fun track(subscription: AutoCloseable) {
        subscriptions += subscription
    }

    /** An output area that follows the tool window's soft-wrap setting. */
    protected fun outputArea(pane: OutputPane): OutputArea {
        val area = OutputArea(pane, context.softWrap)
        track(AutoCloseable { area.dispose() })
        return area
    }

    /**
     * "Show All" for an output the card shows only part of: the file the core kept when there is
     * one, otherwise the whole text in a read-only editor tab.
     */
    protected fun showAllLink(title: String, text: String, file: String?): LinkLabel =
        LinkLabel(WaveBundle.message("card.showAll.link")) {
            if (file != null) actions.openFile(file, null) else actions.showText(title, AnsiParser.strip(text))
        }.apply { toolTipText = file ?: WaveBundle.message("card.showAll.tooltip") }

    /** Stops timers, file tails and listeners; the card is leaving the feed. */
    open fun dispose() {
        subscriptions.forEach { it.close() }
        subscriptions.clear()
    }
}

/** The line under a card's content: small secondary facts (duration, what happened, links) that wrap. */
class CardFooter : JPanel(BorderLayout()) {
    val items = wrapRow(hgap = 10)

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
        isVisible = false
    }

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
