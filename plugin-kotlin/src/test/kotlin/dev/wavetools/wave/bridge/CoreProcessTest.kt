package dev.wavetools.wave.bridge

import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList

/** The bridge against the real bundled core (node-core/dist/wave-core.js) run by a real Node.js. */
class CoreProcessTest {
    private val root: Path = TestSupport.workspace()
    private val log = RecordingLog()
    private val started = mutableListOf<CoreProcess>()
    private val supervisors = mutableListOf<CoreSupervisor>()
    private val strays = mutableListOf<Process>()

    @AfterEach
    fun cleanup() {
        supervisors.forEach { it.close() }
        started.forEach { it.stop() }
        strays.forEach { it.destroyForcibly() }
        TestSupport.deleteTree(root)
    }

    private fun start(launch: CoreLaunch = TestSupport.launch(root)): CoreProcess =
        CoreProcess.start(launch, log, TestSupport.scheduler).also { started += it }

    private fun initialized(proc: CoreProcess): WaveCoreApi {
        val api = WaveCoreApi(proc.rpc)
        val info = api.initialize(InitializeParams(hostInfo = HostInfo("kotlin-test"), workspaceRoot = root.toString())).get()
        assertEquals("wave-core", info.serverInfo.name)
        return api
    }

    @Test
    fun `HOST-1 starts the bundled core, initializes, lists tools and runs a Read call`() {
        val proc = start()
        val api = initialized(proc)
        val events = CopyOnWriteArrayList<String>()
        api.addEventListener(object : CoreEvents {
            override fun toolStarted(event: ToolStarted) { events += "started ${event.name} ${event.callId}" }
            override fun toolFinished(event: ToolFinished) { events += "finished ${event.name} ${event.callId} error=${event.isError}" }
        })
        val tools = api.toolsList().get().map { it.name }
        assertTrue("Read" in tools, "tools: $tools")

        val call = api.callTool("Read", mapOf("file_path" to "notes.txt"), callId = "kotlin-read-1")
        val result = call.result.get()
        assertFalse(result.isError, result.text)
        assertTrue(result.text.contains("hello from the workspace"), result.text)
        assertEquals(root.resolve("notes.txt").toString(), result.structuredContent!!.get("filePath").asString)
        TestSupport.eventually(message = { "events: $events" }) { events.size == 2 }
        assertEquals(listOf("started Read kotlin-read-1", "finished Read kotlin-read-1 error=false"), events)
    }

    @Test
    fun `cancelling a running call interrupts it and the core still answers`() {
        val proc = start()
        val api = initialized(proc)
        val startedCall = java.util.concurrent.CompletableFuture<String>()
        api.addEventListener(object : CoreEvents {
            override fun toolStarted(event: ToolStarted) { startedCall.complete(event.callId) }
        })
        // Only a working cancellation ends this call before the test's time is up.
        val call = api.runBash(BashRequest("echo started; sleep 120", timeoutMs = 600_000))
        assertEquals(call.callId, startedCall.get())
        fun commandLine(pid: Long) = try {
            String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/$pid/cmdline"))).replace('\u0000', ' ').trim()
        } catch (e: java.io.IOException) {
            ""
        }
        TestSupport.eventually(message = { "sleep 120 did not start" }) {
            ProcessMarker.pidsWith(proc.launch.instanceMarker).any { commandLine(it) == "sleep 120" }
        }
        call.cancel()
        val result = call.result.get()
        assertTrue(result.isError, "a cancelled Bash call is an error result: ${result.text}")
        assertEquals(true, result.structuredContent?.get("interrupted")?.asBoolean, result.toString())
        assertTrue(result.text.startsWith("started"), result.text)
        assertTrue(ProcessMarker.pidsWith(proc.launch.instanceMarker).none { commandLine(it) == "sleep 120" }, "the cancelled command's tree is gone")
        // The connection is still usable.
        assertTrue(api.toolsList().get().isNotEmpty())
    }

    @Test
    fun `a malformed line does not stop the core from serving`() {
        val proc = start()
        val api = initialized(proc)
        proc.writeRaw("this is not json")
        proc.writeRaw("{\"jsonrpc\":\"2.0\",\"id\":")
        TestSupport.eventually(message = { log.messages().joinToString("\n") }) {
            log.messages(BridgeLog.Level.WARN).count { it.startsWith("wave-core rejected a message") } >= 2
        }
        assertTrue(api.toolsList().get().isNotEmpty())
        assertTrue(proc.isAlive)
    }

    @Test
    fun `invalid params come back as RpcException with the protocol's code`() {
        val api = initialized(start())
        val e = assertThrows<RpcException> { api.callTool("Read", mapOf("file_path" to 42)).rpc.get(Duration.ofSeconds(10)) }
        assertEquals(RpcErrors.INVALID_PARAMS, e.code)
    }

