package dev.wavetools.wave.bridge

import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import java.io.BufferedWriter
import java.nio.file.Path
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * An agent as the tests need one: `node wave-core.js mcp --attach` started in a directory, spoken
 * to in MCP's stdio framing (one JSON-RPC message per line), the way Claude Code or Codex do.
 */
class McpAgent(cwd: Path, stateDir: Path, val name: String = "kotlin-test-agent", val version: String = "7.8.9") : AutoCloseable {
    val process: Process = ProcessBuilder(TestSupport.node.toString(), TestSupport.coreScript.toString(), "mcp", "--attach")
        .directory(cwd.toFile())
        .apply {
            environment()["WAVE_STATE_DIR"] = stateDir.toString()
            redirectError(ProcessBuilder.Redirect.DISCARD)
        }
        .start()
    private val writer: BufferedWriter = process.outputStream.bufferedWriter()
    private val pending = ConcurrentHashMap<Int, CompletableFuture<JsonObject>>()
    private val ids = AtomicInteger(1)

    init {
        Thread({
            process.inputStream.bufferedReader().forEachLine { line ->
                val msg = try {
                    JsonParser.parseString(line).asJsonObject
                } catch (_: Exception) {
                    return@forEachLine
                }
                val id = msg.get("id")
                if (id != null && !msg.has("method")) pending.remove(id.asInt)?.complete(msg)
            }
        }, "mcp-agent-reader").apply { isDaemon = true }.start()
        val init = request("initialize", JsonParser.parseString("""{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"$name","version":"$version"}}"""))
        check(init.get(30, TimeUnit.SECONDS).has("result")) { "initialize failed" }
        notify("notifications/initialized")
    }

    fun request(method: String, params: JsonElement): CompletableFuture<JsonObject> {
        val id = ids.getAndIncrement()
        val future = CompletableFuture<JsonObject>()
        pending[id] = future
        send(JsonObject().apply {
            addProperty("jsonrpc", "2.0")
            addProperty("id", id)
            addProperty("method", method)
            add("params", params)
        })
        return future
    }

    fun notify(method: String) = send(JsonObject().apply {
        addProperty("jsonrpc", "2.0")
        addProperty("method", method)
    })

    /** A `tools/call`; its future completes with the result object (`content`, `structuredContent`, `isError`). */
    fun callTool(name: String, arguments: Map<String, Any?>): CompletableFuture<JsonObject> =
        request("tools/call", JsonObject().apply {
            addProperty("name", name)
            add("arguments", Json.encode(arguments))
        }).thenApply { it.getAsJsonObject("result") ?: throw IllegalStateException("tools/call failed: $it") }

    @Synchronized
    private fun send(message: JsonObject) {
        writer.write(message.toString())
        writer.newLine()
        writer.flush()
    }

    /** The agent exits the way agents do: its stdin closes. */
    override fun close() {
        try {
            writer.close()
        } catch (_: Exception) {
        }
        if (!process.waitFor(15, TimeUnit.SECONDS)) process.destroyForcibly()
    }
}
