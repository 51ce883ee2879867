package dev.wavetools.wave.bridge

import com.google.gson.Gson
import com.google.gson.GsonBuilder
import com.google.gson.JsonElement
import com.google.gson.JsonNull
import com.google.gson.JsonDeserializationContext
import com.google.gson.JsonDeserializer
import com.google.gson.JsonObject
import com.google.gson.annotations.JsonAdapter
import java.lang.reflect.Type

// Typed messages of the host protocol (node-core/PROTOCOL.md). Every class has defaults for every
// property so Gson can build it through the no-argument constructor Kotlin generates; optional
// protocol fields are nullable. Fields the core adds later are ignored, never fatal.

const val PROTOCOL_VERSION = "2.0"

object Json {
    /** Never serialises nulls: the core validates optional fields as "absent", not null. */
    val gson: Gson = GsonBuilder().disableHtmlEscaping().create()

    fun <T> decode(element: JsonElement?, type: Type): T = gson.fromJson(element ?: JsonNull.INSTANCE, type)

    inline fun <reified T> decode(element: JsonElement?): T = gson.fromJson(element ?: JsonNull.INSTANCE, T::class.java)

    fun encode(value: Any?): JsonElement = if (value == null) JsonNull.INSTANCE else gson.toJsonTree(value)
}

// ---- initialize -------------------------------------------------------------------------------

data class HostInfo(val name: String = "", val version: String? = null)

data class InitializeParams(
    val protocolVersion: String? = PROTOCOL_VERSION,
    val hostInfo: HostInfo? = null,
    val workspaceRoot: String? = null,
    val additionalDirectories: List<String>? = null,
    val settings: Map<String, Any?>? = null,
    val capabilities: HostCapabilities? = null,
)

/** What this host can do; `permissionRequests`: it answers `permission/request` (it asks the person). */
data class HostCapabilities(val permissionRequests: Boolean = false)

data class ServerInfo(val name: String = "", val version: String = "")

data class Capabilities(
    val sessions: Boolean = false,
    val moveToBackground: Boolean = false,
    /** This core may send `permission/request`. */
    val permissionRequests: Boolean = false,
    val methods: List<String> = emptyList(),
)

data class RejectedDirectory(val path: String = "", val reason: String = "")

data class WorkspaceInfo(
    val root: String = "",
    val additionalDirectories: List<String> = emptyList(),
    val rejectedDirectories: List<RejectedDirectory> = emptyList(),
)

data class ToolInfo(val name: String = "", val description: String = "", val inputSchema: JsonObject? = null)

/** Where agents reach a core started with `--listen`, and whether they can discover it (`problem`). */
data class AgentEndpoint(val url: String = "", val lockFile: String? = null, val problem: String? = null)

data class InitializeResult(
    val protocolVersion: String = "",
    val serverInfo: ServerInfo = ServerInfo(),
    val capabilities: Capabilities = Capabilities(),
    val workspace: WorkspaceInfo = WorkspaceInfo(),
    val sessionId: String = "main",
    val tools: List<ToolInfo> = emptyList(),
    /** Null when the core does not listen for agents. */
    val agents: AgentEndpoint? = null,
)

data class ToolsListResult(val tools: List<ToolInfo> = emptyList())

// ---- tools/call -------------------------------------------------------------------------------

data class CallToolParams(
    val name: String = "",
    val arguments: Map<String, Any?> = emptyMap(),
    val sessionId: String? = null,
    val callId: String? = null,
)

data class ContentItem(
    val type: String = "text",
    val text: String? = null,
    val data: String? = null,
    val mimeType: String? = null,
)

data class CallToolResult(
    val content: List<ContentItem> = emptyList(),
    val structuredContent: JsonObject? = null,
    val isError: Boolean = false,
) {
    /** The text items joined, as a person would read them. */
    val text: String get() = content.filter { it.type == "text" }.mapNotNull { it.text }.joinToString("\n")
}

data class MoveToBackgroundResult(val moved: Boolean = false, val taskId: String? = null, val reason: String? = null)

data class CallInfo(
    val callId: String = "",
    val sessionId: String = "",
    val name: String = "",
    val arguments: JsonObject? = null,
    val startedAt: String = "",
    val canMoveToBackground: Boolean = false,
)