    @Test
    fun `BASH-ENV-1 the plugin's stop while the probe runs the profile leaves no lock of the profile's tools behind`() {
        // pyenv's rehash pattern: the lock is taken, and the trap that removes it is set only a moment
        // later; here that moment lasts until the test writes `proceed`, so the stop lands inside it.
        val home = Files.createTempDirectory("wave-home-").toRealPath()
        try {
            val tool = home.resolve("bin/rehash")
            Files.createDirectories(tool.parent)
            Files.writeString(
                tool,
                listOf(
                    "#!/bin/bash",
                    "echo \$\$ >> \"\$HOME/pids\"",
                    ": > \"\$HOME/lock\"",
                    "until [ -e \"\$HOME/proceed\" ]; do sleep 0.02; done",
                    "trap 'rm -f \"\$HOME/lock\"' EXIT",
                    "echo rehashed >> \"\$HOME/log\"",
                ).joinToString("\n", postfix = "\n"),
            )
            tool.toFile().setExecutable(true)
            Files.writeString(home.resolve(".bash_profile"), "$tool 2>/dev/null\n")
            val proc = start(TestSupport.launchWithProbe(root, home))
            initialized(proc)
            TestSupport.eventually(message = { "the profile's tool never took its lock" }) { Files.exists(home.resolve("lock")) }
            val toolPid = Files.readString(home.resolve("pids")).trim().toLong()

            val report = proc.stop()
            assertFalse(toolPid in report.killedPids, "the stop killed the profile's tool: $report")
            assertTrue(ProcessHandle.of(toolPid).map { it.isAlive }.orElse(false), "the tool runs on")
            assertTrue(Files.exists(home.resolve("lock")), "still inside the window")
            Files.writeString(home.resolve("proceed"), "")
            TestSupport.eventually(message = { "the lock was left behind" }) { !Files.exists(home.resolve("lock")) }
            assertEquals("rehashed\n", Files.readString(home.resolve("log")))
        } finally {
            Files.writeString(home.resolve("proceed"), "")
            TestSupport.deleteTree(home)
        }
    }

    @Test
    fun `the tests never probe the developer's own login shell`() {
        assertEquals("0", TestSupport.env["WAVE_LOGIN_ENV"], "plugin-kotlin/scripts/kotlin.mjs runs the tests with WAVE_LOGIN_ENV=0")
        assertEquals("0", TestSupport.launch(root).environment["WAVE_LOGIN_ENV"])
        val probing = TestSupport.launchWithProbe(root, root)
        assertEquals(listOf(null, root.toString()), listOf(probing.environment["WAVE_LOGIN_ENV"], probing.environment["HOME"]))
        assertThrows<IllegalArgumentException> { TestSupport.launchWithProbe(root, Paths.get(System.getProperty("user.home"))) }
    }

    @Test
    fun `HOST-5 stop leaves no process with the core's marker behind`() {
        val launch = TestSupport.launch(root)
        val proc = start(launch)
        initialized(proc)
        // A process that left the tree but still carries the marker (as a double-forked child would).
        val stray = ProcessBuilder("sleep", "300").apply { environment()[ProcessMarker.ENV_NAME] = launch.instanceMarker }.start()
        strays += stray
        TestSupport.eventually(message = { "marker not visible in /proc" }) { ProcessMarker.pidsWith(launch.instanceMarker).size >= 2 }

        val report = proc.stop()
        assertEquals(0, report.exitCode, "the core exits 0 after shutdown and exit")
        assertTrue(stray.pid() in report.killedPids, "the stray was swept: $report")
        assertFalse(proc.isAlive)
        TestSupport.eventually(message = { "left behind: ${ProcessMarker.pidsWith(launch.instanceMarker)}" }) {
            ProcessMarker.pidsWith(launch.instanceMarker).isEmpty()
        }
    }

    @Test
    fun `requests after the core exited fail with ConnectionClosedException`() {
        val proc = start()
        val api = initialized(proc)
        proc.stop()
        assertThrows<ConnectionClosedException> { api.toolsList().rpc() }
    }

