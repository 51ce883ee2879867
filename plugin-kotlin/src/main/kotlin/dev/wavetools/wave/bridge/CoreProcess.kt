package dev.wavetools.wave.bridge

import java.io.BufferedReader
import java.io.InputStreamReader
import java.io.OutputStreamWriter
import java.io.Writer
import java.nio.charset.StandardCharsets
import java.nio.file.Path
import java.time.Duration
import java.util.ArrayDeque
import java.util.UUID
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean

/** What to start: `node <coreScript> serve --root <workspaceRoot>` with [environment]. */
data class CoreLaunch(
    val node: Path,
    val coreScript: Path,
    val workspaceRoot: Path,
    /** The complete environment of the core (the IDE's, plus what the settings add). */
    val environment: Map<String, String>,
    val extraArgs: List<String> = emptyList(),
    /** Tags the core and everything it starts (see [ProcessMarker]). */
    val instanceMarker: String = UUID.randomUUID().toString(),
) {
    fun command(): List<String> =
        listOf(node.toString(), coreScript.toString(), "serve", "--root", workspaceRoot.toString()) + extraArgs
}

/** How a stop went; the tests and the log read it. */
data class StopReport(
    val exitCode: Int?,
    val graceful: Boolean,
    val killedPids: List<Long>,
)

/**
 * One running core: the process, a reader thread turning stdout lines into JSON-RPC messages, and
 * a thread draining stderr into the log (a core that logs a lot must never block on a full pipe).
 */
