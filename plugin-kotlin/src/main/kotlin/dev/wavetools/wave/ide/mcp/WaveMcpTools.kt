package dev.wavetools.wave.ide.mcp

import com.intellij.mcpserver.McpTool
import com.intellij.mcpserver.McpToolCallResult
import com.intellij.mcpserver.McpToolDescriptor
import com.intellij.openapi.project.Project
import dev.wavetools.wave.bridge.BridgeLog
import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.ClientInfo
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.ToolInfo
import dev.wavetools.wave.bridge.WaveCoreApi
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.suspendCancellableCoroutine
import kotlinx.serialization.json.JsonObject
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionException
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.ExecutionException
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.coroutineContext
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException

/** The project cores the IDE's MCP clients reach. */
interface ProjectCores {
    /** The core of [project] (or of the only open project when the server names none), started if it is not; else why there is none. */
    fun supervisor(project: Project?): CoreLookup

    /** The cores that are ready now. */
    fun readyApis(): List<WaveCoreApi>

    /** Starts the cores of the open projects (off the calling thread). */
    fun startAll()
}

sealed class CoreLookup {
    data class Found(val supervisor: CoreSupervisor, val projectName: String) : CoreLookup()
    data class Missing(val reason: String) : CoreLookup()
}

/**
 * Wave's tools in the IDE's own MCP server. The tools, their descriptions and input schemas are the
 * core's own `tools/list`, each under the name `wave_<name>` (the IDE's tools are snake_case words
 * without it, so none collides). Each client the server reports gets a session of its own in the
 * project's core (its own working directory, background tasks and read state), which the tool window
 * shows as a tab like an attached agent's: its calls, approvals asked with Wave's gate, Move to
 * Background and Stop. Results keep the core's text and structured content.
 *
 * The server tells plugins who calls but not when a client disconnects (see [McpServerApi]): a
 * client's session ends after [idleAfter] without a call and without a running background task, or
 * [idleWithTasksAfter] without a call while its tasks run; its tasks stop with it.
 */
