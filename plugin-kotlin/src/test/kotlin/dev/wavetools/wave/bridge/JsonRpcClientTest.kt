package dev.wavetools.wave.bridge

import com.google.gson.JsonObject
import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertInstanceOf
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.ExecutionException
import java.util.concurrent.TimeUnit

/** The JSON-RPC client on its own: what it writes, and how it treats every kind of line it reads. */
class JsonRpcClientTest {
    private val sent = CopyOnWriteArrayList<JsonObject>()
    private val log = RecordingLog()
    private val client = JsonRpcClient({ sent += JsonParser.parseString(it).asJsonObject }, log, TestSupport.scheduler)

    private fun lastSent(method: String) = sent.last { it.get("method")?.asString == method }

    @Test
    fun `correlates answers that arrive out of order`() {
        val a = client.request<ToolsListResult>("tools/list", emptyMap<String, Any>())
        val b = client.request<SessionsListResult>("sessions/list", emptyMap<String, Any>())
        client.handleLine("""{"jsonrpc":"2.0","id":${b.id},"result":{"sessions":[{"sessionId":"main","cwd":"/w","originalCwd":"/w"}]}}""")
        client.handleLine("""{"jsonrpc":"2.0","id":${a.id},"result":{"tools":[{"name":"Read","description":"d"}]}}""")
        assertEquals("Read", a.get(Duration.ofSeconds(1)).tools.single().name)
        assertEquals("main", b.get(Duration.ofSeconds(1)).sessions.single().sessionId)
        assertEquals(0, client.pendingCount)
    }

    @Test
    fun `writes JSON-RPC 2 requests without null fields`() {
        client.request<CallToolResult>("tools/call", CallToolParams(name = "Read", arguments = mapOf("file_path" to "a")))
        val msg = lastSent("tools/call")
        assertEquals("2.0", msg.get("jsonrpc").asString)
        assertTrue(msg.get("id").asJsonPrimitive.isNumber)
        val params = msg.getAsJsonObject("params")
        assertEquals(setOf("name", "arguments"), params.keySet(), "absent optional fields must not be sent as null")
    }

    @Test
    fun `maps error answers to RpcException with code and data`() {
        val call = client.request<ToolsListResult>("tools/call", emptyMap<String, Any>())
        client.handleLine("""{"jsonrpc":"2.0","id":${call.id},"error":{"code":-32602,"message":"Invalid params","data":{"issues":[]}}}""")
        val e = assertThrows<RpcException> { call.get(Duration.ofSeconds(1)) }
        assertEquals(RpcErrors.INVALID_PARAMS, e.code)
        assertTrue(e.data!!.isJsonObject)
    }

    @Test
    fun `a timeout fails the call and asks the core to cancel it`() {
        val call = client.request<Any?>("tools/call", emptyMap<String, Any>(), Any::class.java, Duration.ofMillis(50))
        assertThrows<RpcTimeoutException> { call.get(Duration.ofSeconds(5)) }
        val cancel = lastSent("\$/cancelRequest")
        assertEquals(call.id, cancel.getAsJsonObject("params").get("id").asLong)
    }

    @Test
    fun `cancel sends cancelRequest and still delivers the core's answer`() {
        val call = client.request<CallToolResult>("tools/call", emptyMap<String, Any>())
        call.cancel()
        assertEquals(call.id, lastSent("\$/cancelRequest").getAsJsonObject("params").get("id").asLong)
        assertTrue(!call.future.isDone, "the answer of a cancelled call is still awaited")
        client.handleLine("""{"jsonrpc":"2.0","id":${call.id},"result":{"content":[{"type":"text","text":"stopped"}],"structuredContent":{"interrupted":true},"isError":true}}""")
        val result = call.get(Duration.ofSeconds(1))
        assertTrue(result.isError)
        assertEquals(true, result.structuredContent!!.get("interrupted").asBoolean)
    }

    @Test
    fun `a cancelled call the core never answers fails after the grace period`() {
        val call = client.request<CallToolResult>("tools/call", emptyMap<String, Any>())
        call.cancel(Duration.ofMillis(30))
        val e = assertThrows<java.util.concurrent.CancellationException> { call.future.get(5, TimeUnit.SECONDS) }
        assertTrue(e.message!!.contains("did not answer"), e.message)
    }

    @Test
    fun `malformed lines are logged and skipped, and the client keeps working`() {
        val call = client.request<ToolsListResult>("tools/list", emptyMap<String, Any>())
        for (bad in listOf("not json at all", "[1,2,3]", "42", """{"jsonrpc":"2.0"}""", """{"jsonrpc":"2.0","id":99999,"result":{}}""", "{\"unterminated\": ")) {
            client.handleLine(bad)
        }
        assertEquals(6, client.skippedLines.get())
        assertEquals(6, log.messages(BridgeLog.Level.WARN).count { it.startsWith("skipped a line from wave-core") })
        client.handleLine("""{"jsonrpc":"2.0","id":${call.id},"result":{"tools":[]}}""")
        assertEquals(emptyList<ToolInfo>(), call.get(Duration.ofSeconds(1)).tools)
    }

