package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.PartVerdict
import dev.wavetools.wave.bridge.PermissionAnswer
import dev.wavetools.wave.bridge.PermissionDecided
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
import javax.swing.JPanel
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

    val allowOnceButton = OptionButton(WaveBundle.message("approval.allowOnce.button"), WaveBundle.message("approval.allowOnce.tooltip"), WaveBundle.message("approval.moreChoices.tooltip")) { model.allowOnce() }.apply { withEnterAndMnemonic(KeyEvent.VK_O) }
    val alwaysAllowButton = button(WaveBundle.message("approval.alwaysAllow.button"), KeyEvent.VK_A, WaveBundle.message("approval.alwaysAllow.tooltip")) { model.startAlwaysAllow() }
    val denyButton = button(WaveBundle.message("approval.deny.button"), KeyEvent.VK_D, WaveBundle.message("approval.deny.tooltip")) { model.startDeny() }

    val rulesArea = JTextArea(3, 20).apply { lineWrap = false; input() }
    // Narrow, "Always Allow…" moves into Allow Once's menu: the three choices stay on one row.
    init {
        allowOnceButton.options = listOf(alwaysAllowButton.text to { alwaysAllowButton.doClick() })
    }
    val rulesError = TextBlock("", Tone.ERROR, small = true).apply { isVisible = false }
    val saveRulesButton = button(WaveBundle.message("approval.saveRules.button"), KeyEvent.VK_S, WaveBundle.message("approval.saveRules.tooltip")) { model.confirmRules(rulesArea.text) }
    val denyMessageField = JTextField(20).apply { input() }
    val sendDenyButton = button(WaveBundle.message("approval.sendDeny.button"), KeyEvent.VK_D, WaveBundle.message("approval.sendDeny.tooltip")) { model.confirmDeny(denyMessageField.text) }
    val outcomeBlock = TextBlock("", Tone.SECONDARY, small = true).apply { isVisible = false }

    private val question = verticalStack()
    private val controls = verticalStack()
    /** Allow Once, Always Allow…, Deny: one row at every width (see [ChoiceRow]). */
    val buttons = ChoiceRow(allowOnceButton, alwaysAllowButton, denyButton)
    private val rulesEditor = verticalStack().apply {
        addRow(TextBlock(WaveBundle.message("approval.rules.label"), small = true))
        // The Look and Feel's own field border (rounded, with the focus ring), never a square line.
        addRow(JScrollPane(rulesArea))
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
        dir?.let { question.addRow(TextBlock(WaveBundle.message("approval.directory", "`" + Format.relative(it, root).trimEnd('/', '\\') + "/`"), small = true, markdown = true)) }
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
        // The card's status says what happened; this keeps only what it does not (a message, a reason).
        val outcome = model.closedNote()
        outcomeBlock.source = outcome ?: ""
        outcomeBlock.isVisible = outcome != null
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

        /** Editable fields in the theme's input colours, with the Look and Feel's own border and focus ring. */
        private fun JTextComponent.input() {
            styled { t ->
                background = t.inputBackground
                foreground = t.foreground
                caretColor = t.foreground
                font = t.monoFont
            }
        }

        /** Enter presses the focused button, as Space does; Alt+[mnemonic] is underlined. */
        private fun JButton.withEnterAndMnemonic(mnemonic: Int) {
            val index = text.indexOfFirst { it.uppercaseChar().code == mnemonic }
            if (index >= 0) displayedMnemonicIndex = index
            getInputMap(WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_ENTER, 0), "pressWithEnter")
            actionMap.put("pressWithEnter", object : AbstractAction() {
                override fun actionPerformed(e: ActionEvent) = doClick()
            })
        }

        /** A button whose mnemonic is underlined but bound to this question only (several may be open at once). */
        private fun button(text: String, mnemonic: Int, tooltip: String, action: () -> Unit): JButton =
            smallButton(text, tooltip, action).apply { withEnterAndMnemonic(mnemonic) }
    }
}

/**
 * A question with no card of its own call in the feed (the call started before this window
 * listened, or was asked about before it started): the command or file once, in the header, then
 * the question. When the call's card arrives the question moves into it.
 */
class ApprovalCard(val view: ApprovalView) : CardPanel() {
    val statusLabel = ToneLabel("", Tone.WARNING, small = true)
    val statusIcon = StatusIcon(CallState.WAITING)
    val header: CardHeader

