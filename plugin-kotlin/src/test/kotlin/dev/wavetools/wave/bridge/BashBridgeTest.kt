package dev.wavetools.wave.bridge

import com.google.gson.JsonObject
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/**
 * The Bash tool, background tasks and the login-environment probe through the bridge, against the
 * real bundled core, real bash and real processes (found in /proc by their markers).
 */
class BashBridgeTest {
    private val root: Path = TestSupport.workspace()
    private val log = RecordingLog()
    private val started = mutableListOf<CoreProcess>()
    private val cleanups = mutableListOf<() -> Unit>()

    @AfterEach
    fun cleanup() {
        started.forEach { it.stop() }
        cleanups.forEach { it() }
        TestSupport.deleteTree(root)
    }

    /** A started, initialized core and every notification it sent, in order (recorded from its first line). */
    private inner class Core(launch: CoreLaunch) {
        val notifications = CopyOnWriteArrayList<Pair<String, JsonObject>>()
        val proc: CoreProcess = CoreProcess.start(launch, log, TestSupport.scheduler) { line ->
            val msg = com.google.gson.JsonParser.parseString(line).asJsonObject
            val method = msg.get("method")?.asString
            if (method != null && !msg.has("id")) notifications += method to (msg.getAsJsonObject("params") ?: JsonObject())
        }.also { started += it }
        val api = WaveCoreApi(proc.rpc)
        val marker: String get() = proc.launch.instanceMarker

        init {
            api.initialize(InitializeParams(hostInfo = HostInfo("kotlin-bash-test"), workspaceRoot = root.toString())).get(30, TimeUnit.SECONDS)
        }

        fun methods(): List<String> = notifications.map { it.first }

        fun await(method: String, message: String = method, match: (JsonObject) -> Boolean = { true }): JsonObject {
            TestSupport.eventually(message = { "no $message; got ${methods()}" }) { notifications.any { it.first == method && match(it.second) } }
            return notifications.first { it.first == method && match(it.second) }.second
        }

        fun bash(command: String, background: Boolean = false, timeoutMs: Long? = null): ToolCall =
            api.runBash(BashRequest(command, description = "test", timeoutMs = timeoutMs, runInBackground = background))

        /** Waits until the core lists the call as movable: its shell is running. */
        fun awaitShell(call: ToolCall) = TestSupport.eventually(message = { "call ${call.callId} never became movable" }) {
            api.callsList().get().any { it.callId == call.callId && it.canMoveToBackground }
        }
    }

    private fun <T> CompletableFuture<T>.await(seconds: Long = 30): T = get(seconds, TimeUnit.SECONDS)

    @Test
    fun `BASH-FG-3 echo through the API - tool-started has the arguments and no output, then tool-finished has the result`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        val call = core.bash("echo hello; echo oops >&2")
        val result = call.result.await()
        val r = BashResult.from(result)
        assertFalse(result.isError, result.text)
        assertEquals(BashResult(
            success = true, exitCode = 0, signal = null, output = "hello\noops\n", truncated = false, outputPath = null,
            outputBytes = 11, backgroundTaskId = null, backgroundedByUser = false, assistantAutoBackgrounded = false,
            timedOut = false, interrupted = false, cwd = root.toString(), cwdChanged = false, cwdReset = false,
            survivors = emptyList(), durationMs = r.durationMs, error = null, isError = false, cwdNotices = emptyList(),
            sandboxed = true,
        ), r)
        assertEquals("hello\noops", result.text)

