package dev.wavetools.wave.ui

import com.google.gson.JsonParser
import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.CoreLaunch
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.ShellCommandResult
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.bridge.ToolErrorKind
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.attribute.FileTime
import java.time.Instant
import java.util.concurrent.TimeUnit

/**
 * The error kinds of the real bundled core (node-core/PROTOCOL.md, "Error kinds") read into
 * [ToolErrorKind], and the headline each failed card shows for them, from failures provoked with
 * real files and real commands.
 */
class ErrorKindCardsTest {
    private val root = TestSupport.workspace()
    private val recorders = mutableListOf<LiveRecorder>()

    @AfterEach
    fun cleanup() {
        recorders.forEach { it.close() }
        TestSupport.deleteTree(root)
    }

    private fun recorder(launch: CoreLaunch = TestSupport.launchWithoutProbe(root)) = LiveRecorder(root, launch).also { recorders += it }

    private fun LiveRecorder.call(name: String, arguments: Map<String, Any?>): CallToolResult =
        api.callTool(name, arguments).result.get(60, TimeUnit.SECONDS)

    /** The feed the tool window would show for what [live] recorded, and its card for the last call. */
    private fun lastCard(live: LiveRecorder): ToolCallCard {
        val panel = onEdt { WavePanel(object : HostServices {}, FakeActions(), onRun = {}, onRetry = {}) }
        RecordedSession.play(panel, live.recording())
        return onEdt { panel.feed.cards().last() }
    }

