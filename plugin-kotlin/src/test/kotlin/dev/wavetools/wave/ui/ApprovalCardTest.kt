package dev.wavetools.wave.ui

import com.google.gson.JsonParser
import dev.wavetools.wave.bridge.PartVerdict
import dev.wavetools.wave.bridge.PermissionAnswer
import dev.wavetools.wave.bridge.PermissionDecided
import dev.wavetools.wave.bridge.PermissionPrompt
import dev.wavetools.wave.bridge.PermissionWarning
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.awt.Dimension
import java.awt.event.InputEvent
import java.awt.event.KeyEvent
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.text.StyleConstants

/** Approvals headless: inside their call's card, what they say, which controls work when, the keyboard, and the answers sent. */
class ApprovalCardTest {
    private val sent = mutableListOf<PermissionAnswer>()
    private var coreWaits = true

    private val prompt = PermissionPrompt(
        callId = "call-1",
        sessionId = "main",
        tool = "Bash",
        kind = "command",
        command = "git status && rm -rf /opt/elsewhere",
        description = "clean up the old build",
        directory = "/work/project",
        reason = "`rm -rf /opt/elsewhere` is not allowed by a rule.",
        warnings = listOf(PermissionWarning("delete-outside-workspace", "Deletes recursively /opt/elsewhere, outside the workspace.", "rm -rf /opt/elsewhere")),
        parts = listOf(
            PartVerdict("git status", status = "allowed", rule = "git status", reason = "allowed by rule"),
            PartVerdict("rm -rf /opt/elsewhere", status = "needs-approval", reason = "no rule", suggestedRule = "rm -rf /opt/elsewhere"),
        ),
        suggestedRules = listOf("rm -rf /opt/elsewhere"),
        timeoutMs = 600_000,
    )

    private fun model(p: PermissionPrompt = prompt, key: String = "q1") = ApprovalModel(key, p) { answer -> if (coreWaits) sent += answer; coreWaits }

    private fun view(p: PermissionPrompt = prompt, key: String = "q1") = onEdt { ApprovalView(model(p, key), root = "/work/project") }

    private fun started(callId: String, command: String, name: String = "Bash") =
        ToolStarted(callId, "main", name, JsonParser.parseString("""{"command":${com.google.gson.JsonPrimitive(command)},"description":"clean up the old build"}""").asJsonObject, "2026-01-01T00:00:00Z")

    /**
     * A key pressed while [target] has the focus. Headless there is no focus owner, so the event goes
     * straight to the key bindings, the way Swing handles a key typed into the focused component.
     */
    private fun key(target: JComponent, code: Int, modifiers: Int = 0) = onEdt {
        javax.swing.SwingUtilities.processKeyBindings(KeyEvent(target, KeyEvent.KEY_PRESSED, 0L, modifiers, code, KeyEvent.CHAR_UNDEFINED))
    }

    @Test
    fun `the question - warnings first, plain words, the reason's code as code, each part, and the three buttons`() = onEdt {
        val v = view()
        assertEquals("Allow the agent to run this command?", v.titleBlock.plainText)
        val warning = v.warningBlocks.single()
        assertEquals("Deletes recursively /opt/elsewhere, outside the workspace.", warning.plainText)
        layoutTree(v, Dimension(600, 400))
        layoutTree(v, Dimension(600, 400))
        fun y(c: JComponent) = javax.swing.SwingUtilities.convertPoint(c, 0, 0, v).y
        assertTrue(y(warning) < y(v.titleBlock), "the warning is the first thing read")
        // Backticks are Markdown for code: shown in the console font, not as literal backticks.
        assertEquals("rm -rf /opt/elsewhere is not allowed by a rule.", v.reasonBlock.plainText)
        val codeAttrs = v.reasonBlock.styledDocument.getCharacterElement(2).attributes
        assertEquals(WaveTheme.current.monoFont.family, StyleConstants.getFontFamily(codeAttrs))
        assertEquals(WaveTheme.current.codeBackground, StyleConstants.getBackground(codeAttrs))
        assertEquals(
            listOf("✓ git status — allowed by the rule git status", "? rm -rf /opt/elsewhere — needs your approval"),
            v.partBlocks.map { it.plainText },
        )
        val all = v.find<TextBlock>().map { it.plainText } + v.find<JLabel>().mapNotNull { it.text }
        assertTrue(all.none { it.contains("Bash") || it.contains("run_shell_command") || it.contains("core") }, "no tool identifiers, no 'the core': $all")
        assertEquals(listOf("Allow Once", "Always Allow…", "Deny"), listOf(v.allowOnceButton, v.alwaysAllowButton, v.denyButton).filter { it.isShowingIn(v) }.map { it.text })
        assertEquals(true, v.allowOnceButton.getClientProperty(ApprovalView.DEFAULT_BUTTON), "Allow Once is the default button")
    }

