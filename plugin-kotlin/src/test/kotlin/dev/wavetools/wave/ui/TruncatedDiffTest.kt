package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.CoreProcess
import dev.wavetools.wave.bridge.DiffLine
import dev.wavetools.wave.bridge.DiffTexts
import dev.wavetools.wave.bridge.EditDiffAdapter
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.bridge.WaveCoreApi
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * FS-EDIT-3, bounded: the diffs a real core shortens — a 2 MB single-line Write, a whole file
 * replaced — read by the bridge, painted by the diff view and opened as changed regions.
 */
class TruncatedDiffTest {
    private val root: Path = TestSupport.workspace()
    private var proc: CoreProcess? = null

    @AfterEach
    fun cleanup() {
        proc?.stop()
        TestSupport.deleteTree(root)
    }

    private fun api(): WaveCoreApi {
        val p = CoreProcess.start(TestSupport.launchWithoutProbe(root), RecordingLog(), TestSupport.scheduler).also { proc = it }
        return WaveCoreApi(p.rpc).also { it.initialize(InitializeParams(hostInfo = HostInfo("kotlin-truncated-diff-test"))).get(30, TimeUnit.SECONDS) }
    }

    private fun WaveCoreApi.call(name: String, args: Map<String, Any?>): CallToolResult =
        callTool(name, args).result.get(60, TimeUnit.SECONDS).also { assertFalse(it.isError, it.text) }

    @Test
    fun `a 2 MB single-line Write - both lines cut with their full length, a bounded reply, regions only in the viewer`() {
        val file = root.resolve("one-line.txt")
        val old = (1..300_000).joinToString(" ") { "w$it" }
        val new = (1..300_000).joinToString(" ") { "v$it" }
        Files.writeString(file, old)
        val api = api()
        api.call("Read", mapOf("file_path" to file.toString(), "limit" to 1))
        val result = api.call("Write", mapOf("file_path" to file.toString(), "content" to new))
        assertTrue(Json.encode(result).toString().length < 100_000, "the reply is bounded")

        val diff = EditDiffAdapter.from(result)!!
        assertTrue(diff.truncated)
        assertEquals(listOf(1, 1, 2, 0, 0), listOf(diff.linesAdded, diff.linesRemoved, diff.linesCut, diff.hunksOmitted, diff.linesOmitted))
        val (removed, added) = diff.hunks.single().lines
        assertEquals(DiffLine.Kind.REMOVED, removed.kind)
        assertEquals(old.length, removed.fullLength)
        assertTrue(removed.cut && added.cut)
        assertTrue(removed.text.length <= 1000 && old.startsWith(removed.text), "the start of the old line")
        assertTrue(new.startsWith(added.text))

        val texts = DiffTexts.of(diff, Files.readString(file))
        assertFalse(texts.wholeFile, "a shortened diff cannot rebuild the whole file")
        assertEquals("${removed.text} ${DiffTexts.REGION_SEPARATOR}", texts.before)
        assertEquals("${added.text} ${DiffTexts.REGION_SEPARATOR}", texts.after)

        val view = onEdt { DiffView(diff) }
        assertEquals(listOf(removed, added), view.rows.map { it.line })
    }

    @Test
    fun `a whole file replaced - the start of what went and of what came, a separator where lines were left out`() {
        val file = root.resolve("lines.txt")
        Files.writeString(file, (1..5000).joinToString("") { "old line $it\n" })
        val api = api()
        api.call("Read", mapOf("file_path" to file.toString(), "limit" to 1))
        val diff = EditDiffAdapter.from(api.call("Write", mapOf("file_path" to file.toString(), "content" to (1..5000).joinToString("") { "new line $it\n" })))!!
        assertTrue(diff.truncated)
        assertEquals(5000, diff.linesAdded)
        assertEquals(5000, diff.linesRemoved)
        val hunk = diff.hunks.single()
        assertEquals(10_000 - hunk.lines.size, hunk.linesOmitted)
        assertEquals(diff.linesOmitted, hunk.linesOmitted)
        val removed = hunk.lines.filter { it.kind == DiffLine.Kind.REMOVED }
        val added = hunk.lines.filter { it.kind == DiffLine.Kind.ADDED }
        assertTrue(removed.isNotEmpty() && added.isNotEmpty(), "both sides are shown")
        assertEquals((1..removed.size).map { "old line $it" }, removed.map { it.text })
        assertEquals((1..added.size).map { "new line $it" to it }, added.map { it.text to it.newNumber })

        val view = onEdt { DiffView(diff) }
        // One separator after the removed lines shown, none after the last line.
        val separators = view.rows.withIndex().filter { it.value.separator }.map { it.index }
        assertEquals(listOf(removed.size), separators)
        assertEquals(hunk.lines, view.rows.mapNotNull { it.line })

        val texts = DiffTexts.of(diff, Files.readString(file))
        assertFalse(texts.wholeFile)
        assertEquals(removed.map { it.text }, texts.before.lines())
        assertEquals(added.map { it.text }, texts.after.lines())
    }
}
