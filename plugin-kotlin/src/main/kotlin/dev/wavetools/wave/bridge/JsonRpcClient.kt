package dev.wavetools.wave.bridge

import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import com.google.gson.JsonPrimitive
import java.lang.reflect.Type
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.ScheduledFuture
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong

/** The core answered a request with a JSON-RPC error. */
class RpcException(val code: Int, message: String, val data: JsonElement?, val method: String) :
    Exception("$method failed ($code): $message")

/** No answer arrived in time; the bridge has asked the core to cancel the request. */
class RpcTimeoutException(val method: String, val timeout: Duration) :
    Exception("$method got no answer within ${timeout.toMillis()} ms; the request was cancelled.")

/** The connection ended (the core exited or was stopped) before the answer arrived. */
class ConnectionClosedException(reason: String) : Exception(reason)

/** Error codes of node-core/PROTOCOL.md. */
object RpcErrors {
    const val PARSE_ERROR = -32700
    const val INVALID_REQUEST = -32600
    const val METHOD_NOT_FOUND = -32601
    const val INVALID_PARAMS = -32602
    const val INTERNAL_ERROR = -32603
    const val SHUTTING_DOWN = -32001
    const val ALREADY_INITIALIZED = -32002
    /** `calls/result`: the call's result is not kept (unknown, dropped, or still running). */
    const val RESULT_NOT_KEPT = -32003
    const val REQUEST_CANCELLED = -32800
}

/**
 * One request in flight. [future] completes with the decoded result, or exceptionally with
 * [RpcException], [RpcTimeoutException] or [ConnectionClosedException].
 */
class RpcCall<T> internal constructor(
    val id: Long,
    val method: String,
    val future: CompletableFuture<T>,
    private val client: JsonRpcClient,
) {
    /**
     * Asks the core to cancel. The core still answers (for a tool call: the result so far, marked
     * interrupted), so [future] completes with that answer; if none arrives within [grace] it fails
     * with [java.util.concurrent.CancellationException].
     */
    fun cancel(grace: Duration = Duration.ofSeconds(15)) = client.cancel(id, grace)

    fun get(timeout: Duration): T = try {
        future.get(timeout.toMillis(), TimeUnit.MILLISECONDS)
    } catch (e: java.util.concurrent.ExecutionException) {
        throw e.cause ?: e
    }
}

/**
 * JSON-RPC 2.0 over one-object-per-line text: request/response correlation, timeouts,
 * cancellation, notification dispatch. Transport-agnostic: [send] writes one line, [handleLine] is
 * fed every line read. Thread-safe.
 */