    @Test
    fun `one card per call - the question sits inside the call's card, which shows the whole command once`() = onEdt {
        val feed = SessionFeed(FakeActions(mutableSetOf("call-1")))
        feed.toolStarted(started("call-1", prompt.command!!))
        val card = feed.card("call-1") as BashCard
        val v = feed.permissionAsked(model())
        assertEquals(1, feed.components.count { it is CardPanel }, "no second card repeating the command")
        assertTrue(javax.swing.SwingUtilities.isDescendingFrom(v, card))
        assertEquals("Waiting for approval", card.statusLabel.text)
        val shown = card.find<TextBlock>().map { it.plainText } + card.find<JLabel>().filter { it.isShowingIn(card) }.mapNotNull { it.text }
        assertEquals(1, shown.count { it.contains(prompt.command!!) }, "the command once: $shown")
        assertTrue(card.header.title is TextBlock, "while asked, the whole command wraps instead of being cut")
        v.allowOnceButton.doClick()
        assertTrue(card.header.title === card.commandLabel, "answered: one line again")
        assertTrue(card.statusLabel.text.startsWith("Running"), card.statusLabel.text)
    }

    @Test
    fun `a question asked before its call's card exists gets a card of its own, and moves into the call's card when it arrives`() = onEdt {
        val feed = SessionFeed(FakeActions())
        val v = feed.permissionAsked(model())
        val holder = feed.components.filterIsInstance<ApprovalCard>().single()
        assertTrue(javax.swing.SwingUtilities.isDescendingFrom(v, holder))
        assertEquals("$ ${prompt.command}", holder.find<TextBlock>().first().plainText, "its own card shows the command once, in its header")
        feed.toolStarted(started("call-1", prompt.command!!))
        assertTrue(feed.components.none { it is ApprovalCard }, "the separate card is gone")
        assertTrue(javax.swing.SwingUtilities.isDescendingFrom(v, feed.card("call-1")!!))
        assertEquals(1, feed.components.count { it is CardPanel })
    }

    @Test
    fun `a command the core would run outside the sandbox says so, with the reason, before the question`() = onEdt {
        val v = ApprovalView(model(prompt.copy(warnings = emptyList(), sandboxed = false, outsideSandboxReason = "`docker` needs the host's socket")))
        assertEquals("It would run outside the sandbox, with full access to this computer: docker needs the host's socket", v.outsideSandboxBlock!!.plainText)
        layoutTree(v, Dimension(500, 400))
        layoutTree(v, Dimension(500, 400))
        assertTrue(javax.swing.SwingUtilities.convertPoint(v.outsideSandboxBlock, 0, 0, v).y < javax.swing.SwingUtilities.convertPoint(v.titleBlock, 0, 0, v).y)
        assertNull(ApprovalView(model(prompt.copy(sandboxed = true))).outsideSandboxBlock)
        assertNull(ApprovalView(model(prompt)).outsideSandboxBlock, "an older core that does not say: nothing is claimed")
    }

    @Test
    fun `a write outside the project asks in words for files, and a command typed in this window asks without blaming the agent`() = onEdt {
        val write = ApprovalView(model(PermissionPrompt(callId = "w1", tool = "Write", kind = "path", path = "/home/dev/.npmrc", reason = "outside")))
        assertEquals("Allow the agent to write this file?", write.titleBlock.plainText)
        val own = ApprovalView(model(), ownCall = true)
        assertEquals("Run this command?", own.titleBlock.plainText)
    }

    @Test
    fun `Allow Once sends allow-once, then the question goes - how it was allowed is a fact of its card`() {
        val v = view()
        onEdt { v.allowOnceButton.doClick() }
        assertEquals(listOf(PermissionAnswer.allowOnce()), sent)
        onEdt {
            assertFalse(v.allowOnceButton.isShowingIn(v))
            assertFalse(v.outcomeBlock.isVisible, "nothing to add to the card's own status")
            assertEquals("Allowed once by you", v.model.allowedNote())
            v.model.decided(PermissionDecided(callId = "call-1", tool = "Bash", outcome = "allow", asked = true, answer = "allow-once"))
            assertFalse(v.outcomeBlock.isVisible, "never \"It ran.\" beside the card's own state")
            v.allowOnceButton.doClick()
        }
        assertEquals(1, sent.size, "an answered question sends nothing more")
    }

