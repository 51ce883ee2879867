package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.PermissionDecided
import dev.wavetools.wave.bridge.ToolProgress
import dev.wavetools.wave.bridge.SessionCwdChanged
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.Dimension
import java.awt.Rectangle
import java.time.Clock
import javax.swing.BorderFactory
import javax.swing.Box
import javax.swing.BoxLayout
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.Scrollable
import javax.swing.SwingConstants

/**
 * The session feed: one card per tool call, in the order the core started them. Fed on the UI
 * thread from `tool/started`, `tool/finished` and `session/cwdChanged`.
 */
class SessionFeed(
    private val actions: CallActions,
    private val clock: Clock = Clock.systemUTC(),
    var workspaceRoot: String? = null,
) : JPanel(), Scrollable {
    private val cards = LinkedHashMap<String, ToolCallCard>()
    private val approvals = LinkedHashMap<String, ApprovalCard>()
    private val emptyHint = JLabel("Commands you run below, and every tool call the core executes, appear here.", SwingConstants.CENTER).apply {
        foreground = WaveTheme.secondary
        alignmentX = LEFT_ALIGNMENT
    }

    init {
        layout = BoxLayout(this, BoxLayout.Y_AXIS)
        background = WaveTheme.background
        border = BorderFactory.createEmptyBorder(8, 8, 8, 8)
        add(emptyHint)
    }

    fun card(callId: String): ToolCallCard? = cards[callId]

    fun cards(): List<ToolCallCard> = cards.values.toList()

    fun toolStarted(event: ToolStarted) {
        if (cards.containsKey(event.callId)) return
        val card = Cards.create(event, actions, clock, workspaceRoot)
        append(card)
        cards[event.callId] = card
    }

    /** `tool/progress`: only calls that stream progress (run_shell_command) show it. */
    fun toolProgress(event: ToolProgress) {
        (cards[event.callId] as? ShellCommandCard)?.progress(event)
    }

    fun approval(key: String): ApprovalCard? = approvals[key]

    fun approvals(): List<ApprovalCard> = approvals.values.toList()

    /** A permission question: its own card, after the call's card, taking the focus. */
    fun permissionAsked(model: ApprovalModel): ApprovalCard {
        approvals[model.key]?.let { return it }
        val card = ApprovalCard(model)
        approvals[model.key] = card
        // The core cannot background a call that waits for permission: keep Ctrl+B off until it is answered.
        (cards[model.prompt.callId] as? BashCard)?.let { bash ->
            bash.waitingForPermission = true
            model.onChange { if (!it.isOpen) { bash.waitingForPermission = false } }
        }
        append(card)
        card.takeFocus()
        return card
    }

    /** The core stopped waiting for the question [key] (`$/cancelRequest`): the card says so and its buttons go. */
    fun permissionWithdrawn(key: String, reason: String = ApprovalModel.NOT_WAITING_ANY_MORE) {
        approvals[key]?.model?.withdraw(reason)
    }

    /**
     * `permission/decided`: on the question's card when there was one (by call id, else the newest
     * answered card for the same command), otherwise a line of its own — a denial by a rule or an
     * allowance despite warnings is something the person should see too.
     */
    fun permissionDecided(event: PermissionDecided) {
        val subject = event.command ?: event.path
        val card = if (event.asked) {
            approvals.values.reversed().firstOrNull { c ->
                c.model.decided == null && c.model.state is ApprovalModel.State.Answered &&
                    (if (event.callId != null) c.model.prompt.callId == event.callId else c.model.subject == subject)
            }
        } else null
        if (card != null) {
            card.model.decided(event)
            return
        }
        val verdict = if (event.outcome == "allow") "Allowed" else "Denied"
        val why = event.warnings.takeIf { it.isNotEmpty() }?.joinToString("; ") { it.message } ?: event.reason.removePrefix("Permission denied: ")
        notice(
            "$verdict: ${event.tool} ${Format.firstLine(subject ?: "", 120)} — ${Format.firstLine(why, 200)}",
            if (event.outcome == "allow") WaveTheme.warning else WaveTheme.error,
        )
    }

    fun toolFinished(event: ToolFinished) {
        // A call that ends while its question is open (stopped, or its session ended) takes the question with it.
        approvals.values.filter { it.model.prompt.callId == event.callId }.forEach { it.model.withdraw(ApprovalModel.CALL_ENDED) }
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
        val text = (if (event.reset) BashResult.CWD_RESET_PREFIX else BashResult.CWD_CHANGED_PREFIX) + event.cwd
        append(secondaryLabel(text).apply { border = BorderFactory.createEmptyBorder(0, 4, 0, 0) })
    }

    /** A line between the cards: a request the core refused, a restart, ... */
    fun notice(text: String, color: java.awt.Color = WaveTheme.secondary) {
        append(secondaryLabel(text).apply { foreground = color; border = BorderFactory.createEmptyBorder(0, 4, 0, 0) })
    }

    /** The newest call that is still running and that this host can control; what Ctrl+B and Stop act on. */
    fun latestControllable(bashOnly: Boolean): ToolCallCard? =
        cards.values.reversed().firstOrNull { it.isRunning && actions.canControl(it.callId) && (!bashOnly || it is BashCard) }

    /** Refreshes every running card's controls (the core restarted, or a call became ours). */
    fun refreshControls() = cards.values.forEach {
        when (it) {
            is BashCard -> it.refreshButtons()
            is ShellCommandCard -> it.refreshButtons()
            else -> {}
        }
    }

    fun clear() {
        cards.values.forEach { it.dispose() }
        cards.clear()
        approvals.values.forEach { it.model.withdraw("the feed was cleared.") }
        approvals.clear()
        removeAll()
        add(emptyHint)
        revalidate()
        repaint()
    }

    private fun append(c: JComponent) {
        if (emptyHint.parent != null) remove(emptyHint)
        if (componentCount > 0) add(Box.createVerticalStrut(6))
        c.alignmentX = LEFT_ALIGNMENT
        add(c)
        revalidate()
        scrollToBottom()
    }

    private fun scrollToBottom() {
        revalidate()
        javax.swing.SwingUtilities.invokeLater { scrollRectToVisible(Rectangle(0, height - 1, 1, 1)) }
    }

    override fun getPreferredScrollableViewportSize(): Dimension = preferredSize
    override fun getScrollableUnitIncrement(r: Rectangle, o: Int, d: Int) = 16
    override fun getScrollableBlockIncrement(r: Rectangle, o: Int, d: Int) = r.height - 16
    override fun getScrollableTracksViewportWidth() = true
    override fun getScrollableTracksViewportHeight() = false
}
