package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.PartVerdict
import java.awt.BorderLayout
import java.awt.Color
import java.awt.FlowLayout
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.RenderingHints
import java.awt.event.ActionEvent
import java.awt.event.FocusAdapter
import java.awt.event.FocusEvent
import java.awt.event.InputEvent
import java.awt.event.KeyEvent
import javax.swing.AbstractAction
import javax.swing.BorderFactory
import javax.swing.BoxLayout
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JLabel
import javax.swing.JPanel
import javax.swing.JScrollPane
import javax.swing.JTextArea
import javax.swing.JTextField
import javax.swing.KeyStroke
import javax.swing.text.JTextComponent

/**
 * A permission question in the feed: what would run (tool, command or path, description,
 * directory), the warnings in the warning colour above everything else, each part of a compound
 * command and how the rules judged it, and Allow once / Always allow… / Deny.
 *
 * Keyboard: the card takes focus when it appears (unless the person is typing elsewhere); Tab
 * reaches the buttons, Enter presses the focused one; Alt+O, Alt+A and Alt+D are the three
 * buttons; Escape starts Deny, or leaves the rules editor or the message field. Enter on the card
 * itself does nothing, so a keystroke meant for something else never allows a command.
 */
class ApprovalCard(val model: ApprovalModel) : CardPanel() {
    val titleLabel = JLabel()
    val statusLabel = JLabel()
    val allowOnceButton = cardButton("Allow once", KeyEvent.VK_O, "Run it this time (Alt+O)") { model.allowOnce() }
    val alwaysAllowButton = cardButton("Always allow…", KeyEvent.VK_A, "Choose the rules to remember for this project, then run it (Alt+A)") { model.startAlwaysAllow() }
    val denyButton = cardButton("Deny", KeyEvent.VK_D, "Do not run it; optionally tell the model why (Alt+D or Escape)") { model.startDeny() }
    val warningLabels = mutableListOf<JLabel>()
    val partLabels = mutableListOf<JLabel>()

    val rulesArea = JTextArea(3, 30).apply {
        font = WaveTheme.monospace
        lineWrap = false
        themed()
    }
    val rulesError = JLabel().apply { foreground = WaveTheme.error; isVisible = false }
    val saveRulesButton = cardButton("Save rules and allow", KeyEvent.VK_S, "Remember these rules for this project and run it (Ctrl+Enter)") { model.confirmRules(rulesArea.text) }
    val denyMessageField = JTextField(30).apply { themed() }
    val sendDenyButton = cardButton("Deny", KeyEvent.VK_D, "Do not run it (Enter)") { model.confirmDeny(denyMessageField.text) }
    val outcomeLabel = JLabel().apply { isVisible = false }

    private val buttons = JPanel(FlowLayout(FlowLayout.LEFT, 6, 0)).apply {
        isOpaque = false
        add(allowOnceButton); add(alwaysAllowButton); add(denyButton)
    }
    private val rulesEditor = JPanel(BorderLayout(0, 4)).apply {
        isOpaque = false
        add(secondaryLabel("Rules to remember for this project, one per line (a trailing :* allows any continuation):"), BorderLayout.NORTH)
        add(JScrollPane(rulesArea).apply { border = BorderFactory.createLineBorder(WaveTheme.border) }, BorderLayout.CENTER)
        add(JPanel(FlowLayout(FlowLayout.LEFT, 6, 0)).apply {
            isOpaque = false
            add(saveRulesButton)
            add(cardButton("Back", KeyEvent.VK_B, "Back to the three choices (Escape)") { model.back() })
            add(rulesError)
        }, BorderLayout.SOUTH)
    }
    private val denyEditor = JPanel(BorderLayout(0, 4)).apply {
        isOpaque = false
        add(secondaryLabel("Message for the model (optional):"), BorderLayout.NORTH)
        add(denyMessageField, BorderLayout.CENTER)
        add(JPanel(FlowLayout(FlowLayout.LEFT, 6, 0)).apply {
            isOpaque = false
            add(sendDenyButton)
            add(cardButton("Back", KeyEvent.VK_B, "Back to the three choices (Escape)") { model.back() })
        }, BorderLayout.SOUTH)
    }
    private val controls = JPanel().apply { isOpaque = false; layout = BoxLayout(this, BoxLayout.Y_AXIS) }
    private var focused = false

