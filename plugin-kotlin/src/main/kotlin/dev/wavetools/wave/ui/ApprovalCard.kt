package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.PartVerdict
import java.awt.BasicStroke
import java.awt.BorderLayout
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.KeyboardFocusManager
import java.awt.RenderingHints
import java.awt.event.ActionEvent
import java.awt.event.FocusAdapter
import java.awt.event.FocusEvent
import java.awt.event.InputEvent
import java.awt.event.KeyEvent
import javax.swing.AbstractAction
import javax.swing.BorderFactory
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JScrollPane
import javax.swing.JTextArea
import javax.swing.JTextField
import javax.swing.KeyStroke
import javax.swing.SwingUtilities
import javax.swing.text.JTextComponent

/**
 * A permission question, inside the card of the call it is about: the warnings first, then the
 * question in plain words, why the core asks, and Allow Once (the default button) / Always Allow…
 * / Deny. Once answered (or no longer asked) it shrinks to one line saying what happened.
 *
 * The command or file is not repeated here: the enclosing card's header shows it (whole, while
 * the question is open).
 *
 * Keyboard: the question takes the focus when it appears (unless the person is typing elsewhere);
 * Tab reaches the buttons, Enter presses the focused one; Alt+O, Alt+A and Alt+D are the three
 * buttons; Escape starts Deny, or leaves the rules editor or the message field. Enter on the
 * question itself does nothing, so a keystroke meant for something else never allows a command.
 */