    private fun <T> java.util.concurrent.CompletableFuture<T>.rpc(): T = try {
        get(Duration.ofSeconds(10).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
    } catch (e: java.util.concurrent.ExecutionException) {
        throw e.cause!!
    }

    private fun <T> RpcCall<T>.rpcGet(): T = get(Duration.ofSeconds(10))

    @Test
    fun `the supervisor restarts a core that was killed, keeping listeners`() {
        val sup = CoreSupervisor(
            launch = { TestSupport.launch(root) },
            initializeParams = { InitializeParams(hostInfo = HostInfo("kotlin-test"), workspaceRoot = root.toString()) },
            log = log,
            backoff = Backoff(initial = Duration.ofMillis(100)),
        ).also { supervisors += it }
        val states = CopyOnWriteArrayList<CoreState>()
        sup.addStateListener { states += it }
        val finished = CopyOnWriteArrayList<String>()
        sup.addEventListener(object : CoreEvents {
            override fun toolFinished(event: ToolFinished) { finished += event.callId }
        })
        sup.start()
        TestSupport.eventually(message = { "states: $states" }) { sup.state is CoreState.Ready }
        val firstPid = (sup.state as CoreState.Ready).pid

        // A crash, from outside: the core process alone dies.
        ProcessHandle.of(sup.process()!!.pid).get().destroyForcibly()
        TestSupport.eventually(message = { "states: $states" }) { sup.state is CoreState.Ready && (sup.state as CoreState.Ready).pid != firstPid }
        assertTrue(states.any { it is CoreState.Restarting && it.reason.contains("exited unexpectedly") }, "states: $states")
        assertNotEquals(firstPid, (sup.state as CoreState.Ready).pid)

        val call = sup.requireApi().callTool("Read", mapOf("file_path" to "notes.txt"))
        call.result.get()
        TestSupport.eventually(message = { "finished: $finished" }) { call.callId in finished }
    }

    @Test
    fun `startAsync returns before anything is launched, then the core becomes ready`() {
        val launched = java.util.concurrent.CountDownLatch(1)
        val sup = CoreSupervisor(
            launch = {
                // Held until the caller has returned: proves the launch runs on another thread.
                launched.await()
                TestSupport.launch(root)
            },
            initializeParams = { InitializeParams(workspaceRoot = root.toString()) },
            log = log,
        ).also { supervisors += it }
        sup.startAsync()
        assertFalse(sup.state is CoreState.Ready)
        launched.countDown()
        TestSupport.eventually(message = { "state: ${sup.state}" }) { sup.state is CoreState.Ready }
        sup.close()
        sup.startAsync()
        assertTrue(sup.state is CoreState.Stopped, "a closed supervisor starts nothing: ${sup.state}")
    }

    @Test
    fun `HOST-5 stopping the supervisor is synchronous and final`() {
        val marker = java.util.UUID.randomUUID().toString()
        val sup = CoreSupervisor(
            launch = { TestSupport.launch(root).copy(instanceMarker = marker) },
            initializeParams = { InitializeParams(workspaceRoot = root.toString()) },
            log = log,
        ).also { supervisors += it }
        sup.start()
        TestSupport.eventually(message = { "state: ${sup.state}" }) { sup.state is CoreState.Ready }
        sup.close()
        assertEquals(CoreState.Stopped, sup.state)
        assertEquals(emptyList<Long>(), ProcessMarker.pidsWith(marker), "nothing with the marker survives close()")
        assertTrue(log.messages().none { it.contains("exited unexpectedly") }, "a stop is not a crash")
        assertThrows<CoreNotReadyException> { sup.requireApi() }
    }

    @Test
    fun `a launch that cannot start ends in Failed with the reason, not in a restart loop`() {
        val sup = CoreSupervisor(
            launch = { throw CoreLaunchException("Node.js 20 or newer was not found.", listOf("tried /nowhere/node"), FailureKind.NODE_NOT_FOUND) },
            initializeParams = { InitializeParams() },
            log = log,
        ).also { supervisors += it }
        sup.start()
        val state = sup.state as CoreState.Failed
        assertEquals("Node.js 20 or newer was not found.", state.reason)
        assertEquals(listOf("tried /nowhere/node"), state.detail)
        assertEquals(FailureKind.NODE_NOT_FOUND, state.kind)
        assertTrue(state.kind.isSetupProblem)
    }

    @Test
    fun `each way a launch fails has its own kind - a missing core script, a Node_js that cannot be started`() {
        val missing = assertThrows<CoreLaunchException> { CoreScript.require(root.resolve("no-such-core.js").toFile()) }
        assertEquals(FailureKind.CORE_MISSING, missing.kind)
        val sup = CoreSupervisor(
            launch = { TestSupport.launch(root).copy(node = root.resolve("not-node")) },
            initializeParams = { InitializeParams() },
            log = log,
        ).also { supervisors += it }
        sup.start()
        val state = sup.state as CoreState.Failed
        assertEquals(FailureKind.START_FAILED, state.kind, state.reason)
        assertTrue(state.kind.isSetupProblem)
    }

    @Test
    fun `a core that keeps crashing ends in Failed after the backoff attempts`() {
        val sup = CoreSupervisor(
            // `node -e` exits at once with status 3: a core that crashes on start.
            launch = { TestSupport.launch(root).copy(coreScript = root.resolve("crash.js").also { java.nio.file.Files.writeString(it, "process.stderr.write('boom\\n'); process.exit(3)") }) },
            initializeParams = { InitializeParams() },
            log = log,
            backoff = Backoff(initial = Duration.ofMillis(10), maxAttempts = 3),
        ).also { supervisors += it }
        sup.start()
        TestSupport.eventually(message = { "state: ${sup.state}" }) { sup.state is CoreState.Failed }
        val failed = sup.state as CoreState.Failed
        assertTrue(failed.reason.contains("exit code 3"), failed.reason)
        assertEquals(FailureKind.CRASHED, failed.kind)
        assertFalse(failed.kind.isSetupProblem, "a restart may help: the tool window keeps the session and offers it")
        assertTrue(failed.detail.contains("boom"), "stderr tail: ${failed.detail}")
    }
}