data class CallsListResult(val calls: List<CallInfo> = emptyList())

// ---- sessions ---------------------------------------------------------------------------------

/** An MCP client's `clientInfo`: the agent behind an attached session. */
data class ClientInfo(val name: String = "", val version: String? = null) {
    override fun toString() = if (version.isNullOrBlank()) name else "$name $version"
}

data class SessionCreated(val sessionId: String = "", val cwd: String = "")

data class SessionDisposed(val disposed: Boolean = false)

data class SessionInfo(
    val sessionId: String = "",
    val parentSessionId: String? = null,
    val cwd: String = "",
    val originalCwd: String = "",
    /** Set for an attached agent's session. */
    val client: ClientInfo? = null,
)

data class SessionsListResult(val sessions: List<SessionInfo> = emptyList())

data class SessionCreateResult(val sessionId: String = "", val cwd: String = "")

// ---- background tasks -------------------------------------------------------------------------

data class Survivor(val pid: Long = 0, val command: String = "")

data class TaskInfo(
    val taskId: String = "",
    val sessionId: String = "",
    val command: String = "",
    val description: String? = null,
    /** "background", "timeout" or "user". */
    val origin: String = "background",
    /** "running", "completed", "failed" or "killed". */
    val status: String = "running",
    val pid: Long? = null,
    val startedAt: String = "",
    val endedAt: String? = null,
    val runtimeMs: Long = 0,
    val exitCode: Int? = null,
    val signal: String? = null,
    val outputPath: String = "",
    val survivors: List<Survivor> = emptyList(),
) {
    val isRunning: Boolean get() = status == "running"
}

data class TasksListResult(val tasks: List<TaskInfo> = emptyList())

data class TaskStopResult(val stopped: Boolean = false, val message: String? = null, val task: TaskInfo? = null)

// ---- environment probe ------------------------------------------------------------------------

data class EnvStatus(
    /** "pending", "ok", "degraded" or "failed". */
    val state: String = "pending",
    val shell: String? = null,
    val durationMs: Long? = null,
    val attempts: Int = 0,
    val parseMode: String? = null,
    val adoptedKeys: List<String> = emptyList(),
    val reason: String? = null,
    /** The OS sandbox commands run in; null when this core does not report one. */
    @field:JsonAdapter(SandboxStatus.Reader::class)
    val sandbox: SandboxStatus? = null,
)

/**
 * The OS sandbox the core confines commands to (`env/status` and `env/statusChanged`, field
 * `sandbox`). Read tolerantly: a core that does not report it, or reports it in a shape this host
 * does not know, gives null — the tool window then says nothing about a sandbox rather than
 * something wrong.
 */
data class SandboxStatus(
    val active: Boolean,
    /** "bubblewrap", "seatbelt" or "none" (a kind this host does not know yet is kept as sent). */
    val kind: String,
    /** "allow" or "deny"; null when not reported. */
    val network: String? = null,
    /** Why there is no sandbox, or why it is limited. */
    val reason: String? = null,
    /** What the person can do about it. */
    val remedy: String? = null,
) {
    val networkDenied: Boolean get() = network == "deny"

    class Reader : JsonDeserializer<SandboxStatus?> {
        override fun deserialize(json: JsonElement?, typeOfT: Type?, context: JsonDeserializationContext?): SandboxStatus? = from(json)
    }

    companion object {
        fun from(json: JsonElement?): SandboxStatus? {
            val o = json?.takeIf { it.isJsonObject }?.asJsonObject ?: return null
            val kind = Lenient.string(o.get("kind"))
            val active = Lenient.boolean(o.get("active")) ?: kind?.let { it != "none" } ?: return null
            return SandboxStatus(
                active = active,
                kind = kind ?: if (active) "unknown" else "none",
                network = Lenient.string(o.get("network")),
                reason = Lenient.string(o.get("reason"))?.takeIf { it.isNotBlank() },
                remedy = Lenient.string(o.get("remedy"))?.takeIf { it.isNotBlank() },
            )
        }
    }
}

