package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.AgentConnect
import dev.wavetools.wave.bridge.AgentKind
import dev.wavetools.wave.bridge.ApplyBlocker
import java.awt.BorderLayout
import javax.swing.BorderFactory
import javax.swing.JButton
import javax.swing.JCheckBox
import javax.swing.JPanel
import javax.swing.JTextArea

/** What only the IDE can do for the Connect an Agent dialog. */
interface ConnectHost {
    /** Puts [text] on the clipboard. */
    fun copy(text: String)

    /**
     * Plans the agent's configuration ([AgentConnect.plan]), shows every change (a diff for each
     * file, the command lines) and, once the person agrees, applies it off the UI thread; calls
     * [done] on the UI thread with what happened.
     */
    fun apply(kind: AgentKind, turnOffOwnTools: Boolean, done: (ApplyOutcome) -> Unit)
}

sealed class ApplyOutcome {
    object Applied : ApplyOutcome()
    object Cancelled : ApplyOutcome()
    data class Failed(val message: String) : ApplyOutcome()
}

/**
 * Connect an Agent: for Claude Code, Codex CLI, Gemini CLI or any other MCP client, the exact
 * configuration with this installation's paths (Copy), and — where the agent has a command or a
 * config file — Apply, which shows the change first. Below: how to turn off the agent's own shell
 * and edit tools and how Wave's tools are pre-allowed, and what the format was checked against.
 */
