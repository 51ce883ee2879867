package dev.wavetools.wave.bridge

import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executors
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.ScheduledFuture
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/** Where the core is in its life; the status line shows it. */
sealed class CoreState {
    object Stopped : CoreState() {
        override fun toString() = "Stopped"
    }

    data class Starting(val attempt: Int) : CoreState()
    data class Ready(val info: InitializeResult, val pid: Long) : CoreState()
    data class Restarting(val attempt: Int, val delay: Duration, val reason: String) : CoreState()
    /**
     * The core is not running and will not restart by itself. [kind] says what went wrong, so the
     * tool window can offer the right fix without reading [reason], which is for people.
     */
    data class Failed(val reason: String, val detail: List<String> = emptyList(), val kind: FailureKind = FailureKind.OTHER) : CoreState()
}

/** Why the core could not run. */
enum class FailureKind {
    /** No Node.js of a supported version was found; [CoreState.Failed.detail] lists where the locator looked. */
    NODE_NOT_FOUND,
    /** The bundled core script is missing or unreadable (a broken install). */
    CORE_MISSING,
    /** The project has no directory on disk to run commands in. */
    NO_PROJECT_DIRECTORY,
    /** The project is inside WSL (`\\wsl$\…`), which Wave Tools does not support yet ([WslPath]). */
    WSL_PROJECT,
    /** Node.js could not be started (not executable, wrong file, ...). */
    START_FAILED,
    /** The core kept exiting unexpectedly and the restart attempts are used up. */
    CRASHED,
    OTHER;

    /** Something about the machine or the settings, which a restart alone will not fix. */
    val isSetupProblem: Boolean get() = this == NODE_NOT_FOUND || this == CORE_MISSING || this == NO_PROJECT_DIRECTORY || this == WSL_PROJECT || this == START_FAILED
}

/** Restart delays after unexpected exits: [initial], doubling, at most [max]; give up after [maxAttempts] in a row. */
data class Backoff(
    val initial: Duration = Duration.ofMillis(500),
    val max: Duration = Duration.ofSeconds(30),
    val maxAttempts: Int = 5,
    /** A core that ran this long before exiting resets the count. */
    val stableAfter: Duration = Duration.ofSeconds(60),
) {
    fun delay(attempt: Int): Duration {
        val factor = 1L shl (attempt - 1).coerceIn(0, 20)
        return initial.multipliedBy(factor).let { if (it > max) max else it }
    }
}

/**
 * Owns the core for one project: starts it, initializes it, restarts it with backoff when it exits
 * unexpectedly (never when it was stopped), and stops it synchronously. Listeners survive restarts.
 */
