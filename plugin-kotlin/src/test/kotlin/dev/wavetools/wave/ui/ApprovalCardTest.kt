package dev.wavetools.wave.ui

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

/** The approval card headless: what it shows, which controls work when, the keyboard, and the answers it sends. */
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

    private fun card(p: PermissionPrompt = prompt, key: String = "q1") = onEdt {
        ApprovalCard(ApprovalModel(key, p) { answer -> if (coreWaits) sent += answer; coreWaits })
    }

    /**
     * A key pressed while [target] has the focus. Headless there is no focus owner, so the event goes
     * straight to the key bindings, the way Swing handles a key typed into the focused component.
     */
    private fun key(target: JComponent, code: Int, modifiers: Int = 0) = onEdt {
        javax.swing.SwingUtilities.processKeyBindings(KeyEvent(target, KeyEvent.KEY_PRESSED, 0L, modifiers, code, KeyEvent.CHAR_UNDEFINED))
    }

    private fun texts(c: JComponent) = onEdt { c.find<JLabel>().map { it.text } }

    @Test
    fun `shows tool, command, description, directory, the warning first and prominent, and each part`() {
        val card = card()
        onEdt {
            assertEquals("Allow Bash to run this command?", card.titleLabel.text)
            assertEquals("Waiting for you", card.statusLabel.text)
            val all = texts(card)
            assertTrue("clean up the old build" in all, "$all")
            assertTrue("in /work/project" in all, "$all")
            val warning = card.warningLabels.single()
            assertEquals("⚠ Deletes recursively /opt/elsewhere, outside the workspace.", warning.text)
            assertEquals(WaveTheme.warning, warning.foreground)
            assertTrue(warning.font.isBold)
            assertEquals(
                listOf("✓ git status — allowed by rule git status", "? rm -rf /opt/elsewhere — needs your approval"),
                card.partLabels.map { it.text },
            )
            val commandArea = card.find<javax.swing.JTextArea> { it.text == prompt.command }.single()
            assertFalse(commandArea.isEditable)
            // The warning is above the command: it is the first thing read.
            layoutTree(card, Dimension(600, 400))
            val warningY = javax.swing.SwingUtilities.convertPoint(warning, 0, 0, card).y
            val commandY = javax.swing.SwingUtilities.convertPoint(commandArea, 0, 0, card).y
            assertTrue(warningY < commandY, "warning at $warningY, command at $commandY")
            assertTrue(card.allowOnceButton.isShowingIn(card) && card.alwaysAllowButton.isShowingIn(card) && card.denyButton.isShowingIn(card))
        }
    }

    @Test
    fun `Allow once sends allow-once, then the buttons go and the card shows the outcome`() {
        val card = card()
        onEdt { card.allowOnceButton.doClick() }
        assertEquals(listOf(PermissionAnswer.allowOnce()), sent)
        onEdt {
            assertFalse(card.allowOnceButton.isShowingIn(card))
            assertEquals("Allowed", card.statusLabel.text)
            assertEquals("Allowed once.", card.outcomeLabel.text)
            card.model.decided(PermissionDecided(callId = "call-1", tool = "Bash", outcome = "allow", asked = true, answer = "allow-once"))
            assertEquals("Allowed once. It ran.", card.outcomeLabel.text)
            card.allowOnceButton.doClick()
        }
        assertEquals(1, sent.size, "an answered card sends nothing more")
    }

    @Test
    fun `Always allow opens an editor prefilled with the suggested rules, one per line, and sends what the person confirmed`() {
        val card = card(prompt.copy(suggestedRules = listOf("npm run test:unit:*", "git status")))
        onEdt { card.alwaysAllowButton.doClick() }
        assertTrue(sent.isEmpty(), "nothing is sent before the rules are confirmed")
        onEdt {
            assertEquals("npm run test:unit:*\ngit status", card.rulesArea.text)
            assertTrue(card.rulesArea.isShowingIn(card))
            assertFalse(card.allowOnceButton.isShowingIn(card))
            card.rulesArea.text = "npm run test:*\n\n  git status  \n"
        }
        key(card.rulesArea, KeyEvent.VK_ENTER, InputEvent.CTRL_DOWN_MASK)
        assertEquals(listOf(PermissionAnswer.alwaysAllow(listOf("npm run test:*", "git status"))), sent)
        onEdt { assertEquals("Allowed, and always allowed from now on: npm run test:*, git status", card.outcomeLabel.text) }
    }

    @Test
    fun `an empty rule list is refused in the card, and Escape goes back to the three buttons`() {
        val card = card()
        onEdt {
            card.alwaysAllowButton.doClick()
            card.rulesArea.text = "  \n"
            card.saveRulesButton.doClick()
            assertTrue(card.rulesError.isVisible)
            assertEquals("Enter at least one rule, or use Allow once.", card.rulesError.text)
        }
        assertTrue(sent.isEmpty())
        key(card.rulesArea, KeyEvent.VK_ESCAPE)
        onEdt {
            assertEquals(ApprovalModel.State.Asking, card.model.state)
            assertTrue(card.allowOnceButton.isShowingIn(card))
        }
    }

    @Test
    fun `Deny takes an optional message for the model - Enter sends it`() {
        val card = card()
        onEdt { card.denyButton.doClick() }
        onEdt {
            assertTrue(card.denyMessageField.isShowingIn(card))
            card.denyMessageField.text = "  use the build directory instead "
            card.denyMessageField.postActionEvent()
        }
        assertEquals(listOf(PermissionAnswer("deny", message = "use the build directory instead")), sent)
        onEdt {
            assertEquals("Denied", card.statusLabel.text)
            assertEquals("Denied. Told the model: use the build directory instead", card.outcomeLabel.text)
        }
    }

    @Test
    fun `keyboard - Alt+O allows once, Escape then Enter denies without a message, Enter on a focused button presses it`() {
        val a = card(key = "a")
        key(a, KeyEvent.VK_O, InputEvent.ALT_DOWN_MASK)
        assertEquals(listOf(PermissionAnswer.allowOnce()), sent)

        sent.clear()
        val b = card(key = "b")
        key(b, KeyEvent.VK_ESCAPE)
        onEdt { assertTrue(b.model.state is ApprovalModel.State.EnteringDenyMessage) }
        // Enter in a text field is its action event (JTextField's notify-field-accept, which is
        // enabled only for the focused field, and headless nothing has the focus).
        onEdt { b.denyMessageField.postActionEvent() }
        assertEquals(listOf(PermissionAnswer("deny")), sent)

        sent.clear()
        val c = card(key = "c")
        key(c.alwaysAllowButton, KeyEvent.VK_ENTER)
        onEdt { assertTrue(c.model.state is ApprovalModel.State.EditingRules) }
        key(c.rulesArea, KeyEvent.VK_D, InputEvent.ALT_DOWN_MASK)
        assertTrue(sent.isEmpty(), "Alt+D does nothing while the rules are edited")

        val d = card(key = "d")
        key(d, KeyEvent.VK_ENTER)
        assertTrue(sent.isEmpty(), "Enter on the card itself never allows anything")
        onEdt {
            assertTrue(d.isFocusable)
            assertEquals('D', d.denyButton.text[d.denyButton.displayedMnemonicIndex])
            assertEquals('O', d.allowOnceButton.text[d.allowOnceButton.displayedMnemonicIndex].uppercaseChar())
            assertEquals('A', d.alwaysAllowButton.text[d.alwaysAllowButton.displayedMnemonicIndex].uppercaseChar())
        }
    }

    @Test
    fun `a question the core stopped waiting for says so, and its buttons are gone`() {
        val card = card()
        onEdt { card.model.withdraw(ApprovalModel.NOT_WAITING_ANY_MORE) }
        onEdt {
            assertEquals("No longer waiting", card.statusLabel.text)
            assertTrue(card.outcomeLabel.text.startsWith("No longer waiting: the core gave up"), card.outcomeLabel.text)
            assertFalse(card.allowOnceButton.isShowingIn(card))
        }
        key(card, KeyEvent.VK_O, InputEvent.ALT_DOWN_MASK)
        assertTrue(sent.isEmpty())
    }

    @Test
    fun `an answer the core no longer waits for turns the card into no longer waiting`() {
        coreWaits = false
        val card = card()
        onEdt { card.allowOnceButton.doClick() }
        onEdt { assertEquals("No longer waiting", card.statusLabel.text) }
    }

    @Test
    fun `the feed - several questions each get a card, the call's end and the core's cancel take theirs down, decisions are shown`() {
        val feed = onEdt { SessionFeed(FakeActions()) }
        val first = ApprovalModel("q1", prompt) { sent += it; true }
        val second = ApprovalModel("q2", prompt.copy(callId = "call-2", command = "make deploy", warnings = emptyList(), parts = emptyList())) { sent += it; true }
        val third = ApprovalModel("q3", prompt.copy(callId = "call-3", command = "npm publish", warnings = emptyList(), parts = emptyList())) { sent += it; true }
        onEdt {
            feed.toolStarted(ToolStarted("call-1", "main", "Bash", null, "2026-01-01T00:00:00Z"))
            feed.permissionAsked(first)
            feed.permissionAsked(second)
            feed.permissionAsked(third)
            assertEquals(3, feed.approvals().size)
            assertTrue(feed.approvals().all { it.model.isOpen })

            feed.permissionWithdrawn("q2")
            assertEquals("No longer waiting", feed.approval("q2")!!.statusLabel.text)
            assertTrue(feed.approval("q1")!!.model.isOpen, "the others still wait")

            feed.toolFinished(ToolFinished("call-1", "main", "Bash", isError = true))
            assertEquals("No longer waiting: ${ApprovalModel.CALL_ENDED}", feed.approval("q1")!!.outcomeLabel.text)

            feed.approval("q3")!!.denyButton.doClick()
            feed.approval("q3")!!.sendDenyButton.doClick()
            feed.permissionDecided(PermissionDecided(callId = "call-3", tool = "Bash", command = "npm publish", outcome = "deny", asked = true, answer = "deny", reason = "denied"))
            assertEquals("Denied. It did not run.", feed.approval("q3")!!.outcomeLabel.text)

            // Not asked: a rule denied it. It gets its own line.
            feed.permissionDecided(PermissionDecided(callId = "call-4", tool = "Bash", command = "git push --force", outcome = "deny", asked = false, reason = "Permission denied: `git push --force` matches the deny rule `git push --force:*`."))
            assertTrue(texts(feed).any { it == "Denied: Bash git push --force — `git push --force` matches the deny rule `git push --force:*`." }, "${texts(feed)}")
        }
        assertEquals(listOf(PermissionAnswer("deny")), sent)
        assertNull(onEdt { feed.approval("nope") })
    }

    @Test
    fun `a Bash call waiting for permission cannot be moved to the background until it is answered`() = onEdt {
        val feed = SessionFeed(FakeActions(mutableSetOf("call-1")))
        feed.toolStarted(ToolStarted("call-1", "main", "Bash", null, "2026-01-01T00:00:00Z"))
        val bash = feed.card("call-1") as BashCard
        assertTrue(bash.moveButton.isEnabled)
        val card = feed.permissionAsked(ApprovalModel("q1", prompt) { sent += it; true })
        assertFalse(bash.moveButton.isEnabled, "the core refuses to move a call whose command has not been allowed")
        assertTrue(bash.stopButton.isEnabled, "Stop still works: it withdraws the question")
        card.allowOnceButton.doClick()
        assertTrue(bash.moveButton.isEnabled)
    }

    private fun JComponent.isShowingIn(root: JComponent): Boolean {
        var c: java.awt.Component? = this
        while (c != null && c !== root) {
            if (!c.isVisible || c.parent == null) return false
            c = c.parent
        }
        return c === root
    }
}