/** Field readers for what newer cores add: the wrong type reads as "not reported" instead of failing the whole message. */
object Lenient {
    fun boolean(e: JsonElement?): Boolean? = e?.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isBoolean }?.asBoolean

    fun string(e: JsonElement?): String? = e?.takeIf { it.isJsonPrimitive && it.asJsonPrimitive.isString }?.asString

    class BooleanReader : JsonDeserializer<Boolean?> {
        override fun deserialize(json: JsonElement?, typeOfT: Type?, context: JsonDeserializationContext?): Boolean? = boolean(json)
    }

    class StringReader : JsonDeserializer<String?> {
        override fun deserialize(json: JsonElement?, typeOfT: Type?, context: JsonDeserializationContext?): String? = string(json)
    }
}

// ---- permissions ------------------------------------------------------------------------------

object PermissionModes {
    const val ASK = "ask"
    const val ALLOW_ALL = "allow-all"
    const val DENY_ALL = "deny-all"
    val ALL = listOf(ASK, ALLOW_ALL, DENY_ALL)
}

/** A danger the core found in a command (docs/user/permissions.md, "Warnings"); shown prominently. */
data class PermissionWarning(val id: String = "", val message: String = "", val part: String? = null)

/** One simple command of a compound command and how the rules judged it. */
data class PartVerdict(
    val text: String = "",
    /** How it is reached: `$(…)`, `bash -c`, `find -exec`, … */
    val via: List<String>? = null,
    /** "allowed", "denied" or "needs-approval". */
    val status: String = "needs-approval",
    val rule: String? = null,
    val reason: String = "",
    val warnings: List<PermissionWarning> = emptyList(),
    val suggestedRule: String? = null,
)

/** The params of `permission/request`: what the person is asked to allow. */
data class PermissionPrompt(
    val callId: String? = null,
    val sessionId: String = "",
    val tool: String = "",
    /** "command" or "path". */
    val kind: String = "command",
    val command: String? = null,
    val path: String? = null,
    val description: String? = null,
    val directory: String = "",
    val reason: String = "",
    val warnings: List<PermissionWarning> = emptyList(),
    val parts: List<PartVerdict> = emptyList(),
    val suggestedRules: List<String> = emptyList(),
    val timeoutMs: Long = 0,
    /** false: the command would run outside the OS sandbox ([outsideSandboxReason] says why); null: not reported. */
    @field:JsonAdapter(Lenient.BooleanReader::class)
    val sandboxed: Boolean? = null,
    @field:JsonAdapter(Lenient.StringReader::class)
    val outsideSandboxReason: String? = null,
) {
    /** The person is asked to let a command leave the sandbox. */
    val runsOutsideSandbox: Boolean get() = sandboxed == false
}

/** The answer to `permission/request`. */
data class PermissionAnswer(
    /** "allow-once", "always-allow" or "deny". */
    val decision: String,
    /** always-allow: the rules to remember. */
    val rules: List<String>? = null,
    /** Passed on to the model. */
    val message: String? = null,
) {
    companion object {
        const val ALLOW_ONCE = "allow-once"
        const val ALWAYS_ALLOW = "always-allow"
        const val DENY = "deny"

        fun allowOnce() = PermissionAnswer(ALLOW_ONCE)
        fun alwaysAllow(rules: List<String>) = PermissionAnswer(ALWAYS_ALLOW, rules = rules)
        fun deny(message: String?) = PermissionAnswer(DENY, message = message?.trim()?.takeIf { it.isNotEmpty() })
    }
}

/** `permission/decided`: a check that was not a plain allow (asked, denied, or allowed despite warnings). */
data class PermissionDecided(
    val callId: String? = null,
    val sessionId: String = "",
    val tool: String = "",
    val kind: String = "command",
    val command: String? = null,
    val path: String? = null,
    /** "allow" or "deny". */
    val outcome: String = "deny",
    val asked: Boolean = false,
    /** The person's decision when [asked]. */
    val answer: String? = null,
    val reason: String = "",
    val warnings: List<PermissionWarning> = emptyList(),
)

data class RulesChange(val type: String = "", val kind: String? = null, val rules: List<String>? = null, val mode: String? = null)

/** `permission/rulesChanged`: [hostMode], [allow] and [deny] are what the host persists for the project. */
data class PermissionRulesChanged(
    val mode: String = PermissionModes.ASK,
    val hostMode: String? = null,
    val allow: List<String> = emptyList(),
    val deny: List<String> = emptyList(),
    val change: RulesChange = RulesChange(),
)

