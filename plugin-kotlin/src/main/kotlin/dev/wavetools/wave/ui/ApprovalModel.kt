package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.PermissionAnswer
import dev.wavetools.wave.bridge.PermissionDecided
import dev.wavetools.wave.bridge.PermissionPrompt

/**
 * One permission question's life in the tool window, without Swing: asking → (editing the rules
 * to remember | writing a message for the model) → answered, or withdrawn when the core stopped
 * waiting first. [send] delivers the answer and says whether the core was still waiting for it.
 */
class ApprovalModel(
    /** The question's key, unique in this window. */
    val key: String,
    val prompt: PermissionPrompt,
    private val send: (PermissionAnswer) -> Boolean,
) {
    sealed class State {
        object Asking : State() {
            override fun toString() = "Asking"
        }

        /** "Always allow…": the rules to remember, one per line, editable before they are sent. */
        data class EditingRules(val text: String, val error: String? = null) : State()

        /** "Deny": an optional message for the model. */
        data class EnteringDenyMessage(val text: String = "") : State()

        data class Answered(val answer: PermissionAnswer) : State()

        /** The core stopped waiting (its time limit, the call ended or was stopped, the core went away). */
        data class Withdrawn(val reason: String) : State()
    }

    var state: State = State.Asking
        private set

    /** The core's `permission/decided` for this question, once it arrived. */
    var decided: PermissionDecided? = null
        private set

    private val listeners = mutableListOf<(ApprovalModel) -> Unit>()

    fun onChange(listener: (ApprovalModel) -> Unit) {
        listeners += listener
    }

    /** The buttons work only while the core waits and no answer went out. */
    val isOpen: Boolean get() = state !is State.Answered && state !is State.Withdrawn

    val subject: String get() = prompt.command ?: prompt.path ?: ""

    /** What "Always allow…" starts with: the core's suggestion, one rule per line. */
    val suggestedRulesText: String get() = prompt.suggestedRules.joinToString("\n")

    fun allowOnce() = answer(PermissionAnswer.allowOnce())

    fun startAlwaysAllow() {
        if (state == State.Asking) set(State.EditingRules(suggestedRulesText))
    }

    /** Sends "always allow" with the rules in [text] (one per line; blank lines ignored). */
    fun confirmRules(text: String) {
        if (state !is State.EditingRules) return
        val rules = parseRules(text)
        if (rules.isEmpty()) {
            set(State.EditingRules(text, WaveBundle.message("approval.rules.empty.error")))
            return
        }
        answer(PermissionAnswer.alwaysAllow(rules))
    }

    fun startDeny() {
        if (state == State.Asking) set(State.EnteringDenyMessage())
    }

    fun confirmDeny(message: String) {
        if (state is State.EnteringDenyMessage) answer(PermissionAnswer.deny(message))
    }

    /** Escape from the rules editor or the deny message: back to the three buttons. */
    fun back() {
        if (state is State.EditingRules || state is State.EnteringDenyMessage) set(State.Asking)
    }

    fun withdraw(reason: String = WaveBundle.message("approval.withdrawn.coreStopped")) {
        if (isOpen) set(State.Withdrawn(reason))
    }

    fun decided(event: PermissionDecided) {
        decided = event
        listeners.forEach { it(this) }
    }

    private fun answer(answer: PermissionAnswer) {
        if (!isOpen) return
        set(if (send(answer)) State.Answered(answer) else State.Withdrawn(WaveBundle.message("approval.withdrawn.coreStopped")))
    }

    private fun set(next: State) {
        state = next
        listeners.forEach { it(this) }
    }

    /**
     * What stays in the card once the question is closed, where the card's own status does not say
     * it already: what the person told the agent with a denial, or why the question went. Null:
     * nothing (an allowance, a denial without a message).
     */
    fun closedNote(): String? = when (val s = state) {
        is State.Answered -> s.answer.message?.takeIf { s.answer.decision == PermissionAnswer.DENY && it.isNotBlank() }?.let { WaveBundle.message("approval.outcome.toldAgent", it) }
        is State.Withdrawn -> s.reason
        else -> null
    }

    /** How the call was allowed, for the card's footer ("Allowed once"); null unless it was. */
    fun allowedNote(): String? = (state as? State.Answered)?.answer?.let { a ->
        when (a.decision) {
            PermissionAnswer.ALLOW_ONCE -> WaveBundle.message("approval.note.allowedOnce")
            PermissionAnswer.ALWAYS_ALLOW -> WaveBundle.message("approval.note.alwaysAllowed", a.rules.orEmpty().joinToString(", "))
            else -> null
        }
    }

    companion object {
        fun parseRules(text: String): List<String> = text.lines().map { it.trim() }.filter { it.isNotEmpty() }
    }
}
