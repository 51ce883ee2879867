package dev.wavetools.wave.bridge

import com.google.gson.JsonObject
import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/**
 * Where a card's whole result comes from ([WaveCoreApi.completeFinished]), at the wire: this host's
 * own call takes the `tools/call` answer that follows `tool/finished` and asks nothing more; a call
 * it did not make is fetched with `calls/result`; a refused fetch leaves the summary and says why.
 */
class CallResultsTest {
    private val sent = CopyOnWriteArrayList<JsonObject>()
    private val client = JsonRpcClient({ sent += JsonParser.parseString(it).asJsonObject }, RecordingLog(), TestSupport.scheduler)
    private val api = WaveCoreApi(client)
    private val finishedEvents = CopyOnWriteArrayList<java.util.concurrent.CompletableFuture<ToolFinished>>()

    init {
        // As the controller does: completed from the notification listener, on the reading thread.
        api.addEventListener(object : CoreEvents {
            override fun toolFinished(event: ToolFinished) { finishedEvents += api.completeFinished(event) }
        })
    }

    private fun finishedLine(callId: String) =
        """{"jsonrpc":"2.0","method":"tool/finished","params":{"callId":"$callId","sessionId":"main","name":"Bash","isError":false,"durationMs":5,"summary":{"preview":"he","textChars":5,"resultBytes":90,"fields":{"exitCode":0}}}}"""

    private fun sentMethods() = sent.mapNotNull { it.get("method")?.asString }

    @Test
    fun `this host's own call takes its answer, which follows tool-finished, and sends no calls-result`() {
        val call = api.runBash(BashRequest("echo hello"))
        client.handleLine(finishedLine(call.callId))
        val completed = finishedEvents.single()
        assertFalse(completed.isDone, "waits for the answer")
        val id = sent.single { it.get("method")?.asString == "tools/call" }.get("id").asLong
        client.handleLine("""{"jsonrpc":"2.0","id":$id,"result":{"content":[{"type":"text","text":"hello"}],"structuredContent":{"exitCode":0,"output":"hello\n"},"isError":false}}""")
        val event = completed.get(5, TimeUnit.SECONDS)
        assertEquals("hello\n", event.result!!.structuredContent!!.get("output").asString)
        assertNull(event.resultUnavailable)
        assertEquals(listOf("tools/call"), sentMethods())
    }

    @Test
    fun `a call this host did not make is fetched with calls-result`() {
        client.handleLine(finishedLine("agent-7"))
        val request = sent.single()
        assertEquals("calls/result", request.get("method").asString)
        assertEquals("agent-7", request.getAsJsonObject("params").get("callId").asString)
        client.handleLine("""{"jsonrpc":"2.0","id":${request.get("id").asLong},"result":{"content":[{"type":"text","text":"hello world"}],"structuredContent":{"exitCode":0,"output":"hello world\n"},"isError":false}}""")
        val event = finishedEvents.single().get(5, TimeUnit.SECONDS)
        assertEquals("hello world", event.shown.text)
        assertNull(event.resultUnavailable)
    }

    @Test
    fun `a refused fetch leaves the summary, with the core's reason`() {
        client.handleLine(finishedLine("agent-8"))
        val request = sent.single()
        client.handleLine("""{"jsonrpc":"2.0","id":${request.get("id").asLong},"error":{"code":-32003,"message":"The result of call \"agent-8\" is no longer kept.","data":{"callId":"agent-8","running":false}}}""")
        val event = finishedEvents.single().get(5, TimeUnit.SECONDS)
        assertNull(event.result)
        assertTrue(event.resultUnavailable!!.endsWith("The result of call \"agent-8\" is no longer kept."), event.resultUnavailable)
        // What the card shows then: the summary's header fields and preview.
        assertEquals(0, event.shown.structuredContent!!.get("exitCode").asInt)
        assertEquals("he", event.shown.text)
        assertTrue(BashResult.from(event.shown).exitCode == 0)
    }
}
