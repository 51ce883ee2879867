package dev.wavetools.wave.bridge

import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

/**
 * A tool call this host made. [callId] is chosen by the host, so [moveToBackground] and the UI can
 * refer to the call before the core has announced it.
 */
class ToolCall internal constructor(
    val callId: String,
    val name: String,
    val arguments: Map<String, Any?>,
    internal val rpc: RpcCall<CallToolResult>,
    private val api: WaveCoreApi,
) {
    val result: CompletableFuture<CallToolResult> get() = rpc.future

    /** Cancels the call; the core kills its process tree and still answers with what it has. */
    fun cancel() = rpc.cancel()

    /** Ctrl+B: the core hands the running command to its background task manager. */
    fun moveToBackground(): CompletableFuture<MoveToBackgroundResult> = api.moveToBackground(callId)
}

/** What the Bash tool accepts (the `Bash` tool's input schema). */
data class BashRequest(
    val command: String,
    val description: String? = null,
    val timeoutMs: Long? = null,
    val runInBackground: Boolean = false,
) {
    fun arguments(): Map<String, Any?> = buildMap {
        put("command", command)
        if (description != null) put("description", description)
        if (timeoutMs != null) put("timeout", timeoutMs)
        if (runInBackground) put("run_in_background", true)
    }
}

/**
 * The typed host protocol on top of one connection. Every method returns at once; the futures
 * complete on the bridge's threads.
 */
class WaveCoreApi(val rpc: JsonRpcClient) {
    private val calls = ConcurrentHashMap<String, ToolCall>()
    private val callSeq = AtomicLong(1)
    private val hostPrefix = java.util.UUID.randomUUID().toString().take(8)

    fun initialize(params: InitializeParams, timeout: Duration = DEFAULT_TIMEOUT): CompletableFuture<InitializeResult> =
        rpc.request<InitializeResult>("initialize", params, timeout).future.also {
            it.thenRun { rpc.notify("initialized") }
        }

    fun toolsList(timeout: Duration = DEFAULT_TIMEOUT): CompletableFuture<List<ToolInfo>> =
        rpc.request<ToolsListResult>("tools/list", emptyMap<String, Any>(), timeout).future.thenApply { it.tools }

    /**
     * Runs a tool. No timeout by default: a command may legitimately run for hours; the tool's own
     * timeout (Bash `timeout`) and [ToolCall.cancel] bound it.
     */
    fun callTool(
        name: String,
        arguments: Map<String, Any?>,
        sessionId: String? = null,
        callId: String = newCallId(),
        timeout: Duration? = null,
    ): ToolCall {
        val rpcCall = rpc.request<CallToolResult>(
            "tools/call",
            CallToolParams(name = name, arguments = arguments, sessionId = sessionId, callId = callId),
            timeout,
        )
        val call = ToolCall(callId, name, arguments, rpcCall, this)
        calls[callId] = call
        rpcCall.future.whenComplete { _, _ -> calls.remove(callId) }
        return call
    }

    /** Runs a command with the core's Bash tool (same runner, environment and shims as the agent's). */
    fun runBash(request: BashRequest, sessionId: String? = null, callId: String = newCallId()): ToolCall =
        callTool("Bash", request.arguments(), sessionId, callId)

    /**
     * The whole result of a finished call, for a host that did not make it (an attached agent's):
     * the core keeps recent results (PROTOCOL.md `calls/result`). Fails with [RpcException]
     * [RpcErrors.RESULT_NOT_KEPT] once it was dropped.
     */
    fun callResult(callId: String, timeout: Duration = DEFAULT_TIMEOUT): CompletableFuture<CallToolResult> =
        rpc.request<CallToolResult>("calls/result", mapOf("callId" to callId), timeout).future

    /**
     * `tool/finished` with the whole result its card shows: this host's own call's answer (it
     * follows the notification on the wire), else [callResult]. When neither can be had the event
     * carries why in [ToolFinished.resultUnavailable], and the card shows the summary. Never blocks;
     * call it from the notification listener, where this host's own call is still in flight.
     */
    fun completeFinished(event: ToolFinished): CompletableFuture<ToolFinished> {
        if (event.result != null) return CompletableFuture.completedFuture(event)
        val whole = activeCall(event.callId)?.result ?: callResult(event.callId)
        return whole.handle { r, e ->
            if (r != null) event.copy(result = r)
            else event.copy(resultUnavailable = ((e as? java.util.concurrent.CompletionException)?.cause ?: e)?.message ?: "no result")
        }
    }

    /** The calls this host started that have not answered yet. */
    fun activeCall(callId: String): ToolCall? = calls[callId]