class JsonRpcClient(
    private val send: (String) -> Unit,
    private val log: BridgeLog,
    private val scheduler: ScheduledExecutorService,
) {
    fun interface NotificationListener {
        fun notification(method: String, params: JsonElement?)
    }

    private class Pending(
        val method: String,
        val type: Type,
        val future: CompletableFuture<Any?>,
        @Volatile var timer: ScheduledFuture<*>?,
    )

    private val nextId = AtomicLong(1)
    private val pending = ConcurrentHashMap<Long, Pending>()
    private val listeners = CopyOnWriteArrayList<NotificationListener>()
    private val sendLock = Any()

    @Volatile
    private var closedReason: String? = null

    /** Lines that were not JSON-RPC and were skipped; for diagnostics and tests. */
    val skippedLines = AtomicLong(0)

    private val handlers = ConcurrentHashMap<String, CoreRequestHandler>()

    /** Requests of the core this host is still working on, by their JSON-RPC id (as JSON text). */
    private val incoming = ConcurrentHashMap<String, CoreRequest>()

    /**
     * Serves requests the core sends to the host (`permission/request`). Every method without a
     * handler is answered `-32601` at once, so the core never waits for a host that cannot answer.
     * Replaces the handler [method] had; closing the returned handle removes it.
     */
    fun handle(method: String, handler: CoreRequestHandler): AutoCloseable {
        handlers[method] = handler
        return AutoCloseable { handlers.remove(method, handler) }
    }

    /** The core's requests that have neither been answered nor cancelled. */
    val openCoreRequests: Int get() = incoming.size

    fun addListener(listener: NotificationListener): AutoCloseable {
        listeners += listener
        return AutoCloseable { listeners -= listener }
    }

    fun <T> request(method: String, params: Any?, resultType: Type, timeout: Duration? = null): RpcCall<T> {
        val id = nextId.getAndIncrement()
        val future = CompletableFuture<Any?>()
        @Suppress("UNCHECKED_CAST")
        val call = RpcCall(id, method, future as CompletableFuture<T>, this)
        closedReason?.let {
            future.completeExceptionally(ConnectionClosedException(it))
            return call
        }
        val entry = Pending(method, resultType, future, null)
        pending[id] = entry
        if (timeout != null) {
            entry.timer = scheduler.schedule({
                if (pending.remove(id) != null) {
                    sendCancel(id)
                    future.completeExceptionally(RpcTimeoutException(method, timeout))
                }
            }, timeout.toMillis(), TimeUnit.MILLISECONDS)
        }
        val message = JsonObject().apply {
            addProperty("jsonrpc", "2.0")
            addProperty("id", id)
            addProperty("method", method)
            if (params != null) add("params", Json.encode(params))
        }
        try {
            write(message)
        } catch (e: Exception) {
            pending.remove(id)
            entry.timer?.cancel(false)
            future.completeExceptionally(ConnectionClosedException("Could not send $method to wave-core: ${e.message}"))
        }
        return call
    }

    inline fun <reified T> request(method: String, params: Any? = null, timeout: Duration? = null): RpcCall<T> =
        request(method, params, T::class.java, timeout)

    fun notify(method: String, params: Any? = null) {
        val message = JsonObject().apply {
            addProperty("jsonrpc", "2.0")
            addProperty("method", method)
            if (params != null) add("params", Json.encode(params))
        }
        write(message)
    }

    internal fun cancel(id: Long, grace: Duration) {
        val entry = pending[id] ?: return
        sendCancel(id)
        entry.timer?.cancel(false)
        entry.timer = scheduler.schedule({
            if (pending.remove(id) != null) {
                entry.future.completeExceptionally(
                    java.util.concurrent.CancellationException("${entry.method} was cancelled and the core did not answer within ${grace.toMillis()} ms"),
                )
            }
        }, grace.toMillis(), TimeUnit.MILLISECONDS)
    }

    private fun sendCancel(id: Long) {
        try {
            notify(CANCEL_REQUEST, mapOf("id" to id))
        } catch (e: Exception) {
            log.debug("could not send \$/cancelRequest for $id: ${e.message}")
        }
    }

    private fun write(message: JsonObject) {
        val line = Json.gson.toJson(message)
        synchronized(sendLock) { send(line) }
    }

    /** Feeds one line read from the core. Anything that is not a JSON-RPC message is logged and skipped. */
    fun handleLine(line: String) {
        if (line.isBlank()) return
        val element = try {
            JsonParser.parseString(line)
        } catch (e: Exception) {
            skip("not JSON", line)
            return
        }
        if (!element.isJsonObject) {
            skip("not a JSON object", line)
            return
        }
        val msg = element.asJsonObject
        val method = msg.get("method")?.takeIf { it.isJsonPrimitive }?.asString
        val id = msg.get("id")
        when {
            method != null && id != null && !id.isJsonNull -> serve(id, method, msg.get("params"))
            method == CANCEL_REQUEST -> cancelIncoming(msg.get("params"))
            method != null -> dispatch(method, msg.get("params"))
            id != null && (msg.has("result") || msg.has("error")) -> complete(id, msg, line)
            else -> skip("neither a response nor a notification", line)
        }
    }

    private fun complete(id: JsonElement, msg: JsonObject, line: String) {
        if (id.isJsonNull) {
            // The core could not read something we sent; nothing is waiting for it by id.
            log.warn("wave-core rejected a message: ${msg.get("error")}")
            return
        }
        val key = (id as? JsonPrimitive)?.takeIf { it.isNumber }?.asLong
        val entry = key?.let { pending.remove(it) }
        if (entry == null) {
            skip("a response to an unknown request id $id", line)
            return
        }
        entry.timer?.cancel(false)
        val error = msg.get("error")
        if (error != null && !error.isJsonNull) {
            val obj = error.takeIf { it.isJsonObject }?.asJsonObject
            entry.future.completeExceptionally(
                RpcException(
                    code = obj?.get("code")?.takeIf { it.isJsonPrimitive }?.asInt ?: RpcErrors.INTERNAL_ERROR,
                    message = obj?.get("message")?.takeIf { it.isJsonPrimitive }?.asString ?: error.toString(),
                    data = obj?.get("data"),
                    method = entry.method,
                ),
            )
            return
        }
        try {
            entry.future.complete(Json.decode<Any?>(msg.get("result"), entry.type))
        } catch (e: Exception) {
            entry.future.completeExceptionally(RpcException(RpcErrors.INTERNAL_ERROR, "unreadable result: ${e.message}", msg.get("result"), entry.method))
        }
    }

    private fun dispatch(method: String, params: JsonElement?) {
        for (l in listeners) {
            try {
                l.notification(method, params)
            } catch (e: Exception) {
                log.error("a listener failed on $method", e)
            }
        }
    }

    private fun serve(id: JsonElement, method: String, params: JsonElement?) {
        val handler = handlers[method]
        if (handler == null) {
            log.warn("wave-core asked the host for \"$method\", which this plugin does not serve")
            reply(id, method, null, HostRequestError(RpcErrors.METHOD_NOT_FOUND, "The JetBrains host does not serve $method."))
            return
        }
        val request = CoreRequest(id, method, params)
        val key = id.toString()
        if (incoming.putIfAbsent(key, request) != null) {
            reply(id, method, null, HostRequestError(RpcErrors.INVALID_REQUEST, "Request id $id is already in flight."))
            return
        }
        val answer = try {
            handler.handle(request)
        } catch (e: Exception) {
            CompletableFuture.failedFuture(e)
        }
        answer.whenComplete { value, error ->
            // A request the core cancelled is forgotten there: an answer would only be logged as stray.
            if (incoming.remove(key, request) && !request.isCancelled) reply(id, method, value, error)
        }
    }

    private fun reply(id: JsonElement, method: String, value: Any?, error: Throwable?) {
        val cause = if (error is java.util.concurrent.CompletionException) error.cause ?: error else error
        val message = JsonObject().apply {
            addProperty("jsonrpc", "2.0")
            add("id", id)
            if (cause == null) {
                add("result", Json.encode(value))
            } else {
                val e = cause as? HostRequestError
                    ?: HostRequestError(RpcErrors.INTERNAL_ERROR, "The host failed to answer $method: ${cause.message}").also {
                        log.error("answering $method failed", cause)
                    }
                add("error", JsonObject().apply {
                    addProperty("code", e.code)
                    addProperty("message", e.message)
                    if (e.data != null) add("data", Json.encode(e.data))
                })
            }
        }
        try {
            write(message)
        } catch (e: Exception) {
            log.debug("could not answer $method: ${e.message}")
        }
    }

    /** `$/cancelRequest` from the core: it stopped waiting for one of its requests (timeout, or the call ended). */
    private fun cancelIncoming(params: JsonElement?) {
        val id = params?.takeIf { it.isJsonObject }?.asJsonObject?.get("id")
        val request = id?.let { incoming.remove(it.toString()) }
        if (request == null) {
            log.debug("wave-core cancelled request $id, which is not open here")
            return
        }
        request.cancel()
    }

    private fun skip(why: String, line: String) {
        skippedLines.incrementAndGet()
        val preview = if (line.length > 200) line.take(200) + "…" else line
        log.warn("skipped a line from wave-core ($why): $preview")
    }

    /** Fails every request still waiting; later requests fail at once; the core's open requests are cancelled. */
    fun close(reason: String) {
        closedReason = reason
        for (key in incoming.keys.toList()) incoming.remove(key)?.cancel()
        for (id in pending.keys.toList()) {
            val entry = pending.remove(id) ?: continue
            entry.timer?.cancel(false)
            entry.future.completeExceptionally(ConnectionClosedException(reason))
        }
    }

    val pendingCount: Int get() = pending.size

    companion object {
        const val CANCEL_REQUEST = "\$/cancelRequest"
    }
}

/** Answers one kind of request the core sends to the host. Called on the bridge's reader thread: return at once. */
fun interface CoreRequestHandler {
    /**
     * The future's value is the result; failing it with [HostRequestError] answers that error, with
     * anything else `-32603`. It may complete on any thread, and need not once [CoreRequest.cancelled] fired.
     */
    fun handle(request: CoreRequest): CompletableFuture<out Any?>
}

/** A JSON-RPC error a [CoreRequestHandler] answers with. */
class HostRequestError(val code: Int, message: String, val data: Any? = null) : Exception(message)

/** One request of the core to the host, open until answered or cancelled. */
class CoreRequest internal constructor(val id: JsonElement, val method: String, val params: JsonElement?) {
    /**
     * Completes when the core stops waiting (`$/cancelRequest`: its timeout ran out, or the call
     * that asked ended) or the connection closed. An answer given after that is not sent.
     */
    val cancelled = CompletableFuture<Unit>()

    val isCancelled: Boolean get() = cancelled.isDone

    internal fun cancel() {
        cancelled.complete(Unit)
    }
}