class WaveMcpTools(
    private val cores: ProjectCores,
    private val log: BridgeLog,
    private val scheduler: ScheduledExecutorService,
    private val isUiThread: () -> Boolean,
    private val caller: (CoroutineContext) -> McpCaller? = McpServerApi::caller,
    private val clock: Clock = Clock.systemUTC(),
    val idleAfter: Duration = Duration.ofMinutes(30),
    val idleWithTasksAfter: Duration = Duration.ofHours(2),
    private val readyTimeout: Duration = Duration.ofSeconds(60),
) : AutoCloseable {
    @Volatile
    private var toolList: List<ToolInfo>? = null

    @Volatile
    private var unsupported: String? = null

    /** One session per (core, client connection). */
    private val sessions = ConcurrentHashMap<SessionKey, ClientSession>()

    private data class SessionKey(val api: WaveCoreApi, val client: String)

    private inner class ClientSession(val api: WaveCoreApi, val client: ClientInfo, val id: CompletableFuture<String>) {
        @Volatile
        var lastCall: Instant = clock.instant()
        val inFlight = java.util.concurrent.atomic.AtomicInteger()
    }

    private val sweep = scheduler.scheduleWithFixedDelay({ expireIdle() }, 1, 1, TimeUnit.MINUTES)

    /**
     * The tools, as the IDE's MCP server lists them. Never blocks the UI thread: with no core ready
     * yet it starts the open projects' cores and, off the UI thread, waits a little for the first.
     */
    fun tools(): List<McpTool> {
        unsupported?.let { return emptyList() }
        val list = toolList ?: fetchToolList() ?: return emptyList()
        return try {
            list.map { info -> WaveTool(info, descriptor(info)) }
        } catch (e: UnsupportedMcpServerException) {
            disable(e.message ?: e.toString())
            emptyList()
        } catch (e: LinkageError) {
            disable("the IDE's MCP server API differs from the versions Wave Tools was checked against ($e)")
            emptyList()
        }
    }

    private fun disable(reason: String) {
        if (unsupported == null) log.warn("Wave Tools offers no tools through the IDE's MCP server: $reason. Agents can still attach with `wave-core mcp --attach`.", null)
        unsupported = reason
    }

    private fun fetchToolList(): List<ToolInfo>? {
        val api = cores.readyApis().firstOrNull()
        if (api == null) {
            cores.startAll()
            if (isUiThread()) return null
            val deadline = System.nanoTime() + TOOLS_WAIT.toNanos()
            while (System.nanoTime() < deadline) {
                cores.readyApis().firstOrNull()?.let { return listFrom(it) }
                Thread.sleep(50)
            }
            return null
        }
        return if (isUiThread()) {
            api.toolsList().thenAccept { toolList = it }
            null
        } else {
            listFrom(api)
        }
    }

    private fun listFrom(api: WaveCoreApi): List<ToolInfo>? = try {
        api.toolsList().get(TOOLS_WAIT.toMillis(), TimeUnit.MILLISECONDS).also { toolList = it }
    } catch (e: Exception) {
        log.warn("could not list the core's tools for the IDE's MCP server", e)
        null
    }

    private fun descriptor(info: ToolInfo): McpToolDescriptor {
        val schema = info.inputSchema ?: com.google.gson.JsonObject()
        val unknown = schema.keySet() - SCHEMA_KEYS
        // McpToolSchema carries properties and required only (it adds additionalProperties: false):
        // anything else would be dropped silently, so refuse to publish a schema that has it.
        if (unknown.isNotEmpty()) throw UnsupportedMcpServerException("the input schema of ${info.name} uses ${unknown.joinToString()}, which McpToolSchema cannot carry")
        val properties = schema.getAsJsonObject("properties") ?: com.google.gson.JsonObject()
        val required = schema.getAsJsonArray("required")?.map { it.asString }?.toSet() ?: emptySet()
        return McpServerApi.descriptor(PREFIX + info.name, info.description, McpServerApi.schema(McpJson.toKotlinx(properties), required))
    }

    /** One of the core's tools in the IDE's server. */
    private inner class WaveTool(val info: ToolInfo, override val descriptor: McpToolDescriptor) : McpTool {
        override suspend fun call(args: JsonObject): McpToolCallResult = this@WaveMcpTools.call(info.name, args, coroutineContext)
    }

    /** Runs [coreTool] for the calling client in its session of the project's core. */
    suspend fun call(coreTool: String, args: JsonObject, context: CoroutineContext): McpToolCallResult {
        val who = caller(context) ?: return error("Wave Tools' tools run only inside a call of the IDE's MCP server.")
        val supervisor = when (val found = cores.supervisor(who.project)) {
            is CoreLookup.Found -> found.supervisor
            is CoreLookup.Missing -> return error(found.reason)
        }
        val api = awaitReady(supervisor) ?: return error(notReady(supervisor.state))
        val session = session(api, who)
        val sessionId = try {
            session.id.await()
        } catch (e: CancellationException) {
            throw e
        } catch (e: Exception) {
            sessions.values.remove(session)
            return error("Wave Tools could not open a session for ${who.client.name}: ${unwrap(e).message}")
        }
        session.inFlight.incrementAndGet()
        session.lastCall = clock.instant()
        try {
            val arguments = McpJson.toGson(args).asJsonObject.entrySet().associate { it.key to it.value as Any? }
            val call = api.callTool(coreTool, arguments, sessionId)
            val result = try {
                call.result.await { call.cancel() }
            } catch (e: CancellationException) {
                throw e
            } catch (e: Exception) {
                return error("${coreTool} failed in Wave Tools' core: ${unwrap(e).message}")
            }
            return toMcp(result)
        } finally {
            session.lastCall = clock.instant()
            session.inFlight.decrementAndGet()
        }
    }

    private fun session(api: WaveCoreApi, who: McpCaller): ClientSession {
        val key = SessionKey(api, "${who.client.name}\u0000${who.client.version}\u0000${who.connectionId ?: ""}")
        return sessions.computeIfAbsent(key) {
            // A second connection of the same client gets a tab of its own, told apart by a number.
            val same = sessions.values.count { s -> s.api === api && s.client.name.substringBefore(" #") == who.client.name }
            val name = if (same == 0) who.client.name else "${who.client.name} #${same + 1}"
            val client = ClientInfo(name, who.client.version)
            ClientSession(api, client, api.sessionsCreate(client).thenApply { it.sessionId })
        }
    }

    private suspend fun awaitReady(supervisor: CoreSupervisor): WaveCoreApi? {
        supervisor.api()?.let { return it }
        val ready = CompletableFuture<WaveCoreApi?>()
        val subscription = supervisor.addStateListener { state ->
            when (state) {
                is CoreState.Ready -> ready.complete(supervisor.api())
                is CoreState.Failed, CoreState.Stopped -> ready.complete(null)
                else -> {}
            }
        }
        return try {
            ready.orTimeout(readyTimeout.toMillis(), TimeUnit.MILLISECONDS).await {}
        } catch (e: TimeoutException) {
            null
        } catch (e: CancellationException) {
            throw e
        } catch (e: Exception) {
            if (unwrap(e) is TimeoutException) null else throw e
        } finally {
            subscription.close()
        }
    }

    private fun notReady(state: CoreState): String = when (state) {
        is CoreState.Failed -> "Wave Tools' core is not running: ${state.reason} Open the Wave tool window in the IDE for the fix."
        else -> "Wave Tools' core did not become ready within ${readyTimeout.seconds} s; try again in a moment."
    }

    /** Sessions of clients that stopped calling: ended, with their background tasks. */
    fun expireIdle() {
        val now = clock.instant()
        for ((key, s) in sessions) {
            if (s.inFlight.get() > 0 || !s.id.isDone || s.id.isCompletedExceptionally) continue
            val id = s.id.getNow(null) ?: continue
            val idle = Duration.between(s.lastCall, now)
            if (idle < idleAfter) continue
            val tasksRunning = try {
                s.api.tasksList(id).get(10, TimeUnit.SECONDS).any { it.status == "running" }
            } catch (e: Exception) {
                // The core is gone (restarted, stopped): so is the session.
                sessions.remove(key, s)
                continue
            }
            if (tasksRunning && idle < idleWithTasksAfter) continue
            sessions.remove(key, s)
            s.api.sessionsDispose(id, "no call from ${s.client.name} for ${idle.toMinutes()} minutes (the IDE's MCP server does not report when a client disconnects)")
                .exceptionally { e -> log.warn("could not end the session of ${s.client.name}", e); null }
        }
    }

    private fun toMcp(result: CallToolResult): McpToolCallResult {
        // The IDE's server passes text content only: an image is named, not sent.
        val texts = result.content.map { item ->
            when (item.type) {
                "text" -> item.text ?: ""
                else -> "[${item.type} ${item.mimeType ?: ""}: the IDE's MCP server passes text only; use wave-core mcp --attach for images]".replace("  ", " ")
            }
        }
        return McpServerApi.textResult(texts, result.structuredContent?.let { McpJson.toKotlinx(it) }, result.isError)
    }

    private fun error(text: String): McpToolCallResult = McpServerApi.textResult(listOf(text), null, true)

    override fun close() {
        sweep.cancel(false)
    }

    companion object {
        /** Wave's tools in the IDE's server: `wave_Bash`, `wave_Read`, … (docs/user/agents.md). */
        const val PREFIX = "wave_"
        private val TOOLS_WAIT: Duration = Duration.ofSeconds(20)
        private val SCHEMA_KEYS = setOf("type", "properties", "required", "additionalProperties", "\$schema")
    }
}

private fun unwrap(e: Throwable): Throwable = if ((e is CompletionException || e is ExecutionException) && e.cause != null) e.cause!! else e

/** Waits for the future without blocking a thread; [onCancel] runs when the caller's coroutine is cancelled. */
internal suspend fun <T> CompletableFuture<T>.await(onCancel: () -> Unit = {}): T = suspendCancellableCoroutine { cont ->
    whenComplete { value, error ->
        if (error != null) cont.resumeWithException(unwrap(error)) else cont.resume(value)
    }
    cont.invokeOnCancellation { onCancel() }
}