    init {
        isFocusable = true
        getAccessibleContext().accessibleName = "Permission needed: ${model.prompt.tool} ${model.subject}"
        addFocusListener(object : FocusAdapter() {
            override fun focusGained(e: FocusEvent) { focused = true; repaint() }
            override fun focusLost(e: FocusEvent) { focused = false; repaint() }
        })
        val p = model.prompt
        val header = JPanel(BorderLayout(8, 0)).apply { isOpaque = false }
        titleLabel.text = if (p.kind == "path") "Allow ${p.tool} to write this file?" else "Allow ${p.tool} to run this command?"
        titleLabel.font = WaveTheme.font.deriveFont(java.awt.Font.BOLD)
        header.add(titleLabel, BorderLayout.CENTER)
        header.add(statusLabel, BorderLayout.EAST)
        add(header, BorderLayout.NORTH)

        val body = JPanel().apply { isOpaque = false; layout = BoxLayout(this, BoxLayout.Y_AXIS) }
        for (w in p.warnings) {
            val label = JLabel("⚠ " + w.message).apply {
                foreground = WaveTheme.warning
                font = WaveTheme.font.deriveFont(java.awt.Font.BOLD)
                toolTipText = listOfNotNull(w.id, w.part?.let { "in: $it" }).joinToString(" — ")
            }
            warningLabels += label
            body.add(left(JPanel(BorderLayout()).apply {
                isOpaque = false
                border = BorderFactory.createCompoundBorder(
                    BorderFactory.createMatteBorder(0, 3, 0, 0, WaveTheme.warning),
                    BorderFactory.createEmptyBorder(2, 6, 2, 2),
                )
                add(label)
            }))
        }
        body.add(left(JTextArea(model.subject).apply {
            isEditable = false
            lineWrap = true
            font = WaveTheme.monospace.deriveFont(java.awt.Font.BOLD)
            background = WaveTheme.mix(WaveTheme.cardBackground, WaveTheme.foreground, 0.05)
            foreground = WaveTheme.foreground
            border = BorderFactory.createEmptyBorder(4, 6, 4, 6)
            isFocusable = true
            getAccessibleContext().accessibleName = if (p.kind == "path") "File" else "Command"
        }))
        p.description?.takeIf { it.isNotBlank() }?.let { body.add(left(JLabel(it).apply { foreground = WaveTheme.foreground })) }
        if (p.directory.isNotBlank()) body.add(left(secondaryLabel("in ${p.directory}")))
        if (p.parts.size > 1 || p.parts.any { it.status != "needs-approval" }) {
            for (part in p.parts) {
                val label = secondaryLabel(partText(part)).apply { foreground = partColor(part.status) }
                partLabels += label
                body.add(left(label))
            }
        }
        if (p.reason.isNotBlank()) body.add(left(secondaryLabel(p.reason).apply { toolTipText = p.reason }))
        controls.border = BorderFactory.createEmptyBorder(6, 0, 0, 0)
        body.add(left(controls))
        body.add(left(outcomeLabel))
        add(body, BorderLayout.CENTER)

        bindKeys()
        model.onChange { render() }
        render()
    }

    private fun left(c: JComponent): JComponent = c.apply { alignmentX = LEFT_ALIGNMENT }

    private fun partText(part: PartVerdict): String {
        val via = part.via?.takeIf { it.isNotEmpty() }?.let { " (via ${it.joinToString(", ")})" } ?: ""
        return when (part.status) {
            "allowed" -> "✓ ${part.text}$via — allowed" + (part.rule?.let { " by rule $it" } ?: "")
            "denied" -> "✗ ${part.text}$via — denied" + (part.rule?.let { " by rule $it" } ?: "")
            else -> "? ${part.text}$via — needs your approval"
        }
    }

    private fun partColor(status: String): Color = when (status) {
        "allowed" -> WaveTheme.success
        "denied" -> WaveTheme.error
        else -> WaveTheme.foreground
    }

