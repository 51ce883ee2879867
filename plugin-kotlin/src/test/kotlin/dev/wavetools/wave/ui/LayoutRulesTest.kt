package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.PermissionPrompt
import dev.wavetools.wave.bridge.PermissionWarning
import dev.wavetools.wave.bridge.ToolFinished
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.awt.Component
import java.awt.Container
import java.awt.Dimension
import java.awt.Rectangle
import javax.swing.JButton
import javax.swing.JComponent
import javax.swing.JViewport
import javax.swing.SwingUtilities

/**
 * The layout rules the tool window keeps at every width, checked on the scenes the screenshots
 * show, in the New UI themes: nothing wider than its card at 340 px, a running command's line
 * visible, controls that turn into icon buttons when space is short, Title Case on every control,
 * output frames of whole lines, and a theme change that restyles what is already on screen.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LayoutRulesTest {
    private val scenes: Map<String, () -> WavePanel> = mapOf(
        "session" to Scenes::session,
        "approvals" to Scenes::approvals,
        "shell-command" to Scenes::shellCommand,
        "tasks" to Scenes::tasks,
        "empty" to Scenes::emptyState,
        "fallback" to { Scenes.fallback(expanded = true) },
        "fallback-wsl" to Scenes::wslProject,
    )

    @BeforeAll
    fun lightTheme() = onEdt { TestThemes.install(TestThemes.light) }

    @AfterAll
    fun lookAndFeelTheme() = onEdt { WaveTheme.install(Theme.fromLookAndFeel()) }

    private val made = mutableListOf<WavePanel>()

    /** Panels built here stop their timers and theme listeners after each test. */
    @org.junit.jupiter.api.AfterEach
    fun disposePanels() = onEdt {
        made.forEach { it.dispose() }
        made.clear()
    }

    private fun laidOut(build: () -> WavePanel, width: Int, height: Int = 2400): WavePanel =
        build().also { p -> made += p; repeat(3) { layoutTree(p, Dimension(width, height)) } }

    /** [c]'s bounds in [root]'s coordinates. */
    private fun boundsIn(c: Component, root: Component): Rectangle = SwingUtilities.convertRectangle(c.parent, c.bounds, root)

    /** Visible components under [root], not looking inside scrolled views (they are meant to be wider and scroll). */
    private fun visibleUnder(root: Container): List<Component> = root.components.filter { it.isVisible }.flatMap { c ->
        listOf(c) + if (c is Container && c !is JViewport) visibleUnder(c) else emptyList()
    }

    private fun cards(panel: WavePanel): List<CardPanel> = panel.feed.components.filterIsInstance<CardPanel>()

    @Test
    fun `at 340 px no part of a card is wider than the card, in any scene`() = onEdt {
        for ((name, build) in scenes) {
            val panel = laidOut(build, 340)
            for (card in cards(panel)) {
                assertTrue(card.width in 1..340, "$name: card ${card.width} px wide")
                for (c in visibleUnder(card)) {
                    val b = boundsIn(c, card)
                    assertTrue(b.x >= 0 && b.x + b.width <= card.width, "$name: ${c.javaClass.simpleName} ${(c as? JComponent)?.let(::describe)} spans ${b.x}..${b.x + b.width} in a card of ${card.width} px")
                }
            }
            // The rest of the window keeps to its width too: status line, tasks, empty state, fallback.
            for (part in listOf(panel.statusLine, panel.tasks, panel.emptyState, panel.fallback, panel.input)) {
                if (!part.isVisible || part.width == 0) continue
                for (c in visibleUnder(part)) {
                    val b = boundsIn(c, part)
                    assertTrue(b.x >= 0 && b.x + b.width <= part.width, "$name: ${c.javaClass.simpleName} ${(c as? JComponent)?.let(::describe)} spans ${b.x}..${b.x + b.width} in ${part.javaClass.simpleName} of ${part.width} px")
                }
            }
        }
    }

    @Test
    fun `at 340 and 420 px a card header's wrapped text breaks only between words - a command waiting for approval or a URL moves to a line of its own`() = onEdt {
        var checked = 0
        for (width in listOf(340, 420)) {
            for ((name, build) in scenes) {
                val panel = laidOut(build, width)
                for (header in cards(panel).flatMap { visibleUnder(it) }.filterIsInstance<CardHeader>()) {
                    for (text in visibleUnder(header).filterIsInstance<TextBlock>().filter { it.parent === header && it.plainText.isNotBlank() }) {
                        checked++
                        // A word wider than the header itself has to break; every other one must fit its line.
                        val room = minOf(text.widestWord, header.width)
                        assertTrue(text.width >= room, "$name at $width px: \"${text.plainText.take(60)}\" is ${text.width} px wide, its widest word ${text.widestWord} px")
                    }
                }
            }
        }
        assertTrue(checked > 0, "no header text was checked: the approval scenes must have some")
    }

    private fun describe(c: JComponent): String = when (c) {
        is javax.swing.JLabel -> "\"${c.text}\""
        is TextBlock -> "\"${c.plainText.take(40)}\""
        is JButton -> "[${c.text}]"
        else -> ""
    }

    @Test
    fun `a running command keeps its command visible at 340 px - text cut at the end, whole in the tooltip - and its controls become icon buttons`() = onEdt {
        for (width in listOf(340, 420)) {
            val panel = laidOut(Scenes::session, width)
            val card = panel.feed.card("c9") as BashCard
            assertTrue(card.isRunning)
            val label = card.commandLabel
            assertTrue(label.isShowingIn(card), "the command label is on the card")
            assertTrue(label.width >= 60, "at $width px the command keeps ${label.width} px")
            val command = boundsIn(label, card.header)
            val status = boundsIn(card.statusLabel, card.header)
            assertTrue(command.x + command.width <= status.x || status.y >= command.y + command.height, "the status sits after the command or on the description's line, never over it")
            for (c in listOf(card.moveAction.iconButton, card.stopAction.iconButton)) assertTrue(command.x + command.width <= boundsIn(c, card.header).x, "controls sit after the command")
            assertEquals("cargo build --release", label.toolTipText)
            assertTrue(card.header.compact, "at $width px the controls are icon buttons")
            assertTrue(card.moveAction.iconButton.isShowingIn(card) && card.stopAction.iconButton.isShowingIn(card))
            assertFalse(card.moveAction.textButton.isShowingIn(card))
            assertTrue(card.moveAction.iconButton.toolTipText.startsWith("Move to Background"), card.moveAction.iconButton.toolTipText)
        }
        val wide = laidOut(Scenes::session, 820).feed.card("c9") as BashCard
        assertFalse(wide.header.compact, "with room, the controls are text buttons")
        assertTrue(wide.moveAction.textButton.isShowingIn(wide) && !wide.moveAction.iconButton.isShowingIn(wide))
    }

    @Test
    fun `a bullet list with a hanging indent paints each line once - its first line is no heavier than the same text without the indent`() = onEdt {
        // One line, so both start at x = 0: the pixels must be the same. Swing's ParagraphView drew the
        // first row of a negative first-line indent twice, which antialiased text shows as darker.
        fun rendered(indent: Int) = paint(TextBlock("• /usr/bin/node (PATH): not found", Tone.SECONDARY, small = true).apply { hangingIndent = indent }, Dimension(320, 24))
        val plain = rendered(0)
        val hanging = rendered(10)
        val differing = (0 until 320).sumOf { x -> (0 until 24).count { y -> plain.getRGB(x, y) != hanging.getRGB(x, y) } }
        assertTrue((0 until 320).any { x -> (0 until 24).any { y -> plain.getRGB(x, y) != plain.getRGB(0, 0) } }, "the text was painted")
        assertEquals(0, differing, "pixels that differ")
    }

    @Test
    fun `text wraps at spaces - never inside a version, a name like Node_js or an option like -rf - even with a bullet in it`() = onEdt {
        val path = "/home/dev/.nvm/versions/node/v16.20.2/bin/node"
        val text = "• $path (nvm): Node.js v16.20.2 is too old (20 or newer is needed); rm -rf /tmp/build"
        val pathEnd = text.indexOf(path) + path.length
        for (width in 120..420 step 7) {
            val block = TextBlock(text, Tone.SECONDARY, small = true).apply { hangingIndent = 10 }
            repeat(2) { layoutTree(block, Dimension(width, 400)) }
            block.setSize(width, block.preferredSize.height)
            block.doLayout()
            val lineEnds = (0 until block.document.length).groupBy { block.modelToView2D(it).bounds.y }.values.map { it.last() + 1 }.dropLast(1)
            assertTrue(lineEnds.isNotEmpty(), "wrapped at $width px")
            // The path alone may be wider than a line, and is then cut where the line ends; nothing after it may be.
            for (end in lineEnds.filter { it > pathEnd }) {
                assertEquals(' ', text[end - 1], "at $width px a line ends inside a word: \"${text.substring(0, end).takeLast(24)}\"")
            }
        }
    }

    @Test
    fun `warnings and reasons wrap at narrow widths instead of being cut`() = onEdt {
        val panel = laidOut(Scenes::approvals, 340)
        val warning = panel.feed.approvals().flatMap { it.warningBlocks }.first()
        val oneLine = warning.getFontMetrics(warning.font).height
        assertTrue(warning.height >= 2 * oneLine, "the warning takes ${warning.height} px: it wraps (one line is $oneLine)")
        val card = SwingUtilities.getAncestorOfClass(CardPanel::class.java, warning)
        assertTrue(boundsIn(warning, card).let { it.x + it.width } <= card.width)
    }

    @Test
    fun `every button, link and icon button's action in every scene, at every width, is in Title Case`() = onEdt {
        val seen = mutableSetOf<String>()
        for ((name, build) in scenes) for (width in listOf(340, 820)) {
            val panel = laidOut(build, width)
            val texts = descendants(panel).flatMap { c ->
                when (c) {
                    is JButton -> listOfNotNull(c.text)
                    is LinkLabel -> listOfNotNull(c.text.takeIf { !c.isData })
                    is IconButton -> listOfNotNull(c.getAccessibleContext().accessibleName)
                    else -> emptyList()
                }
            }.filter { it.isNotBlank() }
            for (t in texts) assertTrue(TextRules.isTitleCase(t), "$name at $width px: \"$t\" is not in Title Case (${TextRules.titleCaseViolations(t)})")
            seen += texts
        }
        for (expected in listOf("Move to Background", "Stop", "Allow Once", "Always Allow…", "Deny", "Show Diff", "Show All", "Run a Command", "Choose Node.js…", "Download Node.js for Wave Tools", "Show Log", "Soft-Wrap")) {
            assertTrue(expected in seen, "the scenes show \"$expected\" (saw ${seen.sorted()})")
        }
    }

    @Test
    fun `a long output shows its first and last lines whole, with how many are left out between, and no scrollbar of its own`() = onEdt {
        val feed = SessionFeed(FakeActions())
        feed.toolStarted(Scenes.started("long", "Bash", mapOf("command" to "seq 100"), "2026-01-01T00:00:00Z"))
        val output = (1..100).joinToString("\n", postfix = "\n")
        feed.toolFinished(Scenes.finished("long", "Bash", mapOf("success" to true, "exitCode" to 0, "output" to output, "durationMs" to 5), durationMs = 5))
        repeat(3) { layoutTree(feed, Dimension(600, 3000)) }
        val card = feed.card("long") as BashCard
        val area = card.output!!.parent.parent as OutputArea
        val lines = card.output!!.plainText.lines()
        assertEquals((1..BashCard.HEAD_LINES).map { "$it" }, lines.take(BashCard.HEAD_LINES))
        assertEquals("⋯ ${100 - BashCard.HEAD_LINES - BashCard.TAIL_LINES} lines not shown ⋯", lines[BashCard.HEAD_LINES])
        assertEquals((100 - BashCard.TAIL_LINES + 1..100).map { "$it" }, lines.drop(BashCard.HEAD_LINES + 1))
        assertEquals(area.pane.preferredSize.height, area.viewport.extentSize.height, "the whole text shows: nothing to scroll inside the card")
        assertFalse(area.verticalScrollBar.isVisible)
        assertEquals("Show All", card.footer.find<LinkLabel>().single().text)
        card.footer.find<LinkLabel>().single().click()
        feed.cards().forEach { it.dispose() }
    }

    @Test
    fun `soft-wrap - on by default, long lines wrap - off, they scroll sideways in their area alone, for every output at once from the toolbar`() = onEdt {
        val panel = laidOut(Scenes::session, 340)
        val card = panel.feed.card("c1") as BashCard
        val area = card.output!!.parent.parent as OutputArea
        assertTrue(panel.softWrap.enabled, "wrapping is the default")
        assertFalse(area.horizontalScrollBar.isVisible, "wrapped: nothing to scroll sideways")
        assertTrue(area.pane.width <= area.viewport.width, "the text is as wide as its frame")
        val toggle = panel.iconToolbar.button("WaveTools.SoftWrap")!!
        assertTrue(toggle.selected)
        toggle.click()
        repeat(3) { layoutTree(panel, Dimension(340, 2400)) }
        assertFalse(panel.softWrap.enabled || toggle.selected)
        assertTrue(area.horizontalScrollBar.isVisible, "a test summary line is wider than 340 px")
        assertFalse(area.verticalScrollBar.isVisible)
        (panel.feed.card("c3") as CompactCard).setExpanded(true)
        val other = (panel.feed.card("c3") as CompactCard).find<OutputPane>().single()
        assertFalse(other.softWrap, "the setting is the tool window's, not one card's")
        assertTrue(card.footer.find<IconButton>().isEmpty(), "no soft-wrap button in a card's footer")
    }

    @Test
    fun `a theme change restyles a card already on screen - colours, fonts, the output's ANSI colours - and it paints in the new theme`() {
        val (panel, before) = onEdt {
            val p = Scenes.session()
            p.feedScroll.viewport.viewPosition = java.awt.Point(0, 0)
            p to paint(p, Dimension(600, 900))
        }
        try {
            onEdt {
                val card = panel.feed.card("c1") as BashCard
                val light = TestThemes.light
                assertEquals(light.error, card.statusLabel.foreground)
                assertEquals(light.outputBackground, card.output!!.background)
                val at1 = card.output!!.plainText.indexOf("1 failed")
                val redBefore = javax.swing.text.StyleConstants.getForeground(card.output!!.styledDocument.getCharacterElement(at1).attributes)

                WaveTheme.install(TestThemes.dark)

                val dark = TestThemes.dark
                assertEquals(dark.error, card.statusLabel.foreground, "the status colour follows the theme")
                assertEquals(dark.outputBackground, card.output!!.background)
                assertEquals(dark.monoFont, card.output!!.font)
                val redNow = javax.swing.text.StyleConstants.getForeground(card.output!!.styledDocument.getCharacterElement(at1).attributes)
                // What a pane made fresh in the dark theme shows at the same place.
                val fresh = OutputPane(card.output!!.source)
                assertEquals(javax.swing.text.StyleConstants.getForeground(fresh.styledDocument.getCharacterElement(at1).attributes), redNow, "rendered again in the scheme's console colours")
                assertNotEquals(redBefore, redNow)
                assertEquals(dark.background, panel.feed.background)
                panel.feedScroll.viewport.viewPosition = java.awt.Point(0, 0)
                val after = paint(panel, Dimension(600, 900))
                val at = SwingUtilities.convertPoint(card, 4, card.height / 2, panel)
                assertTrue(at.y in 0 until 900, "the card is on screen at ${at.y}")
                assertNotEquals(before.getRGB(at.x, at.y), after.getRGB(at.x, at.y))
                assertEquals(dark.cardBackground.rgb, after.getRGB(at.x, at.y), "the card's fill is the dark theme's")
            }
        } finally {
            onEdt { panel.dispose(); TestThemes.install(TestThemes.light) }
        }
    }

    @Test
    fun `a disposed panel no longer follows the theme`() = onEdt {
        val panel = Scenes.emptyState()
        panel.dispose()
        WaveTheme.install(TestThemes.dark)
        assertEquals(TestThemes.light.background, panel.feed.background, "no listener left behind")
        TestThemes.install(TestThemes.light)
    }

    @Test
    fun `at 340 px an approval's buttons wrap onto a second line rather than run past the card`() = onEdt {
        val feed = SessionFeed(FakeActions())
        feed.toolStarted(Scenes.started("x", "Bash", mapOf("command" to "make deploy"), "2026-01-01T00:00:00Z"))
        val prompt = PermissionPrompt(callId = "x", command = "make deploy", reason = "No rule allows `make deploy`.", warnings = listOf(PermissionWarning("w", "A very long warning about what this command would do to the machine it runs on.")))
        val view = feed.permissionAsked(ApprovalModel("q", prompt) { true })
        val card = feed.card("x")!!
        feed.setSize(340, 2000)
        repeat(3) { layoutTree(feed, Dimension(340, 2000)) }
        for (b in listOf(view.allowOnceButton, view.alwaysAllowButton, view.denyButton)) {
            val r = boundsIn(b, card)
            assertTrue(r.x >= 0 && r.x + r.width <= card.width, "${b.text} at ${r.x}..${r.x + r.width} in ${card.width}")
        }
        // Finish the call: the question is withdrawn and the card keeps to its width.
        feed.toolFinished(ToolFinished("x", "main", "Bash", true, 1, Json.decode<CallToolResult>(Json.encode(mapOf("content" to emptyList<Any>())))))
        assertTrue(view.model.state is ApprovalModel.State.Withdrawn)
    }
}