data class SourcedRule(val rule: String = "", val source: String = "host")

data class RejectedRule(val rule: String = "", val kind: String = "", val reason: String = "")

/** `permissions/list` and the answer of every change of the rules or the mode. */
data class PermissionState(
    val mode: String = PermissionModes.ASK,
    val modeSource: String = "default",
    val allow: List<SourcedRule> = emptyList(),
    val deny: List<SourcedRule> = emptyList(),
    val rejected: List<RejectedRule> = emptyList(),
    val askTimeoutMs: Long = 0,
    val canAsk: Boolean = false,
)

/** `permissions/check`'s answer. */
data class PermissionCheckResult(
    val allowed: Boolean = false,
    val message: String = "",
    val asked: Boolean = false,
    val answer: JsonObject? = null,
    val rulesAdded: List<String>? = null,
)

// ---- notifications (core -> host) -------------------------------------------------------------

data class ToolStarted(
    val callId: String = "",
    val sessionId: String = "",
    val name: String = "",
    val arguments: JsonObject? = null,
    val startedAt: String = "",
)

data class ToolProgress(
    val callId: String = "",
    val sessionId: String = "",
    val message: String? = null,
    val progress: Double? = null,
    val total: Double? = null,
)

/**
 * `tool/output`: the files a running shell command writes to (Bash: stdout and stderr in
 * [outputPath]; run_shell_command: stdout there, stderr in [stderrPath]). No output travels in
 * the event: the tool window reads the files to show what the command prints as it comes.
 */
data class ToolOutput(
    val callId: String = "",
    val sessionId: String = "",
    val outputPath: String = "",
    val stderrPath: String? = null,
)

/**
 * `tool/finished`. The core sends a bounded [summary], never the result; the plugin adds the whole
 * [result] before a card shows the call — its own call's answer, or `calls/result` for a call it did
 * not make ([WaveCoreApi.completeFinished]). When that cannot be had, [resultUnavailable] says why
 * and the card shows the summary.
 */
data class ToolFinished(
    val callId: String = "",
    val sessionId: String = "",
    val name: String = "",
    val isError: Boolean = false,
    val durationMs: Long = 0,
    val result: CallToolResult? = null,
    val summary: ToolCallSummary? = null,
    val resultUnavailable: String? = null,
) {
    /** What a card shows: the whole result, else one made of the summary (its header fields, the preview as text). */
    val shown: CallToolResult get() = result ?: (summary ?: ToolCallSummary()).asResult(isError)
}

/**
 * `tool/finished`'s `summary` (PROTOCOL.md "ToolCallSummary"): at most about 7 KB whatever the tool
 * returned. [fields] holds the card-header members of `structuredContent` under their own names.
 */
data class ToolCallSummary(
    val preview: String = "",
    val textChars: Long = 0,
    val resultBytes: Long = 0,
    val errorKind: String? = null,
    val fields: JsonObject? = null,
) {
    /** A result the cards' readers decode as they decode a whole one: the header fields, the preview as its text. */
    fun asResult(isError: Boolean): CallToolResult {
        val structured = fields?.deepCopy() ?: JsonObject()
        if (errorKind != null && !structured.has("errorKind")) structured.addProperty("errorKind", errorKind)
        return CallToolResult(if (preview.isEmpty()) emptyList() else listOf(ContentItem(text = preview)), structured, isError)
    }
}

data class SessionCwdChanged(
    val sessionId: String = "",
    val cwd: String = "",
    val previousCwd: String = "",
    val reset: Boolean = false,
)

/** `session/created`. */
data class SessionEvent(val sessionId: String = "", val parentSessionId: String? = null, val cwd: String? = null)

/** `session/disposed`: only the id (its directory and parent went with it). */
data class SessionDisposedEvent(val sessionId: String = "")

/** `task/started` and `task/finished` (the tool window reads the task; `task.status` says how it ended). */
data class TaskEvent(val sessionId: String? = null, val task: TaskInfo = TaskInfo())

/** `session/opened`: an agent connected over MCP and has its own session. */
data class AgentSessionOpened(val sessionId: String = "", val client: ClientInfo = ClientInfo(), val cwd: String = "", val transport: String = "")