    private fun bindKeys() {
        val scope = getInputMap(WHEN_ANCESTOR_OF_FOCUSED_COMPONENT)
        fun bind(key: KeyStroke, name: String, action: () -> Unit) {
            scope.put(key, name)
            actionMap.put(name, object : AbstractAction(name) {
                override fun actionPerformed(e: ActionEvent) = action()
            })
        }
        bind(KeyStroke.getKeyStroke(KeyEvent.VK_O, InputEvent.ALT_DOWN_MASK), "allowOnce") { if (model.state == ApprovalModel.State.Asking) allowOnceButton.doClick() }
        bind(KeyStroke.getKeyStroke(KeyEvent.VK_A, InputEvent.ALT_DOWN_MASK), "alwaysAllow") { if (model.state == ApprovalModel.State.Asking) alwaysAllowButton.doClick() }
        bind(KeyStroke.getKeyStroke(KeyEvent.VK_D, InputEvent.ALT_DOWN_MASK), "deny") {
            when (model.state) {
                ApprovalModel.State.Asking -> denyButton.doClick()
                is ApprovalModel.State.EnteringDenyMessage -> sendDenyButton.doClick()
                else -> {}
            }
        }
        bind(KeyStroke.getKeyStroke(KeyEvent.VK_ESCAPE, 0), "escape") {
            when (model.state) {
                ApprovalModel.State.Asking -> denyButton.doClick()
                is ApprovalModel.State.EditingRules, is ApprovalModel.State.EnteringDenyMessage -> model.back()
                else -> {}
            }
        }
        rulesArea.getInputMap(WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_ENTER, InputEvent.CTRL_DOWN_MASK), "confirmRules")
        rulesArea.actionMap.put("confirmRules", object : AbstractAction() {
            override fun actionPerformed(e: ActionEvent) = saveRulesButton.doClick()
        })
        denyMessageField.addActionListener { sendDenyButton.doClick() }
    }

    /** Shows the model's state: which controls, and where the keyboard focus goes next. */
    private fun render() {
        val s = model.state
        val hadFocus = isAncestorOfFocus()
        controls.removeAll()
        // Focus that was inside the card stays in it when the controls change.
        var focusTarget: JComponent? = if (hadFocus) this else null
        when (s) {
            ApprovalModel.State.Asking -> controls.add(left(buttons))
            is ApprovalModel.State.EditingRules -> {
                if (rulesArea.text != s.text) rulesArea.text = s.text
                rulesError.text = s.error ?: ""
                rulesError.isVisible = s.error != null
                controls.add(left(rulesEditor))
                focusTarget = rulesArea
            }
            is ApprovalModel.State.EnteringDenyMessage -> {
                controls.add(left(denyEditor))
                focusTarget = denyMessageField
            }
            is ApprovalModel.State.Answered, is ApprovalModel.State.Withdrawn -> {}
        }
        buttons.components.forEach { it.isEnabled = model.isOpen }
        statusLabel.text = when (s) {
            is ApprovalModel.State.Answered -> if (s.answer.decision == "deny") "Denied" else "Allowed"
            is ApprovalModel.State.Withdrawn -> "No longer waiting"
            else -> "Waiting for you"
        }
        statusLabel.foreground = when (s) {
            is ApprovalModel.State.Answered -> if (s.answer.decision == "deny") WaveTheme.error else WaveTheme.success
            is ApprovalModel.State.Withdrawn -> WaveTheme.secondary
            else -> WaveTheme.warning
        }
        val outcome = model.outcomeText()
        outcomeLabel.text = outcome ?: ""
        outcomeLabel.isVisible = outcome != null
        outcomeLabel.foreground = if (s is ApprovalModel.State.Withdrawn) WaveTheme.secondary else WaveTheme.foreground
        if (s is ApprovalModel.State.Withdrawn) titleLabel.foreground = WaveTheme.secondary
        revalidate()
        repaint()
        focusTarget?.requestFocusInWindow()
    }

    private fun isAncestorOfFocus(): Boolean {
        val owner = java.awt.KeyboardFocusManager.getCurrentKeyboardFocusManager().focusOwner ?: return false
        return javax.swing.SwingUtilities.isDescendingFrom(owner, this)
    }

    /**
     * Focus lands on the card when it appears, unless the person is typing in a text field (a
     * prompt must not swallow what they type, nor an Enter meant for their own command).
     */
    fun takeFocus(): Boolean {
        val owner = java.awt.KeyboardFocusManager.getCurrentKeyboardFocusManager().focusOwner
        if (owner is JTextComponent && owner.isEditable) return false
        return requestFocusInWindow()
    }

    override fun paintComponent(g: Graphics) {
        super.paintComponent(g)
        // A prompt waiting for the person gets the warning colour; a focused one a second ring.
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        g2.color = if (model.isOpen) WaveTheme.warning else WaveTheme.border
        g2.drawRoundRect(0, 0, width - 1, height - 1, 10, 10)
        if (focused) {
            g2.color = WaveTheme.link
            g2.drawRoundRect(1, 1, width - 3, height - 3, 9, 9)
        }
        g2.dispose()
    }

    companion object {
        /** Editable fields in the card's colours, so they read in dark themes too. */
        private fun JTextComponent.themed() {
            background = WaveTheme.cardBackground
            foreground = WaveTheme.foreground
            caretColor = WaveTheme.foreground
        }

        /** A button whose mnemonic is underlined but bound to this card only (several cards may be open at once). */
        private fun cardButton(text: String, mnemonic: Int, tooltip: String, action: () -> Unit): JButton =
            smallButton(text, tooltip, action).apply {
                val index = text.indexOfFirst { it.uppercaseChar().code == mnemonic }
                if (index >= 0) displayedMnemonicIndex = index
                // Enter presses the focused button, as Space does.
                getInputMap(WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_ENTER, 0), "pressWithEnter")
                actionMap.put("pressWithEnter", object : AbstractAction() {
                    override fun actionPerformed(e: ActionEvent) = doClick()
                })
            }
    }
}
