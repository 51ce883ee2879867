package dev.wavetools.wave.bridge

import com.google.gson.JsonArray
import com.google.gson.JsonElement
import com.google.gson.JsonNull
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import com.google.gson.JsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit

/**
 * Replays the golden protocol transcripts in test-fixtures/protocol (format: that folder's README)
 * against the real bundled core, and decodes every message the core sent through the bridge's
 * typed classes, so a change on either side of the protocol fails here.
 */
class TranscriptTest {
    private val dir: Path = System.getProperty("wave.transcriptDir")?.let { Paths.get(it) }
        ?: TestSupport.repoRoot.resolve("test-fixtures/protocol")

    @TestFactory
    fun `HOST-1 golden transcripts replay against the bundled core`(): List<DynamicTest> {
        val files = Files.list(dir).use { s -> s.filter { it.fileName.toString().endsWith(".json") }.sorted().toList() }
        assertTrue(files.isNotEmpty(), "no transcripts in $dir")
        return files.map { file -> DynamicTest.dynamicTest(file.fileName.toString()) { TranscriptReplay(dir).replay(file) } }
    }

    @Test
    fun `the matcher follows the README's rules`() {
        fun m(expected: String, actual: String) = TranscriptReplay.mismatch(JsonParser.parseString(expected), JsonParser.parseString(actual))
        assertNull(m("""{"a":1}""", """{"a":1,"b":2}"""))
        assertEquals("$.a: expected 1, got 2", m("""{"a":1}""", """{"a":2}"""))
        assertNull(m("""{"a":"<<absent>>"}""", """{"b":1}"""))
        assertEquals("$.a: expected to be absent", m("""{"a":"<<absent>>"}""", """{"a":null}"""))
        assertNull(m("""["<<number>>","<<string>>","<<boolean>>","<<object>>","<<array>>","<<any>>"]""", """[1,"s",true,{},[],null]"""))
        assertEquals("$: expected 2 elements, got 1", m("""[1,2]""", """[1]"""))
        assertNull(m(""""<<regex:^ab+c$>>"""", """"abbbc""""))
        assertTrue(m(""""<<regex:^x>>"""", """"abc"""")!!.contains("does not match"))
        assertEquals("$.a: missing", m("""{"a":"<<any>>"}""", """{}"""))
    }
}

class TranscriptReplay(private val fixtures: Path) {
    /** test-fixtures/protocol/README.md: fifteen seconds per step (a loaded machine may take seconds to start the first shell). */
    private val stepTimeoutMs = 15_000L

    fun replay(file: Path) {
        val root = copyWorkspace()
        val text = Files.readString(file).replace("\${ROOT}", JsonPrimitive(root.toString()).toString().removeSurrounding("\""))
        val transcript = JsonParser.parseString(text).asJsonObject
        val received = java.util.Collections.synchronizedList(mutableListOf<JsonObject>())
        val sentMethods = mutableMapOf<String, String>()
        val sentTools = mutableMapOf<String, String>()
        val args = transcript.getAsJsonArray("args")?.map { it.asString } ?: emptyList()
        // No transcript is about the login-shell probe, and Bash calls wait for it: a machine whose
        // profile is slow (a pyenv init can take seconds) must not make the replay time out.
        val launch = TestSupport.launchWithoutProbe(root).copy(extraArgs = args)
        val proc = CoreProcess.start(launch, RecordingLog(), TestSupport.scheduler) { line ->
            try {
                JsonParser.parseString(line).takeIf { it.isJsonObject }?.let { received += it.asJsonObject }
            } catch (e: Exception) {
                received += JsonObject().apply { addProperty("unparseable", line) }
            }
        }
        // The transcript answers the core's requests (permission/request) in its own steps: the
        // bridge takes them and leaves them open instead of answering "method not found".
        proc.rpc.handle("permission/request") { CompletableFuture<Any?>() }
        try {
            for ((i, stepEl) in transcript.getAsJsonArray("steps").withIndex()) {
                val step = stepEl.asJsonObject
                val from = received.size
                when {
                    step.has("sendRaw") -> proc.writeRaw(step.get("sendRaw").asString)
                    step.has("send") -> {
                        val msg = step.getAsJsonObject("send")
                        if (msg.has("id") && msg.has("method")) {
                            sentMethods[msg.get("id").toString()] = msg.get("method").asString
                            msg.getAsJsonObject("params")?.get("name")?.takeIf { it.isJsonPrimitive }?.let { sentTools[msg.get("id").toString()] = it.asString }
                        }
                        proc.writeRaw(Json.gson.toJson(msg))
                    }
                }
                val used = mutableSetOf<Int>()
                for (exp in step.getAsJsonArray("expect") ?: JsonArray()) {
                    val deadline = System.currentTimeMillis() + stepTimeoutMs
                    var hit = -1
                    while (hit < 0) {
                        val snapshot = synchronized(received) { received.toList() }
                        hit = (from until snapshot.size).firstOrNull { it !in used && mismatch(exp, snapshot[it]) == null } ?: -1
                        if (hit >= 0) break
                        if (System.currentTimeMillis() > deadline) {
                            val seen = snapshot.drop(from).joinToString("\n") { "  $it\n    -> ${mismatch(exp, it)}" }
                            throw AssertionError("${file.fileName} step $i: no message matched $exp\nreceived in this step:\n$seen\nstderr:\n${proc.stderrTail().joinToString("\n")}")
                        }
                        Thread.sleep(10)
                    }
                    used += hit
                }
            }
            proc.closeInput()
            val code = proc.exitFuture.get(10, TimeUnit.SECONDS)
            assertEquals(transcript.get("exitCode")?.asInt ?: 0, code, "${file.fileName}: exit code")
            synchronized(received) { received.toList() }.forEach { decodeTyped(it, sentMethods, sentTools) }
        } finally {
            proc.stop()
            TestSupport.deleteTree(root)
        }
    }

    /**
     * Every message the core sent must decode through the bridge's typed classes, and every Bash
     * result and task must carry the fields the tool window reads (docs/user/bash.md, docs/user/file-tools.md and PROTOCOL.md tables).
     */
    private fun decodeTyped(msg: JsonObject, sentMethods: Map<String, String>, sentTools: Map<String, String>) {
        if (msg.has("unparseable")) throw AssertionError("the core wrote a line that is not JSON: ${msg.get("unparseable")}")
        val method = msg.get("method")?.asString
        if (method != null) {
            CoreEvents.dispatch(object : CoreEvents {
                override fun toolFinished(event: ToolFinished) {
                    if (event.name == "Bash") checkBashSummary(msg)
                }
                override fun taskStarted(task: TaskInfo) = checkTask(msg)
                override fun taskFinished(task: TaskInfo) = checkTask(msg)
            }, method, msg.get("params"))
            return
        }
        val result = msg.get("result") ?: return
        val id = msg.get("id").toString()
        if (sentMethods[id] == "tools/call" && sentTools[id] == "Bash") checkBash(result.asJsonObject)
        if (sentMethods[id] == "tasks/list") result.asJsonObject.getAsJsonArray("tasks").forEach { checkTaskFields(it.asJsonObject) }
        val type: Class<*> = when (sentMethods[id]) {
            "initialize" -> InitializeResult::class.java
            "tools/list" -> ToolsListResult::class.java
            "tools/call" -> CallToolResult::class.java
            "calls/list" -> CallsListResult::class.java
            "calls/moveToBackground" -> MoveToBackgroundResult::class.java
            "sessions/list" -> SessionsListResult::class.java
            "sessions/create" -> SessionCreateResult::class.java
            "tasks/list" -> TasksListResult::class.java
            "tasks/stop" -> TaskStopResult::class.java
            "env/status" -> EnvStatus::class.java
            else -> return
        }
        Json.decode<Any?>(result, type)
    }

    private fun checkBash(result: JsonObject) {
        val structured = result.getAsJsonObject("structuredContent")
        val missing = BASH_FIELDS.filter { structured?.has(it) != true }
        if (missing.isNotEmpty()) throw AssertionError("a Bash result lacks $missing: $result")
        val r = BashResult.from(Json.decode(result))
        val lines = Json.decode<CallToolResult>(result).text.lines()
        for ((flag, prefix) in listOf(r.cwdChanged to BashResult.CWD_CHANGED_PREFIX, r.cwdReset to BashResult.CWD_RESET_PREFIX)) {
            if (flag && lines.none { it.startsWith(prefix) }) throw AssertionError("a Bash result says the cwd moved but has no \"$prefix…\" line: $result")
        }
    }

    /** tool/finished carries a bounded summary with the header fields a Bash card reads, never the result. */
    private fun checkBashSummary(notification: JsonObject) {
        val params = notification.getAsJsonObject("params")
        if (params.has("result")) throw AssertionError("tool/finished repeats the result: $params")
        val summary = params.getAsJsonObject("summary") ?: throw AssertionError("tool/finished has no summary: $params")
        val fields = summary.getAsJsonObject("fields")
        val missing = BASH_HEADER_FIELDS.filter { fields?.has(it) != true }
        if (missing.isNotEmpty()) throw AssertionError("a Bash summary lacks $missing: $summary")
        val bytes = notification.toString().toByteArray().size
        if (bytes > 8 * 1024) throw AssertionError("tool/finished takes $bytes bytes: $notification")
    }

    private fun checkTask(notification: JsonObject) = checkTaskFields(notification.getAsJsonObject("params").getAsJsonObject("task"))

    private fun checkTaskFields(task: JsonObject) {
        val missing = TASK_FIELDS.filter { !task.has(it) }
        if (missing.isNotEmpty()) throw AssertionError("a TaskInfo lacks $missing: $task")
    }

    private fun copyWorkspace(): Path {
        val root = Files.createTempDirectory("wave-transcript-").toRealPath()
        val src = fixtures.resolve("workspace")
        if (Files.isDirectory(src)) {
            Files.walk(src).use { s ->
                s.forEach { p ->
                    val target = root.resolve(src.relativize(p).toString())
                    if (Files.isDirectory(p)) Files.createDirectories(target) else Files.copy(p, target)
                }
            }
        }
        return root
    }

    companion object {
        /** docs/user/bash.md, "Result fields": what every Bash result carries (`error` only on start failures). */
        /** What a Bash card's header shows before (or without) the whole result. */
        val BASH_HEADER_FIELDS = listOf("exitCode", "signal", "interrupted", "timedOut", "truncated", "outputBytes", "durationMs", "sandboxed")

        val BASH_FIELDS = listOf(
            "success", "exitCode", "signal", "output", "truncated", "outputPath", "outputBytes", "backgroundTaskId",
            "backgroundedByUser", "assistantAutoBackgrounded", "timedOut", "interrupted", "cwd", "cwdChanged",
            "cwdReset", "survivors", "durationMs",
        )

        /** PROTOCOL.md `TaskInfo`, without the optional fields (description, pid, endedAt). */
        val TASK_FIELDS = listOf("taskId", "sessionId", "command", "origin", "status", "startedAt", "runtimeMs", "exitCode", "signal", "outputPath", "survivors")

        private val REGEX = Regex("^<<regex:([\\s\\S]*)>>$")

        /** Null when [actual] matches [expected] (test-fixtures/protocol/README.md), else where and why not. */
        fun mismatch(expected: JsonElement, actual: JsonElement?, where: String = "$"): String? {
            if (expected.isJsonPrimitive && expected.asJsonPrimitive.isString) {
                val e = expected.asString
                val a = actual
                fun isStr() = a != null && a.isJsonPrimitive && a.asJsonPrimitive.isString
                when (e) {
                    "<<any>>" -> return if (a == null) "$where: missing" else null
                    "<<string>>" -> return if (isStr()) null else "$where: expected a string, got $a"
                    "<<number>>" -> return if (a != null && a.isJsonPrimitive && a.asJsonPrimitive.isNumber) null else "$where: expected a number, got $a"
                    "<<boolean>>" -> return if (a != null && a.isJsonPrimitive && a.asJsonPrimitive.isBoolean) null else "$where: expected a boolean, got $a"
                    "<<array>>" -> return if (a != null && a.isJsonArray) null else "$where: expected an array, got $a"
                    "<<object>>" -> return if (a != null && a.isJsonObject) null else "$where: expected an object"
                }
                REGEX.find(e)?.let { m ->
                    val pattern = m.groupValues[1]
                    return if (isStr() && Regex(pattern).containsMatchIn(a!!.asString)) null else "$where: $a does not match /$pattern/"
                }
                return if (isStr() && a!!.asString == e) null else "$where: expected $expected, got $a"
            }
            if (expected.isJsonArray) {
                if (actual == null || !actual.isJsonArray) return "$where: expected an array, got $actual"
                val ea = expected.asJsonArray
                val aa = actual.asJsonArray
                if (ea.size() != aa.size()) return "$where: expected ${ea.size()} elements, got ${aa.size()}"
                for (i in 0 until ea.size()) mismatch(ea[i], aa[i], "$where[$i]")?.let { return it }
                return null
            }
            if (expected.isJsonObject) {
                if (actual == null || !actual.isJsonObject) return "$where: expected an object, got $actual"
                val ao = actual.asJsonObject
                for ((k, v) in expected.asJsonObject.entrySet()) {
                    if (v.isJsonPrimitive && v.asJsonPrimitive.isString && v.asString == "<<absent>>") {
                        if (ao.has(k)) return "$where.$k: expected to be absent"
                        continue
                    }
                    if (!ao.has(k)) return "$where.$k: missing"
                    mismatch(v, ao.get(k), "$where.$k")?.let { return it }
                }
                return null
            }
            if (expected.isJsonNull) return if (actual != null && actual.isJsonNull) null else "$where: expected null, got $actual"
            // number or boolean
            val equal = actual != null && actual.isJsonPrimitive && when {
                expected.asJsonPrimitive.isNumber && actual.asJsonPrimitive.isNumber -> expected.asBigDecimal.compareTo(actual.asBigDecimal) == 0
                else -> expected == actual
            }
            return if (equal) null else "$where: expected $expected, got $actual"
        }
    }
}
