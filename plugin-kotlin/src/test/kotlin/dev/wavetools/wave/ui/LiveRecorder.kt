package dev.wavetools.wave.ui

import com.google.gson.JsonElement
import com.google.gson.JsonParser
import dev.wavetools.wave.bridge.BashRequest
import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.CoreLaunch
import dev.wavetools.wave.bridge.CoreProcess
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.bridge.WaveCoreApi
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/**
 * Runs a real bundled core and records every notification it sends, in order, from its first line
 * on: a session the feed can be built from exactly as the tool window would see it.
 */
class LiveRecorder(val root: Path, launch: CoreLaunch = TestSupport.launchWithoutProbe(root)) : AutoCloseable {
    val messages = CopyOnWriteArrayList<Pair<String, JsonElement?>>()
    val proc: CoreProcess = CoreProcess.start(launch, RecordingLog(), TestSupport.scheduler) { line ->
        val msg = JsonParser.parseString(line).asJsonObject
        // Notifications only: the feed is built from them, never from the answers.
        if (msg.has("method") && !msg.has("id")) messages += msg.get("method").asString to msg.get("params")
    }
    val api = WaveCoreApi(proc.rpc)

    init {
        api.initialize(InitializeParams(hostInfo = HostInfo("kotlin-live-recorder"), workspaceRoot = root.toString())).get(30, TimeUnit.SECONDS)
    }

    /**
     * Runs a command and returns its result. The core sends `tool/finished` (a summary) before it
     * answers and the recorder sees lines in order; the answer then goes into the recorded
     * `tool/finished` as its `result`, as the tool window completes its own calls' cards
     * ([WaveCoreApi.completeFinished]). The recording is complete for this call when this returns.
     */
    fun bash(command: String, description: String? = null, background: Boolean = false): CallToolResult {
        val call = api.runBash(BashRequest(command, description, runInBackground = background))
        val result = call.result.get(60, TimeUnit.SECONDS)
        val i = messages.indexOfFirst { (m, p) -> m == "tool/finished" && p?.asJsonObject?.get("callId")?.asString == call.callId }
        if (i >= 0) {
            val params = messages[i].second!!.asJsonObject.deepCopy()
            params.add("result", dev.wavetools.wave.bridge.Json.encode(result))
            messages[i] = "tool/finished" to params
        }
        return result
    }

    /** Starts a command and returns at once: its card shows it running (and what it printed so far). */
    fun start(command: String, description: String? = null) = api.runBash(BashRequest(command, description))

    /** Waits until a notification [method] has been recorded that [match]es. */
    fun awaitNotification(method: String, match: (JsonElement?) -> Boolean = { true }) =
        TestSupport.eventually(message = { "no $method; recorded ${messages.map { it.first }}" }) { messages.any { it.first == method && match(it.second) } }

    fun recording(): List<Pair<String, JsonElement?>> = messages.toList()

    override fun close() {
        proc.stop()
    }
}