    /**
     * Ctrl+B: the core hands the running call to its background task manager. A Bash call may be
     * moved from the moment `tool/started` arrives: before its shell runs (it waits for the login
     * environment) the core reserves the task id and the call answers with it once the command
     * starts (PROTOCOL.md `calls/moveToBackground`). `moved: false` means it cannot be moved at all.
     */
    fun moveToBackground(callId: String): CompletableFuture<MoveToBackgroundResult> =
        rpc.request<MoveToBackgroundResult>("calls/moveToBackground", mapOf("callId" to callId), DEFAULT_TIMEOUT).future

    /**
     * Stops a call this host did not make — an attached agent's — by its call id (from
     * `tool/started`): the core kills its process tree and the agent gets the aborted result.
     */
    fun cancelCall(callId: String) = rpc.notify("\$/cancelRequest", mapOf("callId" to callId))

    fun callsList(sessionId: String? = null, timeout: Duration = DEFAULT_TIMEOUT): CompletableFuture<List<CallInfo>> =
        rpc.request<CallsListResult>("calls/list", sessionParams(sessionId), timeout).future.thenApply { it.calls }

    fun tasksList(sessionId: String? = null, timeout: Duration = DEFAULT_TIMEOUT): CompletableFuture<List<TaskInfo>> =
        rpc.request<TasksListResult>("tasks/list", sessionParams(sessionId), timeout).future.thenApply { it.tasks }

    fun tasksStop(taskId: String, timeout: Duration = DEFAULT_TIMEOUT): CompletableFuture<TaskStopResult> =
        rpc.request<TaskStopResult>("tasks/stop", mapOf("taskId" to taskId), timeout).future

    /**
     * A session for an MCP client whose calls this host relays (the IDE's own MCP server): the core
     * announces it like an attached agent's (`session/opened`), so the tool window gives it a tab.
     */
    fun sessionsCreate(client: ClientInfo, cwd: String? = null): CompletableFuture<SessionCreated> =
        rpc.request<SessionCreated>("sessions/create", buildMap {
            put("client", buildMap { put("name", client.name); client.version?.takeIf { it.isNotBlank() }?.let { put("version", it) } })
            if (cwd != null) put("cwd", cwd)
        }, DEFAULT_TIMEOUT).future

    /** Ends a session: its calls are cut short, its background tasks stopped; [reason] is what `session/closed` says. */
    fun sessionsDispose(sessionId: String, reason: String? = null): CompletableFuture<SessionDisposed> =
        rpc.request<SessionDisposed>("sessions/dispose", buildMap {
            put("sessionId", sessionId)
            if (reason != null) put("reason", reason)
        }, DEFAULT_TIMEOUT).future

    /** Every session, with the client of each attached agent's. */
    fun sessionsList(): CompletableFuture<List<SessionInfo>> =
        rpc.request<SessionsListResult>("sessions/list", emptyMap<String, Any>(), DEFAULT_TIMEOUT).future.thenApply { it.sessions }

    fun envStatus(timeout: Duration = DEFAULT_TIMEOUT): CompletableFuture<EnvStatus> =
        rpc.request<EnvStatus>("env/status", emptyMap<String, Any>(), timeout).future

    fun permissionsList(): CompletableFuture<PermissionState> =
        rpc.request<PermissionState>("permissions/list", emptyMap<String, Any>(), DEFAULT_TIMEOUT).future

    fun permissionsSetMode(mode: String): CompletableFuture<PermissionState> =
        rpc.request<PermissionState>("permissions/setMode", mapOf("mode" to mode), DEFAULT_TIMEOUT).future

    /** Replaces the host's rules (all or nothing: one unreadable rule is `-32602` and nothing changes). */
    fun permissionsSetRules(allow: List<String>, deny: List<String>): CompletableFuture<PermissionState> =
        rpc.request<PermissionState>("permissions/setRules", mapOf("allow" to allow, "deny" to deny), DEFAULT_TIMEOUT).future

    /**
     * The full check a tool runs, asking through `permission/request` when the decision is "ask".
     * No timeout: a person may take minutes; the core's own ask timeout bounds it.
     */
    fun permissionsCheck(command: String, tool: String = "Bash", description: String? = null): RpcCall<PermissionCheckResult> =
        rpc.request<PermissionCheckResult>("permissions/check", buildMap {
            put("tool", tool)
            put("command", command)
            if (description != null) put("description", description)
        })

    /** Subscribes to the core's notifications, typed. */
    fun addEventListener(listener: CoreEvents): AutoCloseable =
        rpc.addListener { method, params -> CoreEvents.dispatch(listener, method, params) }

    fun newCallId(): String = "host-$hostPrefix-${callSeq.getAndIncrement()}"

    private fun sessionParams(sessionId: String?): Map<String, Any?> =
        if (sessionId == null) emptyMap() else mapOf("sessionId" to sessionId)

    companion object {
        val DEFAULT_TIMEOUT: Duration = Duration.ofSeconds(30)
    }
}