    init {
        val subject = TextBlock(if (view.model.prompt.kind == "command") "$ " + view.model.subject else view.model.subject, mono = true)
        val description = view.model.prompt.description?.takeIf { it.isNotBlank() }?.let { TextBlock(it, Tone.SECONDARY, small = true) }
        header = CardHeader(statusIcon, subject, statusLabel, below = description)
        add(header, BorderLayout.NORTH)
        add(view, BorderLayout.CENTER)
        view.model.onChange { refresh() }
        refresh()
    }

    private fun refresh() {
        val (text, tone) = view.statusText()
        statusLabel.text = text
        statusLabel.tone = tone
        statusIcon.state = when (val s = view.model.state) {
            is ApprovalModel.State.Answered -> if (s.answer.decision == PermissionAnswer.DENY) CallState.FAILED else CallState.PASSED
            is ApprovalModel.State.Withdrawn -> CallState.STOPPED
            else -> CallState.WAITING
        }
        repaint()
    }

    override fun borderColor(t: Theme) = if (view.model.isOpen) t.warningBorder else t.cardBorder
}

/**
 * A check the person was not asked about but should know of — a command or write denied by a
 * rule, or allowed despite warnings — as a card like every other outcome: what, the decision, why.
 */
class DecisionCard(val event: PermissionDecided) : CardPanel() {
    val denied = event.outcome != "allow"
    val statusLabel = ToneLabel(
        WaveBundle.message(if (denied) "decision.denied.status" else "decision.allowedWithWarnings.status"),
        if (denied) Tone.ERROR else Tone.WARNING,
        small = true,
    )
    val reasonBlock: TextBlock

    init {
        val subject = event.command ?: event.path ?: ""
        val title = TextBlock(if (event.command != null) "$ ${Format.firstLine(subject, 400)}" else subject, mono = true)
        val why = event.warnings.takeIf { it.isNotEmpty() }?.joinToString("; ") { it.message } ?: event.reason.removePrefix("Permission denied: ")
        reasonBlock = TextBlock(Format.firstLine(why, 400), Tone.SECONDARY, small = true, markdown = true)
        add(CardHeader(StatusIcon(if (denied) CallState.FAILED else CallState.PASSED), title, statusLabel), BorderLayout.NORTH)
        // Under the title, at the title's x.
        add(JPanel(BorderLayout()).apply {
            isOpaque = false
            add(reasonBlock, BorderLayout.CENTER)
            styled { t -> border = BorderFactory.createEmptyBorder(t.px(2), t.px(16 + CardHeader.GAP), 0, 0) }
        }, BorderLayout.CENTER)
    }
}

/**
 * Allow Once, Always Allow… and Deny on one row. Where the three do not fit (about 300 px at the
 * IDE's button sizes), Always Allow… moves into Allow Once's menu, as the platform's option
 * buttons offer a second way to do the first thing: two controls then, still on one row, Deny
 * never alone.
 */
class ChoiceRow(private val main: OptionButton, private val second: JButton, private val last: JButton) : JPanel() {
    /** Whether the last layout folded the second choice into [main]'s menu. */
    var folded = false
        private set

    init {
        isOpaque = false
        alignmentX = LEFT_ALIGNMENT
        add(main)
        add(second)
        add(last)
        layout = object : java.awt.LayoutManager {
            override fun addLayoutComponent(name: String?, comp: java.awt.Component?) {}
            override fun removeLayoutComponent(comp: java.awt.Component?) {}
            private fun gap() = WaveTheme.current.px(6)
            private fun fits(width: Int): Boolean {
                main.optionsShown = false
                val all = main.preferredSize.width + second.preferredSize.width + last.preferredSize.width + 2 * gap()
                return width <= 0 || all <= width
            }
            override fun preferredLayoutSize(parent: java.awt.Container): java.awt.Dimension {
                val h = maxOf(main.preferredSize.height, last.preferredSize.height)
                val insets = parent.insets
                return java.awt.Dimension(main.preferredSize.width + second.preferredSize.width + last.preferredSize.width + 2 * gap() + insets.left + insets.right, h + insets.top + insets.bottom)
            }
            override fun minimumLayoutSize(parent: java.awt.Container) = java.awt.Dimension(0, preferredLayoutSize(parent).height)
            override fun layoutContainer(parent: java.awt.Container) {
                val insets = parent.insets
                val width = parent.width - insets.left - insets.right
                folded = !fits(width)
                main.optionsShown = folded
                second.isVisible = !folded
                var x = insets.left
                for (b in listOf(main, second, last).filter { it.isVisible }) {
                    val d = b.preferredSize
                    b.setBounds(x, insets.top, d.width, d.height)
                    x += d.width + gap()
                }
            }
        }
    }

    /** The controls shown now, left to right. */
    fun shown(): List<JButton> = listOf(main, second, last).filter { it.isVisible }
}