        core.await(CoreNotifications.TOOL_FINISHED) { it.get("callId").asString == call.callId }
        val mine = core.notifications.filter { it.second.get("callId")?.asString == call.callId }
        assertEquals(listOf(CoreNotifications.TOOL_STARTED, CoreNotifications.TOOL_OUTPUT, CoreNotifications.TOOL_FINISHED), mine.map { it.first })
        val startedParams = mine[0].second
        assertEquals(setOf("callId", "sessionId", "name", "arguments", "startedAt"), startedParams.keySet(), "tool/started carries no output: $startedParams")
        assertEquals("echo hello; echo oops >&2", startedParams.getAsJsonObject("arguments").get("command").asString)
        // While it runs the host learns where the output goes (the tool window reads it), never the output.
        val live: ToolOutput = Json.decode(mine[1].second)
        assertEquals(setOf("callId", "sessionId", "outputPath"), mine[1].second.keySet(), "tool/output names the file only: ${mine[1].second}")
        assertTrue(live.outputPath.endsWith(".log"), live.outputPath)
        val finished: ToolFinished = Json.decode(mine[2].second)
        assertEquals("Bash", finished.name)
        assertEquals(null, finished.result, "tool/finished does not repeat the result")
        val summary = finished.summary!!
        assertEquals("hello\noops", summary.preview)
        assertEquals(0, summary.fields!!.get("exitCode").asInt)
        // The card's header reads the same from the summary as from the answer.
        val fromSummary = BashResult.from(finished.shown)
        assertEquals(listOf(r.exitCode, r.signal, r.interrupted, r.timedOut, r.sandboxed, r.durationMs), listOf(fromSummary.exitCode, fromSummary.signal, fromSummary.interrupted, fromSummary.timedOut, fromSummary.sandboxed, fromSummary.durationMs))
        // A host that did not make the call gets the very answer through calls/result.
        assertEquals(result, core.api.callResult(call.callId).await())
    }

    @Test
    fun `BASH-CWD the result carries the core's cwd notice for a kept cd and for a reset`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        val into = BashResult.from(core.bash("cd src && pwd").result.await())
        assertTrue(into.cwdChanged && !into.cwdReset, into.toString())
        assertEquals("${root}/src", into.cwd)
        assertEquals(listOf("Shell working directory changed to ${root}/src"), into.cwdNotices)

        val out = BashResult.from(core.bash("cd / && pwd").result.await())
        assertTrue(out.cwdReset && !out.cwdChanged, out.toString())
        assertEquals(root.toString(), out.cwd)
        assertEquals(listOf("Shell cwd was reset to $root"), out.cwdNotices)

        val stay = BashResult.from(core.bash("pwd").result.await())
        assertEquals(emptyList<String>(), stay.cwdNotices)
        assertEquals("$root\n", stay.output)
    }

    @Test
    fun `exit codes, signals and truncated output come through typed`() {
        val core = Core(TestSupport.unsandboxedLaunch(root))
        val failed = BashResult.from(core.bash("exit 3").result.await())
        assertEquals(listOf(false, 3, null, true), listOf(failed.success, failed.exitCode, failed.signal, failed.isError))

        val killed = BashResult.from(core.bash("kill -TERM $$").result.await())
        assertEquals(listOf(false, null, "SIGTERM"), listOf(killed.success, killed.exitCode, killed.signal))

        val long = BashResult.from(core.bash("seq 1 20000").result.await())
        assertTrue(long.truncated, "20000 lines are more than 30,000 characters")
        val file = Paths.get(long.outputPath!!)
        assertEquals(long.outputBytes, Files.size(file), "the kept file holds everything")
        assertTrue(long.output.startsWith("1\n2\n") && long.output.trimEnd().endsWith("20000"), long.output.take(40))
        assertTrue(long.output.length <= 30_000)
        cleanups += { Files.deleteIfExists(file) }
    }

    @Test
    fun `Ctrl+B moves a running command to the background - the call answers backgroundedByUser and task-started follows`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        val call = core.bash("echo begun; sleep 30; echo never")
        core.awaitShell(call)
        val moved = call.moveToBackground().await()
        assertTrue(moved.moved, "moved: $moved")
        val taskId = moved.taskId!!

        val result = call.result.await()
        val r = BashResult.from(result)
        assertTrue(r.backgroundedByUser && r.movedToBackground && r.success, r.toString())
        assertEquals(taskId, r.backgroundTaskId)
        assertTrue(result.text.startsWith("Command was manually backgrounded by user with ID: $taskId."), result.text)

        val startedTask: TaskInfo = Json.decode<TaskEvent>(core.await(CoreNotifications.TASK_STARTED)).task
        assertEquals(listOf(taskId, "user", "running", "echo begun; sleep 30; echo never"), listOf(startedTask.taskId, startedTask.origin, startedTask.status, startedTask.command))
        assertEquals(r.outputPath, startedTask.outputPath)
        TestSupport.eventually(message = { "the task's log never got the first line" }) { Files.readString(Paths.get(startedTask.outputPath)).startsWith("begun") }
        assertTrue(core.api.callsList().await().none { it.callId == call.callId }, "the call has ended; the task runs on")
        core.api.tasksStop(taskId).await()
    }

    @Test
    fun `Ctrl+B right after the call started, before its shell runs, is kept - the core reserves the task id`() {
        // A probe that takes seconds (a login profile that sleeps) holds the shell back. The bridge
        // asks once, with no retry: the core itself must keep the request.
        val home = Files.createTempDirectory("wave-home-").toRealPath()
        cleanups += { TestSupport.deleteTree(home) }
        Files.writeString(home.resolve(".bash_profile"), "sleep 3\n")
        val core = Core(TestSupport.launchWithProbe(root, home))
        val call = core.bash("sleep 30")
        core.await(CoreNotifications.TOOL_STARTED) { it.get("callId").asString == call.callId }
        val moved = call.moveToBackground().await()
        assertTrue(TestSupport.commandProcesses(core.marker).isEmpty(), "the command had not started when the core answered")
        assertTrue(moved.moved, "moved: $moved")
        assertEquals(moved.taskId, BashResult.from(call.result.await()).backgroundTaskId)
        core.api.tasksStop(moved.taskId!!).await()
    }

    @Test
    fun `moving a call that is not running is refused at once with the reason`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        val none = core.api.moveToBackground("no-such-call").await()
        assertFalse(none.moved)
        assertTrue(none.reason!!.contains("no-such-call"), none.reason)
    }

    @Test
    fun `BASH-BG-6 tasks-list shows a background task, tasks-stop ends its tree and task-finished says killed`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        val r = BashResult.from(core.bash("sleep 60 & sleep 60; wait", background = true).result.await())
        val taskId = r.backgroundTaskId!!
        assertTrue(r.success && !r.backgroundedByUser && !r.assistantAutoBackgrounded, r.toString())
        core.await(CoreNotifications.TASK_STARTED)

        val listed = core.api.tasksList().await().single()
        assertEquals(listOf(taskId, "main", "background", "running", "test"), listOf(listed.taskId, listed.sessionId, listed.origin, listed.status, listed.description))
        assertNotNull(listed.pid)
        TestSupport.eventually(message = { "the task's processes: ${TestSupport.commandProcesses(core.marker)}" }) {
            TestSupport.commandProcesses(core.marker).size >= 3
        }

        val stopped = core.api.tasksStop(taskId).await()
        assertTrue(stopped.stopped, stopped.toString())
        assertEquals("killed", stopped.task!!.status)
        assertEquals(emptyMap<Long, String>(), TestSupport.commandProcesses(core.marker), "tasks/stop answers once the tree is gone")

        val finished = Json.decode<TaskEvent>(core.await(CoreNotifications.TASK_FINISHED)).task
        assertEquals(listOf(taskId, "killed"), listOf(finished.taskId, finished.status))
        assertNotNull(finished.endedAt)
        assertEquals("killed", core.api.tasksList().await().single().status)

        val again = core.api.tasksStop(taskId).await()
        assertFalse(again.stopped)
        assertTrue(again.message!!.contains(taskId), again.message)
        val unknown = assertThrows<RpcException> { core.api.tasksStop("no-such-task").rpcGet() }
        assertEquals(RpcErrors.INVALID_PARAMS, unknown.code)
    }

    @Test
    fun `BASH-KILL-1 cancelling a running command ends its whole process tree before the answer`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        // A child that leaves the process group too (setsid): only the core's marker finds it.
        val call = core.bash("echo begun; setsid sleep 120 & sleep 120 & sleep 121; echo never")
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(core.marker)}" }) {
            TestSupport.commandProcesses(core.marker).size >= 4
        }
        val runIds = TestSupport.commandProcesses(core.marker).values.toSet()
        assertEquals(1, runIds.size, "one command, one WAVE_RUN_ID: $runIds")
        val corePid = TestSupport.markedProcesses(core.marker).values.mapNotNull { it["WAVE_CORE_PID"] }.toSet()
        assertEquals(setOf(core.proc.pid.toString()), corePid, "WAVE_CORE_PID names the core")

        call.cancel()
        val result = call.result.await()
        val r = BashResult.from(result)
        assertTrue(r.interrupted && !r.success && result.isError, r.toString())
        assertEquals("begun\n", r.output)
        assertEquals(emptyMap<Long, String>(), TestSupport.commandProcesses(core.marker), "the answer comes after the tree is gone")
        assertTrue(core.proc.isAlive)
        assertEquals("ok\n", BashResult.from(core.bash("echo ok").result.await()).output, "the core keeps serving")
    }

    @Test
    fun `HOST-5 stopping the core while a command and a background task run leaves nothing with the marker`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        val foreground = core.bash("sleep 120 & sleep 121; wait")
        core.bash("setsid sleep 122 & sleep 123; wait", background = true).result.await()
        TestSupport.eventually(message = { "processes: ${TestSupport.commandProcesses(core.marker)}" }) {
            TestSupport.commandProcesses(core.marker).size >= 6
        }
        val commands = TestSupport.commandProcesses(core.marker).keys
        val report = core.proc.stop()
        assertEquals(0, report.exitCode, "the core exits 0 after shutdown: $report")
        assertEquals(emptySet<Long>(), report.killedPids.toSet().intersect(commands), "the core stopped every command tree itself; the host's sweep found none of them")
        assertEquals(emptyMap<Long, Map<String, String>>(), TestSupport.markedProcesses(core.marker))
        val answer = runCatching { foreground.result.await(5) }
        // The core answers the cut-short call before it exits, or the connection closes first.
        answer.onSuccess { assertTrue(BashResult.from(it).interrupted, it.toString()) }
            .onFailure { assertTrue(it.cause is ConnectionClosedException, it.toString()) }
    }

    @Test
    fun `BASH-ENV env-status and env-statusChanged report the probe of a fake home`() {
        val home = Files.createTempDirectory("wave-home-").toRealPath()
        cleanups += { TestSupport.deleteTree(home) }
        Files.createDirectories(home.resolve("bin"))
        Files.writeString(home.resolve(".bash_profile"), "export HTTPS_PROXY=http://proxy.test:3128\nexport PATH=\"\$HOME/bin:\$PATH\"\nexport NOT_ADOPTED=1\n")
        val launch = TestSupport.launchWithProbe(root, home, listOf("HTTPS_PROXY", "https_proxy").associateWith { "" })
            .let { l -> l.copy(environment = l.environment.filterValues { it.isNotEmpty() }) }
        val core = Core(launch)

        val changed: EnvStatus = Json.decode(core.await(CoreNotifications.ENV_STATUS_CHANGED))
        assertEquals(listOf("ok", "/bin/bash", "nul"), listOf(changed.state, changed.shell, changed.parseMode))
        assertEquals(listOf("HTTPS_PROXY", "PATH"), changed.adoptedKeys.sorted())
        assertTrue(changed.attempts == 1 && changed.durationMs != null && changed.reason == null, changed.toString())
        assertEquals(changed, core.api.envStatus().await(), "env/status reports what the notification said")
        assertEquals(1, core.methods().count { it == CoreNotifications.ENV_STATUS_CHANGED }, "sent once")

        // What was adopted reaches commands.
        val out = BashResult.from(core.bash("echo \"\$HTTPS_PROXY\"; echo \"\$PATH\" | cut -d: -f1; echo \"\${NOT_ADOPTED:-unset}\"").result.await()).output
        assertEquals("http://proxy.test:3128\n${home}/bin\nunset\n", out)
    }

    @Test
    fun `BASH-ENV a probe turned off with WAVE_LOGIN_ENV=0 reads as failed with no attempts and the reason`() {
        val core = Core(TestSupport.launchWithoutProbe(root))
        val status: EnvStatus = Json.decode(core.await(CoreNotifications.ENV_STATUS_CHANGED))
        assertEquals(listOf("failed", 0, null), listOf(status.state, status.attempts, status.shell))
        assertTrue(status.reason!!.contains("WAVE_LOGIN_ENV=0"), status.reason)
        assertEquals(status, core.api.envStatus().await())
    }

    private fun <T> CompletableFuture<T>.rpcGet(): T = try {
        get(10, TimeUnit.SECONDS)
    } catch (e: java.util.concurrent.ExecutionException) {
        throw e.cause!!
    }
}