/** `session/closed`: that agent's connection ended; its calls were cut short and its tasks stopped. */
data class AgentSessionClosed(val sessionId: String = "", val client: ClientInfo = ClientInfo(), val reason: String = "")

/** Method names of the notifications the core sends. */
object CoreNotifications {
    const val TOOL_STARTED = "tool/started"
    const val TOOL_PROGRESS = "tool/progress"
    const val TOOL_OUTPUT = "tool/output"
    const val TOOL_FINISHED = "tool/finished"
    const val SESSION_CREATED = "session/created"
    const val SESSION_DISPOSED = "session/disposed"
    const val SESSION_OPENED = "session/opened"
    const val SESSION_CLOSED = "session/closed"
    const val SESSION_CWD_CHANGED = "session/cwdChanged"
    const val DIRECTORIES_CHANGED = "workspace/directoriesChanged"
    const val TASK_STARTED = "task/started"
    const val TASK_FINISHED = "task/finished"
    const val ENV_STATUS_CHANGED = "env/statusChanged"
    const val PERMISSION_DECIDED = "permission/decided"
    const val PERMISSION_RULES_CHANGED = "permission/rulesChanged"
}

/** Method names of the requests the core sends to the host. */
object CoreRequests {
    const val PERMISSION_REQUEST = "permission/request"
}

/**
 * Typed view of what the core announces. Every method has a default so a listener implements only
 * what it shows. Called on the bridge's reader thread: hop to the UI thread before touching Swing.
 */
interface CoreEvents {
    fun toolStarted(event: ToolStarted) {}
    fun toolProgress(event: ToolProgress) {}
    fun toolOutput(event: ToolOutput) {}
    fun toolFinished(event: ToolFinished) {}
    fun cwdChanged(event: SessionCwdChanged) {}
    fun sessionCreated(event: SessionEvent) {}
    fun sessionDisposed(event: SessionDisposedEvent) {}
    fun agentSessionOpened(event: AgentSessionOpened) {}
    fun agentSessionClosed(event: AgentSessionClosed) {}
    fun taskStarted(task: TaskInfo) {}
    fun taskFinished(task: TaskInfo) {}
    fun envStatusChanged(status: EnvStatus) {}
    fun permissionDecided(event: PermissionDecided) {}
    fun permissionRulesChanged(event: PermissionRulesChanged) {}
    /** Any notification, including ones this host does not know yet. */
    fun other(method: String, params: JsonElement?) {}

    companion object {
        /** Decodes one notification and calls the matching method. Unknown methods go to [other]. */
        fun dispatch(listener: CoreEvents, method: String, params: JsonElement?) {
            when (method) {
                CoreNotifications.TOOL_STARTED -> listener.toolStarted(Json.decode(params))
                CoreNotifications.TOOL_PROGRESS -> listener.toolProgress(Json.decode(params))
                CoreNotifications.TOOL_OUTPUT -> listener.toolOutput(Json.decode(params))
                CoreNotifications.TOOL_FINISHED -> listener.toolFinished(Json.decode(params))
                CoreNotifications.SESSION_CWD_CHANGED -> listener.cwdChanged(Json.decode(params))
                CoreNotifications.SESSION_CREATED -> listener.sessionCreated(Json.decode(params))
                CoreNotifications.SESSION_DISPOSED -> listener.sessionDisposed(Json.decode(params))
                CoreNotifications.SESSION_OPENED -> listener.agentSessionOpened(Json.decode(params))
                CoreNotifications.SESSION_CLOSED -> listener.agentSessionClosed(Json.decode(params))
                CoreNotifications.TASK_STARTED -> listener.taskStarted(Json.decode<TaskEvent>(params).task)
                CoreNotifications.TASK_FINISHED -> listener.taskFinished(Json.decode<TaskEvent>(params).task)
                CoreNotifications.ENV_STATUS_CHANGED -> listener.envStatusChanged(Json.decode(params))
                CoreNotifications.PERMISSION_DECIDED -> listener.permissionDecided(Json.decode(params))
                CoreNotifications.PERMISSION_RULES_CHANGED -> listener.permissionRulesChanged(Json.decode(params))
                else -> listener.other(method, params)
            }
        }
    }
}