    @Test
    fun `notifications reach every listener, typed`() {
        val started = CopyOnWriteArrayList<ToolStarted>()
        val others = CopyOnWriteArrayList<String>()
        client.addListener { method, params ->
            CoreEvents.dispatch(object : CoreEvents {
                override fun toolStarted(event: ToolStarted) { started += event }
                override fun other(method: String, params: com.google.gson.JsonElement?) { others += method }
            }, method, params)
        }
        client.handleLine("""{"jsonrpc":"2.0","method":"tool/started","params":{"callId":"c1","sessionId":"main","name":"Bash","arguments":{"command":"ls"},"startedAt":"2026-01-01T00:00:00Z"}}""")
        client.handleLine("""{"jsonrpc":"2.0","method":"something/new","params":{}}""")
        assertEquals("ls", started.single().arguments!!.get("command").asString)
        assertEquals(listOf("something/new"), others)
    }

    @Test
    fun `a request from the core for a method nobody serves is answered with method-not-found`() {
        client.handleLine("""{"jsonrpc":"2.0","id":"core-1","method":"host/askSomething","params":{}}""")
        val reply = sent.last()
        assertEquals("core-1", reply.get("id").asString)
        assertEquals(RpcErrors.METHOD_NOT_FOUND, reply.getAsJsonObject("error").get("code").asInt)
        assertEquals(0, client.openCoreRequests)
    }

    @Test
    fun `a registered handler answers the core's request with its result, later and on another thread`() {
        val answer = CompletableFuture<Any?>()
        val seen = CopyOnWriteArrayList<CoreRequest>()
        client.handle("permission/request") { seen += it; answer }
        client.handleLine("""{"jsonrpc":"2.0","id":"core-7","method":"permission/request","params":{"tool":"Bash"}}""")
        assertEquals("Bash", seen.single().params!!.asJsonObject.get("tool").asString)
        assertEquals(1, client.openCoreRequests)
        assertTrue(sent.none { it.has("id") && it.get("id").asString == "core-7" }, "nothing is sent before the handler answers")
        Thread { answer.complete(mapOf("decision" to "allow-once")) }.apply { start(); join() }
        val reply = sent.last()
        assertEquals("core-7", reply.get("id").asString)
        assertEquals("allow-once", reply.getAsJsonObject("result").get("decision").asString)
        assertEquals(0, client.openCoreRequests)
    }

    @Test
    fun `a handler's HostRequestError becomes that JSON-RPC error, any other failure -32603`() {
        client.handle("a") { CompletableFuture.failedFuture<Any?>(HostRequestError(-32042, "no way", mapOf("why" to "test"))) }
        client.handle("b") { throw IllegalStateException("boom") }
        client.handleLine("""{"jsonrpc":"2.0","id":1,"method":"a"}""")
        val a = sent.last().getAsJsonObject("error")
        assertEquals(-32042, a.get("code").asInt)
        assertEquals("no way", a.get("message").asString)
        assertEquals("test", a.getAsJsonObject("data").get("why").asString)
        client.handleLine("""{"jsonrpc":"2.0","id":2,"method":"b"}""")
        val b = sent.last()
        assertEquals(2, b.get("id").asInt)
        assertEquals(RpcErrors.INTERNAL_ERROR, b.getAsJsonObject("error").get("code").asInt)
        assertTrue(b.getAsJsonObject("error").get("message").asString.contains("boom"))
    }

    @Test
    fun `cancelRequest from the core tells the handler, and its late answer is not sent`() {
        val answer = CompletableFuture<Any?>()
        var request: CoreRequest? = null
        client.handle("permission/request") { request = it; answer }
        client.handleLine("""{"jsonrpc":"2.0","id":"core-3","method":"permission/request","params":{}}""")
        assertFalse(request!!.isCancelled)
        client.handleLine("""{"jsonrpc":"2.0","method":"${'$'}/cancelRequest","params":{"id":"core-3"}}""")
        assertTrue(request!!.cancelled.isDone)
        assertEquals(0, client.openCoreRequests)
        val before = sent.size
        answer.complete(mapOf("decision" to "allow-once"))
        assertEquals(before, sent.size, "an answer after the core stopped waiting is dropped")
    }

    @Test
    fun `closing the connection cancels the core's open requests`() {
        var request: CoreRequest? = null
        client.handle("permission/request") { request = it; CompletableFuture<Any?>() }
        client.handleLine("""{"jsonrpc":"2.0","id":"core-1","method":"permission/request","params":{}}""")
        client.close("wave-core was stopped")
        assertTrue(request!!.isCancelled)
    }

    @Test
    fun `removing a handler makes the method unknown again`() {
        val registration = client.handle("permission/request") { CompletableFuture.completedFuture<Any?>(null) }
        registration.close()
        client.handleLine("""{"jsonrpc":"2.0","id":"core-9","method":"permission/request","params":{}}""")
        assertEquals(RpcErrors.METHOD_NOT_FOUND, sent.last().getAsJsonObject("error").get("code").asInt)
    }

    @Test
    fun `closing fails pending calls and later requests at once`() {
        val call = client.request<ToolsListResult>("tools/list", emptyMap<String, Any>())
        client.close("wave-core exited unexpectedly (exit code 1)")
        val e = assertThrows<ConnectionClosedException> { call.get(Duration.ofSeconds(1)) }
        assertTrue(e.message!!.contains("exit code 1"))
        assertThrows<ConnectionClosedException> { client.request<ToolsListResult>("tools/list").get(Duration.ofSeconds(1)) }
    }
}