class ApprovalView(val model: ApprovalModel, private val ownCall: Boolean = false, private val root: String? = null) :
    FilledPanel(BorderLayout(), { t -> if (model.isOpen) t.warningBackground else null }), Themed {
    val titleBlock = TextBlock(title()).apply { bold = true }
    val warningBlocks = mutableListOf<TextBlock>()
    val partBlocks = mutableListOf<TextBlock>()
    val reasonBlock = TextBlock(model.prompt.reason, Tone.NORMAL, small = true, markdown = true)
    val outsideSandboxBlock: TextBlock? = model.prompt.takeIf { it.runsOutsideSandbox }?.let { p ->
        TextBlock(
            p.outsideSandboxReason?.let { WaveBundle.message("approval.outsideSandbox.because", it) } ?: WaveBundle.message("approval.outsideSandbox"),
            markdown = true,
        )
    }

    val allowOnceButton = button(WaveBundle.message("approval.allowOnce.button"), KeyEvent.VK_O, WaveBundle.message("approval.allowOnce.tooltip")) { model.allowOnce() }
    val alwaysAllowButton = button(WaveBundle.message("approval.alwaysAllow.button"), KeyEvent.VK_A, WaveBundle.message("approval.alwaysAllow.tooltip")) { model.startAlwaysAllow() }
    val denyButton = button(WaveBundle.message("approval.deny.button"), KeyEvent.VK_D, WaveBundle.message("approval.deny.tooltip")) { model.startDeny() }

    val rulesArea = JTextArea(3, 20).apply { lineWrap = false; input() }
    val rulesError = TextBlock("", Tone.ERROR, small = true).apply { isVisible = false }
    val saveRulesButton = button(WaveBundle.message("approval.saveRules.button"), KeyEvent.VK_S, WaveBundle.message("approval.saveRules.tooltip")) { model.confirmRules(rulesArea.text) }
    val denyMessageField = JTextField(20).apply { input() }
    val sendDenyButton = button(WaveBundle.message("approval.sendDeny.button"), KeyEvent.VK_D, WaveBundle.message("approval.sendDeny.tooltip")) { model.confirmDeny(denyMessageField.text) }
    val outcomeBlock = TextBlock("", Tone.SECONDARY, small = true).apply { isVisible = false }

    private val question = verticalStack()
    private val controls = verticalStack()
    private val buttons = wrapRow(allowOnceButton, alwaysAllowButton, denyButton, hgap = 6, vgap = 4)
    private val rulesEditor = verticalStack().apply {
        addRow(TextBlock(WaveBundle.message("approval.rules.label"), small = true))
        addRow(JScrollPane(rulesArea).apply { styled { t -> border = BorderFactory.createLineBorder(t.controlBorder) } })
        addRow(rulesError)
        addRow(wrapRow(saveRulesButton, button(WaveBundle.message("approval.back.button"), KeyEvent.VK_B, WaveBundle.message("approval.back.tooltip")) { model.back() }, hgap = 6, vgap = 4))
    }
    private val denyEditor = verticalStack().apply {
        addRow(TextBlock(WaveBundle.message("approval.denyMessage.label"), small = true))
        addRow(denyMessageField)
        addRow(wrapRow(sendDenyButton, button(WaveBundle.message("approval.back.button"), KeyEvent.VK_B, WaveBundle.message("approval.back.tooltip")) { model.back() }, hgap = 6, vgap = 4))
    }
    private var focused = false

    init {
        isFocusable = true
        getAccessibleContext().accessibleName = title() + " " + model.subject
        WaveTheme.current.markDefaultButton(allowOnceButton)
        allowOnceButton.putClientProperty(DEFAULT_BUTTON, true)
        addFocusListener(object : FocusAdapter() {
            override fun focusGained(e: FocusEvent) { focused = true; repaint() }
            override fun focusLost(e: FocusEvent) { focused = false; repaint() }
        })
        val p = model.prompt
        for (w in p.warnings) {
            val block = TextBlock(w.message, markdown = true).apply { toolTipText = listOfNotNull(w.id, w.part?.let { "in: $it" }).joinToString(" — ") }
            warningBlocks += block
            question.addRow(IconText({ it.icons.warning }, block))
        }
        outsideSandboxBlock?.let { question.addRow(IconText({ it.icons.warning }, it)) }
        question.addRow(titleBlock)
        if (p.reason.isNotBlank()) question.addRow(reasonBlock)
        if (p.parts.size > 1 || p.parts.any { it.status != "needs-approval" }) {
            for (part in p.parts) {
                val block = TextBlock(partText(part), partTone(part.status), small = true, markdown = true)
                partBlocks += block
                question.addRow(block)
            }
        }
        val dir = p.directory.takeIf { it.isNotBlank() && it.trimEnd('/', '\\') != root?.trimEnd('/', '\\') }
        dir?.let { question.addRow(TextBlock(WaveBundle.message("approval.directory", Format.relative(it, root)), small = true)) }
        question.addRow(controls)
        val content = verticalStack()
        content.addRow(question)
        content.addRow(outcomeBlock)
        add(content, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
        bindKeys()
        model.onChange { render() }
        render()
    }

    override fun themeChanged(theme: Theme) {
        border = BorderFactory.createEmptyBorder(theme.px(8), theme.px(10), theme.px(8), theme.px(10))
        // The editors are attached only while they are shown; restyle the one that is not.
        Restyle.tree(rulesEditor, theme)
        Restyle.tree(denyEditor, theme)
    }

    /** Plain words: it is the agent asking (or this window, for a command typed here), never a tool's identifier. */
    private fun title(): String = when {
        model.prompt.kind == "path" -> WaveBundle.message("approval.title.write")
        model.prompt.kind == "read" -> WaveBundle.message("approval.title.read")
        ownCall -> WaveBundle.message("approval.title.ownCommand")
        else -> WaveBundle.message("approval.title.command")
    }

    private fun partText(part: PartVerdict): String {
        val via = part.via?.takeIf { it.isNotEmpty() }?.let { " " + WaveBundle.message("approval.part.via", it.joinToString(", ")) } ?: ""
        return when (part.status) {
            "allowed" -> "✓ `${part.text}`$via — " + (part.rule?.let { WaveBundle.message("approval.part.allowedByRule", it) } ?: WaveBundle.message("approval.part.allowed"))
            "denied" -> "✗ `${part.text}`$via — " + (part.rule?.let { WaveBundle.message("approval.part.deniedByRule", it) } ?: WaveBundle.message("approval.part.denied"))
            else -> "? `${part.text}`$via — " + WaveBundle.message("approval.part.needsApproval")
        }
    }

    private fun partTone(status: String): Tone = when (status) {
        "allowed" -> Tone.SUCCESS
        "denied" -> Tone.ERROR
        else -> Tone.NORMAL
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
        // Focus that was inside the question stays in it when the controls change.
        var focusTarget: JComponent? = if (hadFocus) this else null
        when (s) {
            ApprovalModel.State.Asking -> controls.addRow(buttons)
            is ApprovalModel.State.EditingRules -> {
                if (rulesArea.text != s.text) rulesArea.text = s.text
                rulesError.source = s.error ?: ""
                rulesError.isVisible = s.error != null
                controls.addRow(rulesEditor)
                focusTarget = rulesArea
            }
            is ApprovalModel.State.EnteringDenyMessage -> {
                controls.addRow(denyEditor)
                focusTarget = denyMessageField
            }
            is ApprovalModel.State.Answered, is ApprovalModel.State.Withdrawn -> {}
        }
        question.isVisible = model.isOpen
        val outcome = model.outcomeText()
        outcomeBlock.source = outcome ?: ""
        outcomeBlock.isVisible = outcome != null
        outcomeBlock.tone = when {
            s is ApprovalModel.State.Answered && s.answer.decision == "deny" -> Tone.ERROR
            else -> Tone.SECONDARY
        }
        themeChanged(WaveTheme.current)
        revalidate()
        repaint()
        focusTarget?.requestFocusInWindow()
    }

    /** One word for the question's state, for a header: waiting, allowed, denied, no longer waiting. */
    fun statusText(): Pair<String, Tone> = when (val s = model.state) {
        is ApprovalModel.State.Answered -> if (s.answer.decision == "deny") WaveBundle.message("approval.status.denied") to Tone.ERROR else WaveBundle.message("approval.status.allowed") to Tone.SUCCESS
        is ApprovalModel.State.Withdrawn -> WaveBundle.message("approval.status.withdrawn") to Tone.SECONDARY
        else -> WaveBundle.message("card.status.waitingForApproval") to Tone.WARNING
    }

    private fun isAncestorOfFocus(): Boolean {
        val owner = KeyboardFocusManager.getCurrentKeyboardFocusManager().focusOwner ?: return false
        return SwingUtilities.isDescendingFrom(owner, this)
    }

    /**
     * Focus lands on the question when it appears, unless the person is typing in a text field (a
     * prompt must not swallow what they type, nor an Enter meant for their own command).
     */
    fun takeFocus(): Boolean {
        val owner = KeyboardFocusManager.getCurrentKeyboardFocusManager().focusOwner
        if (owner is JTextComponent && owner.isEditable) return false
        return requestFocusInWindow()
    }

    override fun paintComponent(g: Graphics) {
        super.paintComponent(g)
        if (!focused) return
        val t = WaveTheme.current
        val g2 = g.create() as Graphics2D
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        g2.color = t.focusColor
        g2.stroke = BasicStroke(t.px(2).toFloat())
        val arc = t.px(8)
        g2.drawRoundRect(1, 1, width - 2, height - 2, arc, arc)
        g2.dispose()
    }

    companion object {
        /** Client property marking the default button of a group (the test theme paints it; the IDE's theme has its own mark). */
        const val DEFAULT_BUTTON = "wave.defaultButton"

        /** Editable fields in the theme's input colours. */
        private fun JTextComponent.input() {
            styled { t ->
                background = t.inputBackground
                foreground = t.foreground
                caretColor = t.foreground
                font = t.monoFont
                border = BorderFactory.createCompoundBorder(BorderFactory.createLineBorder(t.controlBorder), BorderFactory.createEmptyBorder(t.px(3), t.px(6), t.px(3), t.px(6)))
            }
        }

        /** A button whose mnemonic is underlined but bound to this question only (several may be open at once). */
        private fun button(text: String, mnemonic: Int, tooltip: String, action: () -> Unit): JButton =
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

/**
 * A question with no card of its own call in the feed (the call started before this window
 * listened, or was asked about before it started): the command or file once, in the header, then
 * the question. When the call's card arrives the question moves into it.
 */
class ApprovalCard(val view: ApprovalView) : CardPanel() {
    val statusLabel = ToneLabel("", Tone.WARNING, small = true)

    init {
        val subject = TextBlock(if (view.model.prompt.kind == "command") "$ " + view.model.subject else view.model.subject, mono = true)
        val description = view.model.prompt.description?.takeIf { it.isNotBlank() }?.let { TextBlock(it, Tone.SECONDARY, small = true) }
        add(CardHeader(emptyList(), subject, listOf(statusLabel), below = description), BorderLayout.NORTH)
        add(view, BorderLayout.CENTER)
        view.model.onChange { refresh() }
        refresh()
    }

    private fun refresh() {
        val (text, tone) = view.statusText()
        statusLabel.text = text
        statusLabel.tone = tone
        repaint()
    }

    override fun borderColor(t: Theme) = if (view.model.isOpen) t.warningBorder else t.cardBorder
}