    @Test
    fun `an Edit of a file changed since it was read is STALE, and its card says so`() {
        val live = recorder()
        val file = root.resolve("notes.txt")
        assertFalse(live.call("Read", mapOf("file_path" to file.toString())).isError)
        Files.writeString(file, "changed by another program\n")
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)))
        val result = live.call("Edit", mapOf("file_path" to file.toString(), "old_string" to "changed", "new_string" to "edited"))
        assertEquals(ToolErrorKind.STALE, ToolErrorKind.of(result), result.text)
        assertEquals("changed by another program\n", Files.readString(file), "nothing was changed")
        val card = lastCard(live) as EditCard
        onEdt {
            assertEquals("File changed since it was read", card.statusLabel.text)
            assertEquals(Tone.ERROR, card.statusLabel.tone)
            assertTrue(card.find<TextBlock> { it.plainText.contains("Read it again") }.isNotEmpty(), "the core's advice stays on the card")
        }
    }

    @Test
    fun `a Read of a missing file is NOT_FOUND, and its compact card reads Not found with the core's text in the tooltip`() {
        val live = recorder()
        val result = live.call("Read", mapOf("file_path" to "missing.txt"))
        assertEquals(ToolErrorKind.NOT_FOUND, ToolErrorKind.of(result), result.text)
        val card = lastCard(live) as CompactCard
        onEdt {
            assertEquals("missing.txt  ·  Not found", card.summaryLabel.text)
            assertEquals(Tone.ERROR, card.summaryLabel.tone)
            assertTrue(card.summaryLabel.toolTipText!!.startsWith(result.text.lines().first()), card.summaryLabel.toolTipText)
        }
    }

    @Test
    fun `a command a deny rule names is DENIED_BY_POLICY, runs nothing, and its card reads Denied by a rule`() {
        val launch = TestSupport.launchWithoutProbe(root).let { it.copy(extraArgs = it.extraArgs + listOf("--deny", "touch:*")) }
        val live = recorder(launch)
        val result = live.bash("touch denied.txt")
        val r = BashResult.from(result)
        assertEquals(ToolErrorKind.DENIED_BY_POLICY, r.errorKind, result.text)
        assertFalse(Files.exists(root.resolve("denied.txt")))
        val card = lastCard(live) as BashCard
        onEdt {
            assertEquals("Denied by a rule", card.statusLabel.text)
            assertEquals(Tone.ERROR, card.statusLabel.tone)
        }
    }

    @Test
    fun `sandbox mode on without a usable bubblewrap refuses both shell tools as SANDBOX_UNAVAILABLE`() {
        val launch = TestSupport.launchWithoutProbe(root, mapOf("WAVE_BWRAP" to "/nonexistent/bwrap")).let { it.copy(extraArgs = it.extraArgs + listOf("--sandbox", "on")) }
        val live = recorder(launch)
        val bash = live.bash("touch ran.txt")
        assertEquals(ToolErrorKind.SANDBOX_UNAVAILABLE, BashResult.from(bash).errorKind, bash.text)
        assertEquals("Sandbox unavailable", onEdt { (lastCard(live) as BashCard).statusLabel.text })
        val shell = live.call("run_shell_command", mapOf("command" to "touch ran.txt"))
        assertEquals(ToolErrorKind.SANDBOX_UNAVAILABLE, ShellCommandResult.from(shell).kind, shell.text)
        assertEquals("Sandbox unavailable", onEdt { (lastCard(live) as ShellCommandCard).statusLabel.text })
        assertFalse(Files.exists(root.resolve("ran.txt")))
    }

    @Test
    fun `a command that ran and failed keeps its exit code as the headline, and its kind says it was the command`() {
        val live = recorder()
        val r = BashResult.from(live.bash("exit 3"))
        assertEquals(ToolErrorKind.COMMAND_FAILED, r.errorKind)
        assertTrue(r.errorKind!!.isCommandOutcome)
        assertEquals("Exit 3", onEdt { (lastCard(live) as BashCard).statusLabel.text })
        val ok = BashResult.from(live.bash("true"))
        assertNull(ok.errorKind, "a success has no kind")
    }

    @Test
    fun `a kind this plugin does not know is UNKNOWN and reads Failed, an error without one too, and a success has none`() {
        fun result(structured: String, isError: Boolean) =
            CallToolResult(structuredContent = JsonParser.parseString(structured).asJsonObject, isError = isError)
        assertEquals(ToolErrorKind.UNKNOWN, ToolErrorKind.of(result("""{"errorKind":"quantum_flux","error":"?"}""", true)))
        assertEquals(ToolErrorKind.UNKNOWN, ToolErrorKind.of(result("""{"error":"?"}""", true)))
        assertEquals(ToolErrorKind.UNKNOWN, ToolErrorKind.of(result("""{"errorKind":{"nested":true}}""", true)))
        assertNull(ToolErrorKind.of(result("""{"errorKind":null}""", false)))
        assertEquals("Failed", ToolErrorKind.UNKNOWN.headline())
        val shell = Json.decode<ShellCommandResult>(JsonParser.parseString("""{"error":"odd","errorKind":"from_the_future"}"""))
        assertEquals(ToolErrorKind.UNKNOWN, shell.kind)
        assertNull(Json.decode<ShellCommandResult>(JsonParser.parseString("""{"error":null,"errorKind":null}""")).kind)
    }

    @Test
    fun `the enum names exactly the kinds PROTOCOL md documents, and each has a headline`() {
        val doc = Files.readString(TestSupport.repoRoot.resolve("node-core/PROTOCOL.md"))
        val start = doc.indexOf("\n## Error kinds")
        assertTrue(start > 0, "PROTOCOL.md has an Error kinds section")
        val section = doc.substring(start, doc.indexOf("\n## ", start + 1))
        val documented = Regex("""^\| `([a-z_]+)` \|""", RegexOption.MULTILINE).findAll(section).map { it.groupValues[1] }.toSet()
        val known = ToolErrorKind.entries.filter { it != ToolErrorKind.UNKNOWN }
        assertEquals(documented, known.map { it.wire }.toSet())
        for (kind in known) {
            assertEquals(kind, ToolErrorKind.fromWire(kind.wire))
            val headline = kind.headline()
            assertTrue(headline.isNotBlank() && headline.length <= 40 && !headline.endsWith("."), "$kind: \"$headline\"")
        }
    }
}