    @Test
    fun `Always Allow opens an editor prefilled with the suggested rules, one per line, and sends what the person confirmed`() {
        val v = view(prompt.copy(suggestedRules = listOf("npm run test:unit:*", "git status")))
        onEdt { v.alwaysAllowButton.doClick() }
        assertTrue(sent.isEmpty(), "nothing is sent before the rules are confirmed")
        onEdt {
            assertEquals("npm run test:unit:*\ngit status", v.rulesArea.text)
            assertTrue(v.rulesArea.isShowingIn(v))
            assertFalse(v.allowOnceButton.isShowingIn(v))
            v.rulesArea.text = "npm run test:*\n\n  git status  \n"
        }
        key(v.rulesArea, KeyEvent.VK_ENTER, InputEvent.CTRL_DOWN_MASK)
        assertEquals(listOf(PermissionAnswer.alwaysAllow(listOf("npm run test:*", "git status"))), sent)
        onEdt { assertEquals("Allowed by your new rule npm run test:*, git status", v.model.allowedNote()) }
    }

    @Test
    fun `an empty rule list is refused in the question, and Escape goes back to the three buttons`() {
        val v = view()
        onEdt {
            v.alwaysAllowButton.doClick()
            v.rulesArea.text = "  \n"
            v.saveRulesButton.doClick()
            assertTrue(v.rulesError.isVisible)
            assertEquals("Enter at least one rule, or use Allow Once.", v.rulesError.plainText)
        }
        assertTrue(sent.isEmpty())
        key(v.rulesArea, KeyEvent.VK_ESCAPE)
        onEdt {
            assertEquals(ApprovalModel.State.Asking, v.model.state)
            assertTrue(v.allowOnceButton.isShowingIn(v))
        }
    }

    @Test
    fun `Deny takes an optional message for the agent - Enter sends it`() {
        val v = view()
        onEdt { v.denyButton.doClick() }
        onEdt {
            assertTrue(v.denyMessageField.isShowingIn(v))
            v.denyMessageField.text = "  use the build directory instead "
            v.denyMessageField.postActionEvent()
        }
        assertEquals(listOf(PermissionAnswer("deny", message = "use the build directory instead")), sent)
        onEdt {
            assertEquals("Denied" to Tone.ERROR, v.statusText())
            assertEquals("Told the agent: “use the build directory instead”", v.outcomeBlock.plainText)
        }
    }

    @Test
    fun `keyboard - Alt+O allows once, Escape then Enter denies without a message, Enter on a focused button presses it`() {
        val a = view(key = "a")
        key(a, KeyEvent.VK_O, InputEvent.ALT_DOWN_MASK)
        assertEquals(listOf(PermissionAnswer.allowOnce()), sent)

        sent.clear()
        val b = view(key = "b")
        key(b, KeyEvent.VK_ESCAPE)
        onEdt { assertTrue(b.model.state is ApprovalModel.State.EnteringDenyMessage) }
        // Enter in a text field is its action event (JTextField's notify-field-accept, which is
        // enabled only for the focused field, and headless nothing has the focus).
        onEdt { b.denyMessageField.postActionEvent() }
        assertEquals(listOf(PermissionAnswer("deny")), sent)

        sent.clear()
        val c = view(key = "c")
        key(c.alwaysAllowButton, KeyEvent.VK_ENTER)
        onEdt { assertTrue(c.model.state is ApprovalModel.State.EditingRules) }
        key(c.rulesArea, KeyEvent.VK_D, InputEvent.ALT_DOWN_MASK)
        assertTrue(sent.isEmpty(), "Alt+D does nothing while the rules are edited")

        val d = view(key = "d")
        key(d, KeyEvent.VK_ENTER)
        assertTrue(sent.isEmpty(), "Enter on the question itself never allows anything")
        onEdt {
            assertTrue(d.isFocusable)
            assertEquals('D', d.denyButton.text[d.denyButton.displayedMnemonicIndex])
            assertEquals('O', d.allowOnceButton.text[d.allowOnceButton.displayedMnemonicIndex].uppercaseChar())
            assertEquals('A', d.alwaysAllowButton.text[d.alwaysAllowButton.displayedMnemonicIndex].uppercaseChar())
        }
    }