class CoreSupervisor(
    /** Evaluated at every start, so changed settings apply on the next (re)start. Throws [CoreLaunchException] when it cannot. */
    private val launch: () -> CoreLaunch,
    private val initializeParams: () -> InitializeParams,
    private val log: BridgeLog,
    private val backoff: Backoff = Backoff(),
) : AutoCloseable {
    private val scheduler: ScheduledExecutorService = Executors.newScheduledThreadPool(2, daemonThreads("wave-core-supervisor"))
    private val stateListeners = CopyOnWriteArrayList<(CoreState) -> Unit>()
    private val eventListeners = CopyOnWriteArrayList<CoreEvents>()
    private val requestHandlers = java.util.concurrent.ConcurrentHashMap<String, CoreRequestHandler>()
    private val lock = Any()
    private val generation = AtomicInteger(0)

    @Volatile
    var state: CoreState = CoreState.Stopped
        private set

    @Volatile
    private var current: CoreProcess? = null

    @Volatile
    private var currentApi: WaveCoreApi? = null

    private var pendingRestart: ScheduledFuture<*>? = null
    private var failures = 0

    @Volatile
    private var closed = false

    fun addStateListener(listener: (CoreState) -> Unit): AutoCloseable {
        stateListeners += listener
        listener(state)
        return AutoCloseable { stateListeners -= listener }
    }

    /** Notifications from whichever core is running now and from every later one. */
    fun addEventListener(listener: CoreEvents): AutoCloseable {
        eventListeners += listener
        return AutoCloseable { eventListeners -= listener }
    }

    /** Serves [method] requests of whichever core is running now and of every later one. */
    fun handleCoreRequests(method: String, handler: CoreRequestHandler) {
        requestHandlers[method] = handler
        current?.rpc?.handle(method, handler)
    }

    /** The API of the running, initialized core, or null while starting, restarting, failed or stopped. */
    fun api(): WaveCoreApi? = if (state is CoreState.Ready) currentApi else null

    /** The API, or a clear exception saying why there is none. */
    fun requireApi(): WaveCoreApi = api() ?: throw CoreNotReadyException(state)

    /** The running process (for diagnostics and tests). */
    fun process(): CoreProcess? = current

    /** Starts the core if it is not running; returns at once. */
    fun start() {
        synchronized(lock) {
            check(!closed) { "the core supervisor was closed" }
            if (current != null || state is CoreState.Starting) return
            failures = 0
            launchNow(1)
        }
    }

    /** Stops the running core (synchronously) and starts a fresh one; also the way out of [CoreState.Failed]. */
    fun restart() {
        stopCurrent()
        synchronized(lock) {
            if (closed) return
            failures = 0
            launchNow(1)
        }
    }

    /**
     * [start] off the caller's thread: locating Node.js (it runs `node --version`), reading the IDE's
     * environment and spawning the core must never block a UI thread.
     */
    fun startAsync() {
        try {
            if (!closed) scheduler.execute { if (!closed) start() }
        } catch (e: RejectedExecutionException) {
            // Closed meanwhile: nothing to start.
        }
    }

    /** [restart] off the caller's thread: stopping can take seconds, which a UI thread must not wait for. */
    fun restartAsync() {
        if (!closed) scheduler.execute { restart() }
    }

    /** Stops the core and everything it started; returns when they are gone. */
    fun stop(): StopReport? = stopCurrent().also { setState(CoreState.Stopped) }

    override fun close() {
        closed = true
        stop()
        scheduler.shutdownNow()
    }

    /**
     * Closes without the graceful stop: kills whatever core still runs, at once. For the IDE's
     * dispose, after [stop] already ran under a progress (or could not): it never waits.
     */
    fun closeNow(): List<Long> {
        closed = true
        val proc: CoreProcess?
        synchronized(lock) {
            generation.incrementAndGet()
            pendingRestart?.cancel(false)
            pendingRestart = null
            proc = current
            current = null
            currentApi = null
        }
        val killed = proc?.kill() ?: emptyList()
        setState(CoreState.Stopped)
        scheduler.shutdownNow()
        return killed
    }

    private fun stopCurrent(): StopReport? {
        val proc: CoreProcess?
        synchronized(lock) {
            generation.incrementAndGet()
            pendingRestart?.cancel(false)
            pendingRestart = null
            proc = current
            current = null
            currentApi = null
        }
        return proc?.stop()
    }

    private fun launchNow(attempt: Int) {
        val gen = generation.incrementAndGet()
        setState(CoreState.Starting(attempt))
        val spec = try {
            launch()
        } catch (e: CoreLaunchException) {
            setState(CoreState.Failed(e.message ?: "wave-core cannot start", e.details, e.kind))
            return
        } catch (e: Exception) {
            setState(CoreState.Failed("wave-core cannot start: ${e.message}"))
            return
        }
        val proc = try {
            CoreProcess.start(spec, log, scheduler)
        } catch (e: Exception) {
            // The machine's doing (a vanished project folder, EACCES, a noexec mount), not a bug: the
            // Failed state tells the person, so this is a warning, not an "IDE internal error".
            log.warn("could not start wave-core", e)
            setState(CoreState.Failed("Could not start ${spec.node}: ${e.message}. Check the Node.js path in the settings.", kind = FailureKind.START_FAILED))
            return
        }
        val api = WaveCoreApi(proc.rpc)
        // Before initialize: a core may ask as soon as it has answered it.
        requestHandlers.forEach { (method, handler) -> proc.rpc.handle(method, handler) }
        proc.rpc.addListener { method, params ->
            for (l in eventListeners) {
                try {
                    CoreEvents.dispatch(l, method, params)
                } catch (e: Exception) {
                    log.error("a listener failed on $method", e)
                }
            }
        }
        current = proc
        currentApi = api
        val startedAt = System.nanoTime()
        proc.exitFuture.thenAccept { code -> onExit(proc, code, startedAt) }
        api.initialize(initializeParams()).whenComplete { info, error ->
            synchronized(lock) {
                if (generation.get() != gen || current !== proc) return@whenComplete
                if (error != null) {
                    log.warn("wave-core did not initialize: ${error.message}")
                    // Treat it like a crash: stop it and go through the restart path.
                    scheduler.execute { proc.stop() }
                    return@whenComplete
                }
                setState(CoreState.Ready(info, proc.pid))
            }
        }
    }

    private fun onExit(proc: CoreProcess, code: Int, startedAtNanos: Long) {
        synchronized(lock) {
            // An exit after stop()/restart() is expected: they detach the process before stopping it.
            if (closed || current !== proc) return
            current = null
            currentApi = null
            val ranFor = Duration.ofNanos(System.nanoTime() - startedAtNanos)
            if (ranFor >= backoff.stableAfter) failures = 0
            failures++
            val reason = "wave-core exited unexpectedly (exit code $code)"
            log.warn("$reason after ${ranFor.toMillis()} ms")
            if (failures > backoff.maxAttempts) {
                setState(CoreState.Failed("$reason ${failures - 1} times in a row; not restarting. Use Restart to try again.", proc.stderrTail(), FailureKind.CRASHED))
                return
            }
            val delay = backoff.delay(failures)
            setState(CoreState.Restarting(failures, delay, reason))
            val restartGen = generation.incrementAndGet()
            pendingRestart = scheduler.schedule({
                synchronized(lock) {
                    if (!closed && generation.get() == restartGen && current == null) launchNow(failures + 1)
                }
            }, delay.toMillis(), TimeUnit.MILLISECONDS)
        }
    }

    private fun setState(next: CoreState) {
        state = next
        for (l in stateListeners) {
            try {
                l(next)
            } catch (e: Exception) {
                log.error("a state listener failed", e)
            }
        }
    }

    private fun daemonThreads(name: String): ThreadFactory {
        val n = AtomicInteger()
        return ThreadFactory { r -> Thread(r, "$name-${n.incrementAndGet()}").apply { isDaemon = true } }
    }
}

/** The core cannot be launched as configured (no Node.js, no bundled core, ...); [kind] says which. */
class CoreLaunchException(message: String, val details: List<String> = emptyList(), val kind: FailureKind = FailureKind.OTHER) : Exception(message)

/** An action needed the core while it was not ready. */
class CoreNotReadyException(val state: CoreState) : Exception(
    when (state) {
        is CoreState.Failed -> "wave-core is not running: ${state.reason}"
        is CoreState.Restarting -> "wave-core is restarting; try again in a moment."
        is CoreState.Starting -> "wave-core is still starting; try again in a moment."
        else -> "wave-core is not running."
    },
)
