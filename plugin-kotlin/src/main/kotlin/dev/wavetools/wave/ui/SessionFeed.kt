package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.PermissionDecided
import dev.wavetools.wave.bridge.SessionCwdChanged
import dev.wavetools.wave.bridge.ToolFinished
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
 * `tool/progress`, `tool/finished`, `session/cwdChanged` and the permission bridge.
 */
class SessionFeed(actions: CallActions, clock: java.time.Clock = java.time.Clock.systemUTC(), softWrap: SoftWrapSetting = SoftWrapSetting()) :
    JPanel(), Scrollable, Themed {
    val context = CardContext(actions, clock, null, softWrap)
    private val cards = LinkedHashMap<String, ToolCallCard>()
    private val approvals = LinkedHashMap<String, ApprovalView>()
    /** Questions shown in a card of their own, because their call had no card (yet). */
    private val standalone = LinkedHashMap<String, ApprovalCard>()
    private val emptyListeners = mutableListOf<(Boolean) -> Unit>()

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

    fun toolStarted(event: ToolStarted) {
        if (cards.containsKey(event.callId)) return
        val card = Cards.create(event, context)
        append(card)
        cards[event.callId] = card
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
        val why = event.warnings.takeIf { it.isNotEmpty() }?.joinToString("; ") { it.message } ?: event.reason.removePrefix("Permission denied: ")
        val key = if (event.outcome == "allow") "feed.allowedDespiteWarnings" else "feed.denied"
        notice(WaveBundle.message(key, "`${Format.firstLine(subject ?: "", 120)}`", Format.firstLine(why, 200)), if (event.outcome == "allow") Tone.WARNING else Tone.ERROR)
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

    fun clear() {
        cards.values.forEach { it.dispose() }
        cards.clear()
        approvals.values.forEach { it.model.withdraw(WaveBundle.message("approval.withdrawn.cleared")) }
        approvals.clear()
        standalone.clear()
        removeAll()
        emptyListeners.forEach { it(true) }
        revalidate()
        repaint()
    }

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
}