class CoreProcess private constructor(
    val launch: CoreLaunch,
    private val process: Process,
    private val log: BridgeLog,
    scheduler: ScheduledExecutorService,
    private val lineTap: (String) -> Unit,
) {
    private val stdin: Writer = OutputStreamWriter(process.outputStream, StandardCharsets.UTF_8)
    private val stdinLock = Any()
    private val stderrTail = ArrayDeque<String>()
    private val stopping = AtomicBoolean(false)
    private val exit = CompletableFuture<Int>()
    private lateinit var readerThread: Thread
    private lateinit var stderrThread: Thread

    val rpc = JsonRpcClient(::writeLine, log, scheduler)
    val pid: Long get() = process.pid()

    /**
     * Processes the core leaves to finish by themselves (`processes/leftRunning`, sent during
     * shutdown): its login-environment probe's profile, whose tools must not be killed mid-work (a
     * lock taken and not yet guarded by its trap would stay), and their reaper. [stop] spares them
     * and what descends from them.
     */
    private val leftRunning: MutableSet<Long> = java.util.concurrent.ConcurrentHashMap.newKeySet()

    init {
        rpc.addListener { method, params ->
            if (method == "processes/leftRunning") {
                params?.takeIf { it.isJsonObject }?.asJsonObject?.get("pids")?.takeIf { it.isJsonArray }?.asJsonArray
                    ?.forEach { p -> p.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isNumber }?.let { leftRunning += it.asLong } }
            }
        }
    }
    val isAlive: Boolean get() = process.isAlive

    /** Completes with the exit code once the process has ended and its output was read. */
    val exitFuture: CompletableFuture<Int> get() = exit

    /** The last lines the core wrote to stderr, for error reports. */
    fun stderrTail(): List<String> = synchronized(stderrTail) { stderrTail.toList() }

    private fun writeLine(line: String) {
        synchronized(stdinLock) {
            stdin.write(line)
            stdin.write("\n")
            stdin.flush()
        }
    }

    /** Writes raw text as one line, bypassing JSON-RPC: a recorded transcript replayed byte for byte, malformed lines included. */
    fun writeRaw(line: String) = writeLine(line)

    private fun startThreads() {
        readerThread = Thread({
            try {
                BufferedReader(InputStreamReader(process.inputStream, StandardCharsets.UTF_8)).use { reader ->
                    while (true) {
                        val line = reader.readLine() ?: break
                        try {
                            lineTap(line)
                            rpc.handleLine(line)
                        } catch (e: Exception) {
                            log.error("failed to handle a line from wave-core", e)
                        }
                    }
                }
            } catch (e: Exception) {
                if (!stopping.get()) log.warn("reading wave-core's output failed: ${e.message}")
            }
        }, "wave-core-stdout-$pid").apply { isDaemon = true; start() }
        stderrThread = Thread({
            try {
                BufferedReader(InputStreamReader(process.errorStream, StandardCharsets.UTF_8)).use { reader ->
                    while (true) {
                        val line = reader.readLine() ?: break
                        synchronized(stderrTail) {
                            stderrTail.addLast(line)
                            while (stderrTail.size > STDERR_TAIL_LINES) stderrTail.removeFirst()
                        }
                        log.info("[wave-core] $line")
                    }
                }
            } catch (e: Exception) {
                if (!stopping.get()) log.debug("reading wave-core's stderr failed: ${e.message}")
            }
        }, "wave-core-stderr-$pid").apply { isDaemon = true; start() }
        process.onExit().thenRun {
            // Let the reader deliver the last answers before pending requests are failed.
            readerThread.join(READER_DRAIN_MS)
            val code = process.exitValue()
            rpc.close(if (stopping.get()) "wave-core was stopped" else "wave-core exited unexpectedly (exit code $code)")
            exit.complete(code)
        }
    }

    /**
     * Stops the core and everything it started, synchronously: `shutdown` (the core stops its process
     * trees), `exit`, close stdin, wait briefly, then kill whatever is left — the process tree as seen
     * before shutdown, plus on Linux every process still carrying this core's marker.
     */
    fun stop(shutdownTimeout: Duration = Duration.ofSeconds(5), exitTimeout: Duration = Duration.ofSeconds(3)): StopReport {
        stopping.set(true)
        val family = process.descendants().toList().toMutableList()
        // Who started whom, as it is now: once a process's parent exits, parent() no longer says.
        val parents = HashMap<Long, Long>()
        fun noteParents(handles: List<ProcessHandle>) = handles.forEach { h -> h.parent().ifPresent { parents.putIfAbsent(h.pid(), it.pid()) } }
        noteParents(family)
        var graceful = false
        if (process.isAlive) {
            try {
                rpc.request<Any?>("shutdown", null, shutdownTimeout).get(shutdownTimeout.plusMillis(500))
                graceful = true
            } catch (e: Exception) {
                log.warn("wave-core did not confirm shutdown: ${e.message}")
            }
            try {
                rpc.notify("exit")
            } catch (e: Exception) {
                // stdin already gone: the core sees EOF and stops anyway
            }
            try {
                synchronized(stdinLock) { stdin.close() }
            } catch (e: Exception) {
                // already closed
            }
            try {
                process.waitFor(exitTimeout.toMillis(), TimeUnit.MILLISECONDS)
            } catch (e: InterruptedException) {
                Thread.currentThread().interrupt()
            }
        }
        val later = process.descendants().toList()
        noteParents(later)
        family += later
        // What the core left running on purpose, and what descends from it, is not ours to kill.
        fun spared(pid: Long): Boolean {
            var p: Long? = pid
            var hops = 0
            while (p != null && p != process.pid() && hops++ < 64) {
                if (p in leftRunning) return true
                p = parents[p]
            }
            return false
        }
        family.removeAll { spared(it.pid()) }
        // What is already on its way out — the core's watchdog finishing its last sweep, processes
        // the core just stopped — gets a moment before it counts as left behind.
        awaitExit(family, LEFTOVER_GRACE)
        val killed = killRemaining(family)
        if (process.isAlive) {
            graceful = false
            process.destroyForcibly()
            killed += process.pid()
            try {
                process.waitFor(exitTimeout.toMillis(), TimeUnit.MILLISECONDS)
            } catch (e: InterruptedException) {
                Thread.currentThread().interrupt()
            }
        }
        val code = try {
            exit.get(exitTimeout.toMillis(), TimeUnit.MILLISECONDS)
        } catch (e: Exception) {
            if (process.isAlive) null else process.exitValue()
        }
        if (killed.isNotEmpty()) log.warn("killed ${killed.size} process(es) wave-core left behind: $killed")
        return StopReport(code, graceful && killed.isEmpty(), killed)
    }

    private fun awaitExit(family: List<ProcessHandle>, grace: Duration) {
        val deadline = System.nanoTime() + grace.toNanos()
        while (System.nanoTime() < deadline) {
            val running = family.any { it.pid() != process.pid() && ProcessMarker.isRunning(it) } ||
                ProcessMarker.pidsWith(launch.instanceMarker).any { it != process.pid() }
            if (!running) return
            try {
                Thread.sleep(20)
            } catch (e: InterruptedException) {
                Thread.currentThread().interrupt()
                return
            }
        }
    }

    private fun killRemaining(family: List<ProcessHandle>): MutableList<Long> {
        val killed = mutableListOf<Long>()
        for (h in family.distinctBy { it.pid() }) {
            if (h.pid() != process.pid() && ProcessMarker.isRunning(h)) {
                h.destroyForcibly()
                killed += h.pid()
            }
        }
        for (pid in ProcessMarker.pidsWith(launch.instanceMarker)) {
            if (pid == process.pid() || pid in killed) continue
            ProcessHandle.of(pid).ifPresent { h ->
                if (ProcessMarker.isRunning(h)) {
                    h.destroyForcibly()
                    killed += pid
                }
            }
        }
        return killed
    }

    /**
     * Kills the core and every process it started at once, without the shutdown handshake and
     * without waiting: what is left when a graceful [stop] could not run (the IDE closing a project
     * whose stop was already attempted, or never started). Returns the pids killed.
     */
    fun kill(): List<Long> {
        stopping.set(true)
        val killed = killRemaining(process.descendants().toList())
        if (process.isAlive) {
            process.destroyForcibly()
            killed += process.pid()
        }
        closeInput()
        if (killed.isNotEmpty()) log.warn("killed wave-core and ${killed.size - 1} process(es) it had started: $killed")
        return killed
    }

    /** Closes the core's stdin (end of session for the core) without the shutdown handshake. */
    fun closeInput() {
        try {
            synchronized(stdinLock) { stdin.close() }
        } catch (e: Exception) {
            // already closed, or the core is gone
        }
    }

    companion object {
        private const val STDERR_TAIL_LINES = 40
        private const val READER_DRAIN_MS = 2000L

        /** The core's watchdog exits within milliseconds of a clean shutdown; a stop waits this long for stragglers to go. */
        private val LEFTOVER_GRACE: Duration = Duration.ofMillis(1500)

        /** Starts the core; throws [java.io.IOException] when it cannot be spawned (no such node, ...). */
        fun start(
            launch: CoreLaunch,
            log: BridgeLog,
            scheduler: ScheduledExecutorService,
            /** Sees every stdout line before the JSON-RPC client does (protocol transcripts, diagnostics). */
            lineTap: (String) -> Unit = {},
        ): CoreProcess {
            val builder = ProcessBuilder(launch.command())
                .directory(launch.workspaceRoot.toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE)
            builder.environment().apply {
                clear()
                putAll(launch.environment)
                put(ProcessMarker.ENV_NAME, launch.instanceMarker)
            }
            log.info("starting wave-core: ${launch.command().joinToString(" ")}")
            val process = builder.start()
            return CoreProcess(launch, process, log, scheduler, lineTap).also { it.startThreads() }
        }
    }
}
