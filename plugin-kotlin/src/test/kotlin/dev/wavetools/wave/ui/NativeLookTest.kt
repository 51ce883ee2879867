package dev.wavetools.wave.ui

import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.awt.Color
import java.awt.Component
import java.awt.Dimension
import java.awt.Rectangle
import java.awt.image.BufferedImage
import javax.swing.JButton
import javax.swing.JScrollPane
import javax.swing.SwingUtilities

/**
 * The measurable parts of "looks like it belongs" (issue 25), on the scenes the screenshots show,
 * at 340, 420 and 820 px, in the New UI Light and Dark themes: one row of session tabs, no control
 * alone on a row, every card's title at one x, no scrolling inside the feed, text colours that
 * reach WCAG AA, and the icons the IDE will show (the plugin's own drawn from its files).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NativeLookTest {
    private val widths = listOf(340, 420, 820)
    private val scenes: Map<String, () -> WavePanel> = mapOf(
        "session" to Scenes::session,
        "approvals" to Scenes::approvals,
        "shell-command" to Scenes::shellCommand,
        "tasks" to Scenes::tasks,
        "agent-session" to Scenes::agentSession,
    )

    @BeforeAll
    fun lightTheme() = onEdt { TestThemes.install(TestThemes.light) }

    @AfterAll
    fun lookAndFeelTheme() = onEdt { WaveTheme.install(Theme.fromLookAndFeel()) }

    private val made = mutableListOf<WavePanel>()

    @AfterEach
    fun disposePanels() = onEdt {
        made.forEach { it.dispose() }
        made.clear()
        TestThemes.install(TestThemes.light)
    }

    private fun laidOut(build: () -> WavePanel, width: Int): WavePanel =
        build().also { p -> made += p; repeat(3) { layoutTree(p, Dimension(width, 2400)) } }

    private fun boundsIn(c: Component, root: Component): Rectangle = SwingUtilities.convertRectangle(c.parent, c.bounds, root)

    /** Every card of the tab that shows, in the order of the feed. */
    private fun cards(panel: WavePanel): List<CardPanel> = panel.visibleFeed.components.filterIsInstance<CardPanel>()

    private fun forEachScene(block: (name: String, width: Int, panel: WavePanel) -> Unit) {
        for (theme in listOf(TestThemes.light, TestThemes.dark)) {
            onEdt { TestThemes.install(theme) }
            for ((name, build) in scenes) for (width in widths) onEdt { block("$name at $width px (${theme.name})", width, laidOut(build, width)) }
        }
    }

    @Test
    fun `the session tabs are one row at every width - tabs that do not fit go behind the overflow button, the selected one stays`() {
        forEachScene { where, _, panel ->
            val strip = panel.sessions.strip
            if (!strip.isVisible) return@forEachScene
            val tabs = strip.shownTabs()
            assertEquals(1, tabs.map { it.y }.distinct().size, "$where: the tabs sit on one row")
            assertEquals(tabs.maxOf { it.preferredSize.height }, strip.height - strip.insets.top - strip.insets.bottom, "$where: the strip is one tab high")
            assertTrue(tabs.all { it.x + it.width <= strip.width }, "$where: no tab runs past the strip")
            assertTrue(tabs.any { it.isSelected }, "$where: the selected tab is in the row")
            assertEquals(strip.hiddenTabs().isNotEmpty(), strip.overflow.isVisible, "$where: the overflow button is there exactly when tabs are hidden")
            assertTabTitlesOnOneLine(strip, where)
        }
        // Narrower than the tabs: one row still, the rest behind the button; narrower than the
        // selected tab alone: its title is cut with an ellipsis on its line, clear of the button.
        for (width in listOf(200, 150, 110)) onEdt {
            val panel = laidOut(Scenes::agentSession, width)
            val strip = panel.sessions.strip
            assertTrue(strip.hiddenTabs().isNotEmpty() && strip.overflow.isVisible, "at $width px: tabs are hidden behind the button")
            assertEquals(1, strip.shownTabs().map { it.y }.distinct().size)
            assertTabTitlesOnOneLine(strip, "at $width px")
        }
    }

    /** A tab's badge, title and close button stay inside its row and before the overflow button. */
    private fun assertTabTitlesOnOneLine(strip: TabStrip, where: String) {
        for (tab in strip.shownTabs()) {
            for (part in tab.components.filter { it.isVisible }) {
                assertTrue(part.y >= 0 && part.y + part.height <= tab.height, "$where: ${part.javaClass.simpleName} of tab '${tab.title}' sits inside the tab's row (y ${part.y}, height ${part.height}, row ${tab.height})")
                assertTrue(part.height >= part.preferredSize.height, "$where: ${part.javaClass.simpleName} of tab '${tab.title}' gets its full height")
            }
            if (strip.overflow.isVisible) assertTrue(tab.x + tab.width <= strip.overflow.x, "$where: tab '${tab.title}' ends before the overflow button")
        }
    }

    @Test
    fun `no control sits alone on a row - Allow Once, Always Allow and Deny share one row at every width, and a card's controls share its title's line`() {
        var questions = 0
        forEachScene { where, _, panel ->
            for (view in panel.visibleFeed.approvals().filter { it.model.state == ApprovalModel.State.Asking }) {
                questions++
                val shown = view.buttons.shown()
                assertTrue(shown.size >= 2, "$where: ${shown.map { it.text }}")
                assertEquals(1, shown.map { boundsIn(it, view).y }.distinct().size, "$where: ${shown.map { it.text }} on one row")
                assertTrue(view.denyButton in shown, "$where: Deny is always there")
                val right = shown.maxOf { boundsIn(it, view).let { b -> b.x + b.width } }
                assertTrue(right <= view.width, "$where: the row fits the question ($right of ${view.width} px)")
                assertEquals(view.buttons.folded, view.allowOnceButton.optionsShown, "$where: folded, Always Allow… is in Allow Once's menu")
            }
            for (card in cards(panel)) {
                val header = card.find<CardHeader>().firstOrNull() ?: continue
                val line = boundsIn(header.statusIcon, card)
                for (b in card.find<IconButton>().filter { it.isShowingIn(card) && SwingUtilities.isDescendingFrom(it, header) }) {
                    val r = boundsIn(b, card)
                    assertTrue(r.y < line.y + line.height && r.y + r.height > line.y, "$where: ${b.toolTipText} sits on the title's line")
                }
                for (b in card.find<JButton>().filter { it.isShowingIn(card) && SwingUtilities.isDescendingFrom(it, header) }) {
                    val r = boundsIn(b, card)
                    assertTrue(r.y < line.y + line.height && r.y + r.height > line.y, "$where: [${b.text}] sits on the title's line")
                }
            }
        }
        assertTrue(questions >= 10, "the scenes ask questions at every width ($questions)")
        // At 340 px the three do not fit: Always Allow… folds into Allow Once; at 820 px they are three.
        onEdt {
            val narrow = laidOut(Scenes::approvals, 340).feed.approvals().first { it.model.isOpen && it.model.state == ApprovalModel.State.Asking }
            assertTrue(narrow.buttons.folded)
            assertEquals(listOf("Allow Once", "Deny"), narrow.buttons.shown().map { it.text })
            val wide = laidOut(Scenes::approvals, 820).feed.approvals().first { it.model.isOpen && it.model.state == ApprovalModel.State.Asking }
            assertEquals(listOf("Allow Once", "Always Allow…", "Deny"), wide.buttons.shown().map { it.text })
        }
    }

    @Test
    fun `every card of a feed starts its title at the same x - Bash, run_shell_command, Read, Grep, Edit, Write, questions and decisions`() {
        val kinds = mutableSetOf<String>()
        forEachScene { where, _, panel ->
            val xs = cards(panel).mapNotNull { card ->
                val header = card.find<CardHeader>().firstOrNull() ?: return@mapNotNull null
                kinds += card.javaClass.simpleName
                // The first part of the title: the tool's name (Read, Edit) or the command itself.
                val first = header.components.filter { it.isVisible && it !== header.statusIcon }.minByOrNull { boundsIn(it, card).x }!!
                assertEquals(boundsIn(header, card).x + header.titleX, boundsIn(first, card).x, "$where: ${card.javaClass.simpleName}'s title starts at the header's title x")
                boundsIn(first, card).x
            }
            assertEquals(1, xs.distinct().size, "$where: titles at $xs")
            // Every card that can fold has its chevron at the right end of its first line.
            for (card in cards(panel).filterIsInstance<ToolCallCard>().filter { it.chevron.isVisible }) {
                val header = card.find<CardHeader>().first()
                val chevron = boundsIn(card.chevron, header)
                assertTrue(header.components.filter { it.isVisible && it !== card.chevron }.none { boundsIn(it, header).x > chevron.x && boundsIn(it, header).y < chevron.y + chevron.height }, "$where: the chevron is last on its line")
                assertTrue(chevron.x + chevron.width >= header.width - 2, "$where: at the right end")
            }
        }
        assertTrue(kinds.containsAll(listOf("BashCard", "ShellCommandCard", "CompactCard", "EditCard", "ApprovalCard", "DecisionCard")), "$kinds")
    }

    @Test
    fun `nothing scrolls up and down inside the feed - outputs and diffs show their whole (bounded) height, and the wheel goes to the feed`() {
        var areas = 0
        forEachScene { where, _, panel ->
            // A multi-line input (the rules being edited) is a field with its own scrolling, not output.
            for (scroll in panel.visibleFeed.find<JScrollPane>().filter { (it.viewport.view as? javax.swing.text.JTextComponent)?.isEditable != true }) {
                areas++
                assertEquals(JScrollPane.VERTICAL_SCROLLBAR_NEVER, scroll.verticalScrollBarPolicy, "$where: ${scroll.javaClass.simpleName}")
                assertFalse(scroll.verticalScrollBar.isVisible)
                val view = scroll.viewport.view
                if (scroll.isShowingIn(panel) && view != null) assertTrue(scroll.viewport.extentSize.height >= view.preferredSize.height, "$where: ${scroll.javaClass.simpleName} shows all ${view.preferredSize.height} px (${scroll.viewport.extentSize.height})")
                assertFalse(scroll.horizontalScrollBar.isVisible && panel.softWrap.enabled, "$where: wrapped, nothing scrolls sideways either")
            }
        }
        assertTrue(areas > 20, "outputs and diffs were checked ($areas)")
    }

    @Test
    fun `text colours reach WCAG AA (4_5 to 1) on every background they are drawn on, computed from the theme colours`() {
        for (theme in listOf(TestThemes.light, TestThemes.dark)) {
            val pairs = listOf(
                "text" to theme.foreground, "secondary" to theme.secondary, "link" to theme.link, "error" to theme.error,
                "warning" to theme.warning, "success" to theme.success, "running" to theme.running,
            )
            for ((name, color) in pairs) for (bg in theme.textBackgrounds) {
                val ratio = Contrast.ratio(color, bg)
                assertTrue(ratio >= Contrast.AA, "${theme.name}: $name ${hex(color)} on ${hex(bg)} is ${"%.2f".format(ratio)}:1")
            }
            // Secondary text also marks notes in outputs and the diff's line numbers.
            assertTrue(Contrast.ratio(theme.secondary, theme.outputBackground) >= Contrast.AA, "${theme.name}: secondary on the console")
            assertTrue(Contrast.ratio(theme.outputForeground, theme.outputBackground) >= Contrast.AA, "${theme.name}: output")
        }
        // The New UI's own greys fall short: Dark's Label.infoForeground #6F737A is 2.9:1 on #2B2D30.
        assertTrue(Contrast.ratio(Color(0x6F737A), Color(0x2B2D30)) < 3.0)
        assertTrue(Contrast.ratio(Color(0x818594), Color(0xF7F8FA)) < 3.5)
        // A colour that reads already is kept as it is.
        assertEquals(Color(0x000000), Contrast.readable(Color(0x000000), listOf(Color.WHITE), Color(0x333333)))
        // The fallback's Details in the dark theme, as painted: the grey the theme gives it, 4.5:1 or more.
        val dark = TestThemes.dark
        assertTrue(Contrast.ratio(dark.secondary, dark.background) >= Contrast.AA)
    }

    @Test
    fun `the icons are the IDE's - Move to Background is the plugin's own arrow drawn from its SVG, never the debugger's Resume`() = onEdt {
        for (theme in listOf(TestThemes.light, TestThemes.dark)) {
            TestThemes.install(theme)
            val icon = theme.icons.moveToBackground
            assertTrue(icon is ShippedIcon && icon.name == "moveToBackground", "$icon")
            val img = BufferedImage(16, 16, BufferedImage.TYPE_INT_ARGB)
            val g = img.createGraphics()
            icon.paintIcon(null, g, 0, 0)
            g.dispose()
            val ink = (0 until 16).flatMap { x -> (0 until 16).map { y -> Color(img.getRGB(x, y), true) } }.filter { it.alpha > 200 }
            assertTrue(ink.size > 15, "the arrow is drawn (${ink.size} px)")
            // In the New UI icon grey of the theme.
            val grey = if (theme.isDark) Color(0xCED0D6) else Color(0x6C707E)
            assertTrue(ink.all { kotlin.math.abs(it.red - grey.red) < 8 && kotlin.math.abs(it.green - grey.green) < 8 && kotlin.math.abs(it.blue - grey.blue) < 8 }, "${theme.name}: ${ink.map { hex(it) }.distinct()}")
            // The arrow points into the lower right corner, not right like ▶: ink on both sides of the diagonal's start.
            assertTrue(Color(img.getRGB(3, 3), true).alpha > 100 && Color(img.getRGB(10, 10), true).alpha > 100)
        }
    }

    @Test
    fun `the shipped SVGs use only what the drawing outside the IDE supports, and it refuses what it cannot draw`() {
        for (name in listOf("moveToBackground", "moveToBackground_dark")) {
            val d = SvgDrawing.load("/icons/$name.svg")
            assertEquals(16.0, d.width)
            assertEquals(16.0, d.height)
        }
        fun parse(svg: String) = SvgDrawing.parse(svg.byteInputStream(), "test.svg")
        assertThrows(IllegalArgumentException::class.java) { parse("""<svg viewBox="0 0 16 16"><path d="M1 1A2 2 0 0 1 5 5"/></svg>""") }
        assertThrows(IllegalArgumentException::class.java) { parse("""<svg viewBox="0 0 16 16"><text>x</text></svg>""") }
        assertThrows(IllegalArgumentException::class.java) { parse("""<svg viewBox="0 0 16 16"><path d="M1 1L2 2" transform="rotate(45)"/></svg>""") }
        // Relative commands and implicit line-tos after a move.
        val p = PathData.parse("m1 1 4 0 0 4h-4z")
        assertEquals(Rectangle(1, 1, 4, 4), p.bounds)
    }

    @Test
    fun `details read - an aligned list of names and selectable values in the editor font, an exit code above 128 names its signal, a cut text ends with the ellipsis`() = onEdt {
        val panel = laidOut(Scenes::shellCommand, 420)
        val card = panel.feed.card("r1") as ShellCommandCard
        val list = card.detailsList!!
        assertEquals(mapOf("Directory" to "web", "Background processes" to "node server.js (process 48213)", "Process group" to "48190"), list.values())
        val values = list.find<TextBlock>()
        assertTrue(values.all { it.selectable && it.isFocusable }, "values can be selected and copied")
        assertTrue(values.all { it.font.family == WaveTheme.current.monoFont.family }, "values in the editor font")
        assertTrue(list.find<ToneLabel>().all { it.font.family == WaveTheme.current.font.family }, "names in the UI font")
        assertEquals(1, values.map { boundsIn(it, list).x }.distinct().size, "the values line up")
        assertTrue(boundsIn(list, card).x > boundsIn(card.details!!.toggle, card).x, "indented under Details")

        val feed = SessionFeed(FakeActions())
        feed.toolStarted(Scenes.started("k", "Bash", mapOf("command" to "kill -TERM $$"), "2026-01-01T00:00:00Z"))
        feed.toolFinished(Scenes.finished("k", "Bash", mapOf("success" to false, "exitCode" to 143, "output" to "", "durationMs" to 3), isError = true, durationMs = 3))
        val killed = feed.card("k") as BashCard
        assertEquals("Exit 143", killed.statusLabel.text)
        assertTrue("Terminated by SIGTERM (143 = 128 + 15)" in killed.footer.texts(), killed.footer.texts().toString())
        assertEquals(CallState.FAILED, killed.statusIcon.state)
        feed.cards().forEach { it.dispose() }

        val label = MonoLabel("$ cargo build --release --target x86_64-unknown-linux-gnu")
        label.setSize(120, 20)
        paint(label, Dimension(120, 20))
        assertTrue(label.isCut)
        val fm = label.getFontMetrics(label.font)
        val shown = EllipsisLabel.clip(label.text, fm, 120)
        assertTrue(shown.endsWith("…") && !shown.endsWith("...") && fm.stringWidth(shown) <= 120, shown)
        assertEquals(label.text, label.toolTipText, "the whole text in the tooltip")
    }

    private fun hex(c: Color) = String.format("#%06X", c.rgb and 0xFFFFFF)
}