    @Test
    fun `a question no longer asked says so in plain words, and its buttons are gone`() {
        val v = view()
        onEdt { v.model.withdraw() }
        onEdt {
            assertEquals("No longer asked" to Tone.SECONDARY, v.statusText())
            // The status says "No longer asked"; the line under it says why, without saying it twice.
            assertEquals("The time to answer ran out, or the call ended. Nothing ran.", v.outcomeBlock.plainText)
            assertFalse(v.allowOnceButton.isShowingIn(v))
        }
        key(v, KeyEvent.VK_O, InputEvent.ALT_DOWN_MASK)
        assertTrue(sent.isEmpty())
    }

    @Test
    fun `an answer the core no longer waits for turns the question into no longer asked`() {
        coreWaits = false
        val v = view()
        onEdt { v.allowOnceButton.doClick() }
        onEdt { assertTrue(v.model.state is ApprovalModel.State.Withdrawn) }
    }

    @Test
    fun `the feed - several questions, the call's end and the core's cancel take theirs down, decisions are shown`() {
        val feed = onEdt { SessionFeed(FakeActions()) }
        val first = ApprovalModel("q1", prompt) { sent += it; true }
        val second = ApprovalModel("q2", prompt.copy(callId = "call-2", command = "make deploy", warnings = emptyList(), parts = emptyList())) { sent += it; true }
        val third = ApprovalModel("q3", prompt.copy(callId = "call-3", command = "npm publish", warnings = emptyList(), parts = emptyList())) { sent += it; true }
        onEdt {
            feed.toolStarted(started("call-1", prompt.command!!))
            feed.permissionAsked(first)
            feed.permissionAsked(second)
            feed.permissionAsked(third)
            assertEquals(3, feed.approvals().size)
            assertTrue(feed.approvals().all { it.model.isOpen })

            feed.permissionWithdrawn("q2")
            assertTrue(feed.approval("q2")!!.model.state is ApprovalModel.State.Withdrawn)
            assertTrue(feed.approval("q1")!!.model.isOpen, "the others still wait")

            feed.toolFinished(ToolFinished("call-1", "main", "Bash", isError = true))
            assertEquals("The call ended first. Nothing ran.", feed.approval("q1")!!.outcomeBlock.plainText)

            feed.approval("q3")!!.denyButton.doClick()
            feed.approval("q3")!!.sendDenyButton.doClick()
            feed.permissionDecided(PermissionDecided(callId = "call-3", tool = "Bash", command = "npm publish", outcome = "deny", asked = true, answer = "deny", reason = "denied"))
            assertEquals("Denied" to Tone.ERROR, feed.approval("q3")!!.statusText())
            assertFalse(feed.approval("q3")!!.outcomeBlock.isVisible, "denied without a message: the status says it all")

            // Not asked: a rule denied a call this window has no card of. It is a card like every
            // other outcome: the command, "Denied by a rule", and why, the rule shown as code.
            feed.permissionDecided(PermissionDecided(callId = "call-4", tool = "Bash", command = "git push --force", outcome = "deny", asked = false, reason = "Permission denied: `git push --force` matches the deny rule `git push --force:*`."))
            val decision = feed.components.filterIsInstance<DecisionCard>().single()
            assertEquals("Denied by a rule", decision.statusLabel.text)
            assertEquals("git push --force matches the deny rule git push --force:*.", decision.reasonBlock.plainText)
            assertTrue(decision.find<TextBlock>().any { it.plainText == "$ git push --force" })
        }
        assertEquals(listOf(PermissionAnswer("deny")), sent)
        assertNull(onEdt { feed.approval("nope") })
    }

    @Test
    fun `a Bash call waiting for permission cannot be moved to the background until it is answered`() = onEdt {
        val feed = SessionFeed(FakeActions(mutableSetOf("call-1")))
        feed.toolStarted(started("call-1", prompt.command!!))
        val bash = feed.card("call-1") as BashCard
        assertTrue(bash.moveAction.isEnabled)
        val v = feed.permissionAsked(ApprovalModel("q1", prompt) { sent += it; true })
        assertFalse(bash.moveAction.isEnabled, "the core refuses to move a call whose command has not been allowed")
        assertTrue(bash.stopAction.isEnabled, "Stop still works: it withdraws the question")
        v.allowOnceButton.doClick()
        assertTrue(bash.moveAction.isEnabled)
    }
}

/** Whether this component would be on screen inside [root]: it and every parent up to [root] are visible. */
fun JComponent.isShowingIn(root: JComponent): Boolean {
    var c: java.awt.Component? = this
    while (c != null && c !== root) {
        if (!c.isVisible || c.parent == null) return false
        c = c.parent
    }
    return c === root
}