class ConnectAgentPanel(private val connect: AgentConnect, private val host: ConnectHost, initial: AgentKind = AgentKind.CLAUDE_CODE) :
    JPanel(BorderLayout()), Themed {
    private val tabsModel = SimpleTabsModel(::select)
    val tabs = TabStrip(tabsModel)
    val intro = TextBlock(connect.launcher?.let { WaveBundle.message("connect.intro.launcher", it) } ?: WaveBundle.message("connect.intro"), Tone.SECONDARY)
    val hint = TextBlock("", Tone.NORMAL, markdown = true)
    val snippet = JTextArea().apply {
        isEditable = false
        lineWrap = true
        wrapStyleWord = false
        styled { t ->
            font = t.monoFont
            background = t.outputBackground
            foreground = t.outputForeground
            border = BorderFactory.createEmptyBorder(t.px(8), t.px(10), t.px(8), t.px(10))
        }
    }
    val copyButton: JButton = smallButton(WaveBundle.message("connect.copy.button"), WaveBundle.message("connect.copy.tooltip")) { copy() }
    val ownTools = JCheckBox().apply {
        isOpaque = false
        styled { t -> font = t.font; foreground = t.foreground }
    }
    val applyButton: JButton = smallButton(WaveBundle.message("connect.apply.button"), WaveBundle.message("connect.apply.tooltip")) { apply() }
    val outcome = TextBlock("", Tone.SECONDARY, small = true, markdown = true).apply { isVisible = false }
    val ownToolsNote = TextBlock("", Tone.SECONDARY, small = true, markdown = true)
    val checkedNote = TextBlock("", Tone.SECONDARY, small = true)

    var kind: AgentKind = initial
        private set

    /** What keeps Apply from working for the shown kind (null: nothing). */
    private var blocker: ApplyBlocker? = null

    init {
        for (k in AgentKind.values()) tabsModel.add(k.name, displayName(k))
        val column = verticalStack()
        column.addRow(intro)
        column.addRow(gap(10))
        column.addRow(hint)
        column.addRow(gap(6))
        column.addRow(snippet)
        column.addRow(gap(6))
        column.addRow(wrapRow(copyButton, applyButton, hgap = 8))
        column.addRow(ownTools)
        column.addRow(outcome)
        column.addRow(gap(10))
        column.addRow(ownToolsNote)
        column.addRow(gap(6))
        column.addRow(checkedNote)
        val body = JPanel(BorderLayout()).apply {
            isOpaque = false
            add(column, BorderLayout.NORTH)
        }
        body.styled { t -> border = BorderFactory.createEmptyBorder(t.px(10), t.px(12), t.px(12), t.px(12)) }
        add(tabs, BorderLayout.NORTH)
        add(body, BorderLayout.CENTER)
        themeChanged(WaveTheme.current)
        tabs.select(initial.name)
        show(initial)
    }

    override fun themeChanged(theme: Theme) {
        background = theme.background
    }

    private fun gap(px: Int) = JPanel().apply {
        isOpaque = false
        styled { t -> preferredSize = java.awt.Dimension(1, t.px(px)); maximumSize = java.awt.Dimension(Int.MAX_VALUE, t.px(px)) }
    }

    private fun select(key: String) = show(AgentKind.valueOf(key))

    /** Shows [k]'s configuration. */
    fun show(k: AgentKind) {
        kind = k
        val setup = connect.setup(k)
        // Texts about a file name it; the other client's have no file to name.
        val file = listOfNotNull(setup.file?.toString()).toTypedArray<Any>()
        val name = displayName(k)
        hint.source = WaveBundle.message("connect.${keyOf(k)}.hint", *file)
        snippet.text = setup.snippet.trimEnd()
        snippet.caretPosition = 0
        ownToolsNote.source = WaveBundle.message("connect.${keyOf(k)}.ownTools", *file)
        checkedNote.source = WaveBundle.message("connect.${keyOf(k)}.checked")
        // Codex can only turn off its shell; the others both their shell and edit tools.
        val labelKey = "connect.${keyOf(k)}.ownTools.label".takeIf { it in WaveBundle.keys() } ?: "connect.ownTools.label"
        ownTools.text = WaveBundle.message(labelKey, name)
        blocker = setup.applyBlocker
        applyButton.isVisible = blocker != ApplyBlocker.CLIENT_SETTINGS
        ownTools.isVisible = blocker == null
        applyButton.isEnabled = blocker == null
        applyButton.toolTipText = if (blocker == ApplyBlocker.CLI_NOT_ON_PATH) WaveBundle.message("connect.cliMissing.text", "claude") else WaveBundle.message("connect.apply.tooltip")
        showOutcome(if (blocker == ApplyBlocker.CLI_NOT_ON_PATH) WaveBundle.message("connect.cliMissing.text", "claude") else null, Tone.SECONDARY)
        revalidate()
        repaint()
    }

    private fun copy() {
        host.copy(snippet.text)
        showOutcome(WaveBundle.message("connect.copied.text"), Tone.SECONDARY)
    }

    private fun apply() {
        val k = kind
        applyButton.isEnabled = false
        showOutcome(WaveBundle.message("connect.applying.text"), Tone.SECONDARY)
        host.apply(k, ownTools.isSelected) { result ->
            // Applying never changes what blocks it (a missing CLI, a client without settings): the shown kind's stands.
            applyButton.isEnabled = blocker == null
            if (kind != k) return@apply
            when (result) {
                is ApplyOutcome.Applied -> showOutcome(WaveBundle.message("connect.applied.text", displayName(k)), Tone.SUCCESS)
                is ApplyOutcome.Cancelled -> showOutcome(null, Tone.SECONDARY)
                is ApplyOutcome.Failed -> showOutcome(result.message, Tone.ERROR)
            }
        }
    }

    private fun showOutcome(text: String?, tone: Tone) {
        outcome.isVisible = text != null
        outcome.tone = tone
        outcome.source = text ?: ""
        revalidate()
        repaint()
    }

    companion object {
        /** [k]'s name as its tab shows it ("Claude Code"). */
        fun displayName(k: AgentKind): String = WaveBundle.message("connect.tab.${keyOf(k)}")

        /** The bundle keys' part for [k] (`connect.tab.<key>`, `connect.<key>.hint`, …). */
        fun keyOf(k: AgentKind) = when (k) {
            AgentKind.CLAUDE_CODE -> "claude"
            AgentKind.CODEX -> "codex"
            AgentKind.GEMINI -> "gemini"
            AgentKind.OTHER -> "other"
        }
    }
}
