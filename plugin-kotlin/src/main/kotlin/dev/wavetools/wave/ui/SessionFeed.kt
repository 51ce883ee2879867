package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.PermissionDecided
import dev.wavetools.wave.bridge.SessionCwdChanged
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolOutput
import dev.wavetools.wave.bridge.ToolProgress
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.Dimension
import java.awt.Rectangle
import javax.swing.BorderFactory
import javax.swing.Box
import javax.swing.BoxLayout
import javax.swing.JComponent
import javax.swing.JPanel
import javax.swing.Scrollable
import javax.swing.SwingUtilities

/**
 * The session feed: one card per tool call, in the order the core started them, with the core's
 * permission questions inside the cards they are about. Fed on the UI thread from `tool/started`,
 * `tool/output`, `tool/progress`, `tool/finished`, `session/cwdChanged` and the permission bridge.
 *
 * It keeps at most [maxCards] cards, as the Run window caps its console: past that the oldest
 * finished ones go (a line at the top says how many); a running call or an open question stays.
 */
class SessionFeed(
    actions: CallActions,
    clock: java.time.Clock = java.time.Clock.systemUTC(),
    softWrap: SoftWrapSetting = SoftWrapSetting(),
    /** How many cards the feed keeps; read at each new card, so a changed setting applies at once. */
    private val maxCards: () -> Int = { DEFAULT_MAX_CARDS },
) : JPanel(), Scrollable, Themed {
    val context = CardContext(actions, clock, null, softWrap)
    private val cards = LinkedHashMap<String, ToolCallCard>()
    private val approvals = LinkedHashMap<String, ApprovalView>()
    /** Questions shown in a card of their own, because their call had no card (yet). */
    private val standalone = LinkedHashMap<String, ApprovalCard>()
    private val emptyListeners = mutableListOf<(Boolean) -> Unit>()
    private val approvalListeners = mutableListOf<(ApprovalModel) -> Unit>()
    private val pendingListeners = mutableListOf<(Int) -> Unit>()

    /** How many cards went to keep the feed within [maxCards]. */
    var removedCards = 0
        private set
    /** The line at the top saying how many cards went; there once one has. */
    private var removedNotice: TextBlock? = null

    var workspaceRoot: String?
        get() = context.root
        set(value) { context.root = value }

    init {
        layout = BoxLayout(this, BoxLayout.Y_AXIS)
        themeChanged(WaveTheme.current)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
        border = BorderFactory.createEmptyBorder(theme.px(8), theme.px(8), theme.px(8), theme.px(8))
    }

    /** Nothing has happened yet: the panel shows its empty state instead. */
    val isEmpty: Boolean get() = componentCount == 0

    fun onEmptyChanged(listener: (Boolean) -> Unit) {
        emptyListeners += listener
    }

    fun card(callId: String): ToolCallCard? = cards[callId]

    fun cards(): List<ToolCallCard> = cards.values.toList()

    /** Questions open in this feed now (a session tab's badge). */
    val pendingApprovals: Int get() = approvals.values.count { it.model.isOpen }

    /** Told of each new question, after its card shows it. */
    fun onApprovalAsked(listener: (ApprovalModel) -> Unit) {
        approvalListeners += listener
    }

    /** Told the number of open questions whenever it changes. */
    fun onPendingChanged(listener: (Int) -> Unit) {
        pendingListeners += listener
    }

    private var lastPending = 0

    private fun pendingMayHaveChanged() {
        val now = pendingApprovals
        if (now == lastPending) return
        lastPending = now
        pendingListeners.toList().forEach { it(now) }
    }

    fun toolStarted(event: ToolStarted) {
        if (cards.containsKey(event.callId)) return
        val card = Cards.create(event, context)
        append(card)
        cards[event.callId] = card
        trim()
        // A question asked before its call's card existed moves into the card.
        standalone.entries.firstOrNull { it.value.view.model.prompt.callId == event.callId }?.let { (key, holder) ->
            standalone.remove(key)
            holder.remove(holder.view)
            removeWithGap(holder)
            card.attachApproval(holder.view)
        }
    }

    /** `tool/progress`: only calls that stream progress (run_shell_command) show it. */
    fun toolProgress(event: ToolProgress) {
        (cards[event.callId] as? ShellCommandCard)?.progress(event)
    }

    /** `tool/output`: the running command's card follows its output files. */
    fun toolOutput(event: ToolOutput) {
        (cards[event.callId] as? CommandCard)?.followOutput(event)
    }

    fun approval(key: String): ApprovalView? = approvals[key]

    fun approvals(): List<ApprovalView> = approvals.values.toList()

    /** A permission question: inside its call's card (a card of its own when the call has none), taking the focus. */
    fun permissionAsked(model: ApprovalModel): ApprovalView {
        approvals[model.key]?.let { return it }
        val callId = model.prompt.callId
        val card = callId?.let { cards[it] }
        val view = ApprovalView(model, ownCall = callId != null && context.actions.isOwnCall(callId), root = workspaceRoot)
        approvals[model.key] = view
        if (card != null) {
            card.attachApproval(view)
            scrollTo(card)
        } else {
            val holder = ApprovalCard(view)
            standalone[model.key] = holder
            append(holder)
        }
        view.takeFocus()
        model.onChange { pendingMayHaveChanged() }
        approvalListeners.toList().forEach { it(model) }
        pendingMayHaveChanged()
        return view
    }

    /** The core stopped waiting for the question [key] (`$/cancelRequest`): it says so and its buttons go. */
    fun permissionWithdrawn(key: String, reason: String = WaveBundle.message("approval.withdrawn.coreStopped")) {
        approvals[key]?.model?.withdraw(reason)
    }

    /**
     * `permission/decided`: on the question when there was one (by call id, else the newest
     * answered one for the same command), otherwise a line of its own — a denial by a rule or an
     * allowance despite warnings is something the person should see too.
     */
    fun permissionDecided(event: PermissionDecided) {
        val subject = event.command ?: event.path
        val view = if (event.asked) {
            approvals.values.reversed().firstOrNull { v ->
                v.model.decided == null && v.model.state is ApprovalModel.State.Answered &&
                    (if (event.callId != null) v.model.prompt.callId == event.callId else v.model.subject == subject)
            }
        } else null
        if (view != null) {
            view.model.decided(event)
            return
        }
        // The call's own card tells a denial by its result; an allowance despite warnings in its footer.
        event.callId?.let { cards[it] }?.let { card ->
            card.decided(event)
            return
        }
        append(DecisionCard(event))
        trim()
    }

    fun toolFinished(event: ToolFinished) {
        // A call that ends while its question is open (stopped, or its session ended) takes the question with it.
        approvals.values.filter { it.model.prompt.callId == event.callId }.forEach { it.model.withdraw(WaveBundle.message("approval.withdrawn.callEnded")) }
        val card = cards[event.callId] ?: run {
            // Started before this window listened: show it from what the finish carries.
            toolStarted(ToolStarted(event.callId, event.sessionId, event.name, null, ""))
            cards.getValue(event.callId)
        }
        card.finish(event)
        scrollToBottom()
    }

    /**
     * A change made by a running Bash command is announced by its result, on its card (the core
     * writes the notice there); any other change — the core moving a session elsewhere — gets a
     * line of its own, in the core's words.
     */
    fun cwdChanged(event: SessionCwdChanged) {
        val byCommand = cards.values.any { it is BashCard && it.isRunning && it.started.sessionId == event.sessionId }
        if (byCommand) return
        notice((if (event.reset) BashResult.CWD_RESET_PREFIX else BashResult.CWD_CHANGED_PREFIX) + event.cwd, Tone.SECONDARY, markdown = false)
    }

    /** A line between the cards: a request the core refused, a restart, ... (`code` in [text] shows as code). */
    fun notice(text: String, tone: Tone = Tone.SECONDARY, markdown: Boolean = true) {
        append(TextBlock(text, tone, small = true, markdown = markdown).apply {
            styled { t -> border = BorderFactory.createEmptyBorder(0, t.px(4), 0, t.px(4)) }
        })
    }

    /** The newest call that is still running and that this host can control; what Ctrl+B and Stop act on. */
    fun latestControllable(bashOnly: Boolean): ToolCallCard? =
        cards.values.reversed().firstOrNull { it.isRunning && context.actions.canControl(it.callId) && (!bashOnly || it is BashCard) }

    /** Refreshes every running card's controls (the core restarted, or a call became ours). */
    fun refreshControls() = cards.values.forEach { (it as? CommandCard)?.refreshButtons() }

    /** Whether [c] may leave the feed: it is not a running call and asks nothing. */
    private fun isSettled(c: java.awt.Component): Boolean = when (c) {
        is ToolCallCard -> !c.isRunning && !c.waitingForApproval
        is ApprovalCard -> !c.view.model.isOpen
        else -> true
    }

    /** The feed's cards and lines, without the gaps between them and the removal notice. */
    private fun entries(): List<JComponent> = components.filterIsInstance<JComponent>().filter { it !is Box.Filler && it !== removedNotice }

    private fun forget(c: JComponent) {
        when (c) {
            is ToolCallCard -> {
                c.dispose()
                cards.remove(c.callId)
                c.approval?.let { approvals.remove(it.model.key) }
            }
            is ApprovalCard -> {
                standalone.remove(c.view.model.key)
                approvals.remove(c.view.model.key)
            }
        }
        removeWithGap(c)
    }

    /** Keeps the feed within [maxCards]: the oldest settled cards go first. */
    private fun trim() {
        val limit = maxCards().coerceAtLeast(1)
        var excess = entries().count { it is CardPanel } - limit
        if (excess <= 0) return
        for (c in entries()) {
            if (excess <= 0) break
            // Lines between cards (a restart, a cwd change) go with the cards around them.
            if (c !is CardPanel) { forget(c); continue }
            if (!isSettled(c)) continue
            forget(c)
            removedCards++
            excess--
        }
        showRemovedNotice(limit)
    }

    private fun showRemovedNotice(limit: Int) {
        if (removedCards == 0) return
        val text = WaveBundle.message("feed.removed", removedCards, limit)
        val notice = removedNotice ?: TextBlock("", Tone.SECONDARY, small = true).apply {
            styled { t -> border = BorderFactory.createEmptyBorder(0, t.px(4), t.px(6), t.px(4)) }
            alignmentX = LEFT_ALIGNMENT
        }.also { removedNotice = it; add(it, 0) }
        notice.source = text
        revalidate()
        repaint()
    }

    /**
     * Clear All: the finished cards and lines go; a call that still runs or asks stays, with its
     * controls, so nothing that needs the person is cleared away.
     */
    fun clear() {
        for (c in entries()) if (isSettled(c)) forget(c)
        removedNotice?.let { remove(it) }
        removedNotice = null
        removedCards = 0
        if (isEmpty) emptyListeners.forEach { it(true) }
        pendingMayHaveChanged()
        revalidate()
        repaint()
    }

    /** Scroll to End: the newest card in view. */
    fun scrollToEnd() = scrollToBottom()

    private fun append(c: JComponent) {
        val wasEmpty = isEmpty
        if (!wasEmpty) add(Box.createVerticalStrut(WaveTheme.current.px(6)))
        c.alignmentX = LEFT_ALIGNMENT
        add(c)
        if (wasEmpty) emptyListeners.forEach { it(false) }
        revalidate()
        scrollToBottom()
    }

    private fun removeWithGap(c: JComponent) {
        val i = components.indexOf(c)
        if (i < 0) return
        remove(i)
        // The gap before it (or after it, when it was first).
        if (i > 0 && components[i - 1] is Box.Filler) remove(i - 1) else if (i < componentCount && components[i] is Box.Filler) remove(i)
        // No gap left at the top.
        val first = components.firstOrNull { it !== removedNotice }
        if (first is Box.Filler) remove(first)
        revalidate()
    }

    private fun scrollTo(c: JComponent) {
        revalidate()
        SwingUtilities.invokeLater { scrollRectToVisible(c.bounds) }
    }

    private fun scrollToBottom() {
        revalidate()
        SwingUtilities.invokeLater { scrollRectToVisible(Rectangle(0, height - 1, 1, 1)) }
    }

    override fun getPreferredScrollableViewportSize(): Dimension = preferredSize
    override fun getScrollableUnitIncrement(r: Rectangle, o: Int, d: Int) = WaveTheme.current.px(16)
    override fun getScrollableBlockIncrement(r: Rectangle, o: Int, d: Int) = r.height - WaveTheme.current.px(16)
    override fun getScrollableTracksViewportWidth() = true
    override fun getScrollableTracksViewportHeight() = false

    companion object {
        /** As many cards as a long agent session needs to look back on; the Run window caps its buffer too. */
        const val DEFAULT_MAX_CARDS = 200
    }
}
