package dev.wavetools.wave.bridge

import dev.wavetools.wave.ui.DiffView
import dev.wavetools.wave.ui.onEdt
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * FS-EDIT-3: the structured diff of a real core's Edit and Write results, read by the bridge; the
 * shortened ones (a 2 MB single-line Write, a whole file replaced) also painted and opened as regions.
 */
class EditDiffTest {
    private val root: Path = TestSupport.workspace()
    private var proc: CoreProcess? = null

    @AfterEach
    fun cleanup() {
        proc?.stop()
        TestSupport.deleteTree(root)
    }

    private fun api(): WaveCoreApi {
        val p = CoreProcess.start(TestSupport.launchWithoutProbe(root), RecordingLog(), TestSupport.scheduler).also { proc = it }
        return WaveCoreApi(p.rpc).also { it.initialize(InitializeParams(hostInfo = HostInfo("kotlin-diff-test"))).get(30, TimeUnit.SECONDS) }
    }

    private fun WaveCoreApi.call(name: String, args: Map<String, Any?>): CallToolResult =
        callTool(name, args).result.get(60, TimeUnit.SECONDS).also { assertFalse(it.isError, it.text) }

    @Test
    fun `an Edit's diff - hunk header, line numbers, and changed words as UTF-16 ranges past an emoji`() {
        val file = root.resolve("greet.ts")
        Files.writeString(file, (1..8).joinToString("") { "// $it\n" } + "const greeting = \"🙂 hello world\";\n" + "export default greeting;\n")
        val api = api()
        api.call("Read", mapOf("file_path" to file.toString()))
        val result = api.call("Edit", mapOf("file_path" to file.toString(), "old_string" to "hello world", "new_string" to "hello there"))
        val diff = EditDiffAdapter.from(result)!!
        assertEquals(file.toString(), diff.filePath)
        assertEquals(1, diff.linesAdded)
        assertEquals(1, diff.linesRemoved)
        assertFalse(diff.truncated)
        val hunk = diff.hunks.single()
        assertEquals(listOf(6, 5, 6, 5), listOf(hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines))
        val k = DiffLine.Kind.CONTEXT
        assertEquals(listOf(k, k, k, DiffLine.Kind.REMOVED, DiffLine.Kind.ADDED, k), hunk.lines.map { it.kind })
        assertEquals(listOf(6 to 6, 7 to 7, 8 to 8, 9 to null, null to 9, 10 to 10), hunk.lines.map { it.oldNumber to it.newNumber })
        val removed = hunk.lines[3]
        val added = hunk.lines[4]
        // 🙂 is two UTF-16 code units: the ranges are Kotlin string indices as they are.
        assertEquals(listOf("world"), removed.highlights.map { removed.text.substring(it) })
        assertEquals(listOf("there"), added.highlights.map { added.text.substring(it) })
    }

    @Test
    fun `a Write's diff, and results without one`() {
        val api = api()
        val file = root.resolve("notes.txt")
        api.call("Read", mapOf("file_path" to file.toString()))
        val result = api.call("Write", mapOf("file_path" to file.toString(), "content" to "hello from the workspace\nsecond line, changed\nthird line\n"))
        val diff = EditDiffAdapter.from(result)!!
        assertEquals(1, diff.linesAdded)
        assertEquals(1, diff.linesRemoved)
        assertEquals(listOf("second line", "second line, changed"), diff.hunks.single().lines.filter { it.kind != DiffLine.Kind.CONTEXT }.map { it.text })
        assertNull(EditDiffAdapter.from(api.call("Read", mapOf("file_path" to file.toString()))), "a Read has no diff")
    }

    @Test
    fun `Show Diff - undoing a real Edit's hunks on the file as it is gives back the file as it was, whole`() {
        val file = root.resolve("long.ts")
        val original = (1..60).joinToString("") { if (it == 5 || it == 50) "let value$it = old($it);\n" else "// line $it\n" }
        Files.writeString(file, original)
        val api = api()
        api.call("Read", mapOf("file_path" to file.toString()))
        // replace_all changes two places 45 lines apart: two hunks.
        val result = api.call("Edit", mapOf("file_path" to file.toString(), "old_string" to "old(", "new_string" to "fresh(", "replace_all" to true))
        val diff = EditDiffAdapter.from(result)!!
        assertEquals(2, diff.hunks.size)
        val now = Files.readString(file)
        val texts = DiffTexts.of(diff, now)
        assertTrue(texts.wholeFile)
        assertEquals(original, texts.before)
        assertEquals(now, texts.after)

        // The file changed again since (a later edit moved the lines): only the changed regions, marked as such.
        Files.writeString(file, "// a new first line\n$now")
        val stale = DiffTexts.of(diff, Files.readString(file))
        assertFalse(stale.wholeFile)
        assertEquals(listOf("let value5 = old(5);", "let value50 = old(50);"), stale.before.lines().filter { it.startsWith("let") })
        assertTrue(stale.before.lines().contains(DiffTexts.REGION_SEPARATOR), "the regions are set apart")
        assertEquals(listOf("let value5 = fresh(5);", "let value50 = fresh(50);"), stale.after.lines().filter { it.startsWith("let") })
    }

    @Test
    fun `Show Diff - a Write that created a file, and one that replaced a CRLF file`() {
        val api = api()
        val created = root.resolve("new.txt")
        val made = EditDiffAdapter.from(api.call("Write", mapOf("file_path" to created.toString(), "content" to "one\ntwo\n")))!!
        assertEquals(DiffTexts("", "one\ntwo\n", wholeFile = true), DiffTexts.of(made, Files.readString(created)))

        val crlf = root.resolve("dos.txt")
        Files.writeString(crlf, "a\r\nb\r\nc\r\n")
        api.call("Read", mapOf("file_path" to crlf.toString()))
        val replaced = EditDiffAdapter.from(api.call("Write", mapOf("file_path" to crlf.toString(), "content" to "a\nB\nc\n")))!!
        val texts = DiffTexts.of(replaced, Files.readString(crlf))
        assertTrue(texts.wholeFile, "line endings do not count as a change of the lines")
        assertEquals("a\nb\nc\n", texts.before)
        assertEquals("a\nB\nc\n", texts.after)
    }

    @Test
    fun `FS-EDIT-3 a 2 MB single-line Write - both lines cut with their full length, a bounded reply, regions only in the viewer`() {
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
    fun `FS-EDIT-3 a whole file replaced - the start of what went and of what came, a separator where lines were left out`() {
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
