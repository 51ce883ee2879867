package dev.wavetools.wave.bridge

import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Path
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/**
 * Requests the real core sends to the host (`permission/request`) through the client's handler
 * registry: answered, refused, unknown, and withdrawn by the core's `$/cancelRequest`.
 */
class CoreRequestsTest {
    private val root: Path = TestSupport.workspace()
    private val started = mutableListOf<CoreProcess>()

    @AfterEach
    fun cleanup() {
        started.forEach { it.stop() }
        TestSupport.deleteTree(root)
    }

    /** A core in its default `ask` mode whose host declared it answers permission questions. */
    private fun askingCore(askTimeoutMs: Long? = null, register: (JsonRpcClient) -> Unit = {}): WaveCoreApi {
        val proc = CoreProcess.start(TestSupport.askingLaunch(root), RecordingLog(), TestSupport.scheduler).also { started += it }
        register(proc.rpc)
        val api = WaveCoreApi(proc.rpc)
        val permissions = if (askTimeoutMs == null) emptyMap() else mapOf("askTimeoutMs" to askTimeoutMs)
        val info = api.initialize(
            InitializeParams(
                hostInfo = HostInfo("kotlin-core-requests-test"),
                capabilities = HostCapabilities(permissionRequests = true),
                settings = mapOf("permissions" to permissions),
            ),
        ).get(30, TimeUnit.SECONDS)
        assertTrue(info.capabilities.permissionRequests, "this core asks its host")
        return api
    }

    @Test
    fun `the handler's answer reaches the core - allow-once allows the check`() {
        val prompts = CopyOnWriteArrayList<PermissionPrompt>()
        val api = askingCore { rpc ->
            rpc.handle(CoreRequests.PERMISSION_REQUEST) { request ->
                prompts += Json.decode<PermissionPrompt>(request.params)
                CompletableFuture.completedFuture(PermissionAnswer.allowOnce())
            }
        }
        val result = api.permissionsCheck("touch made-by-test", description = "a test").future.get(30, TimeUnit.SECONDS)
        assertTrue(result.allowed, result.message)
        assertTrue(result.asked)
        val prompt = prompts.single()
        assertEquals("touch made-by-test", prompt.command)
        assertEquals("a test", prompt.description)
        assertEquals(root.toString(), prompt.directory)
        assertEquals(listOf("touch made-by-test"), prompt.parts.map { it.text })
    }

    @Test
    fun `a handler's error answer denies, saying the question could not be shown`() {
        val api = askingCore { rpc ->
            rpc.handle(CoreRequests.PERMISSION_REQUEST) { CompletableFuture.failedFuture<Any?>(HostRequestError(RpcErrors.INTERNAL_ERROR, "no window to ask in")) }
        }
        val result = api.permissionsCheck("touch made-by-test").future.get(30, TimeUnit.SECONDS)
        assertFalse(result.allowed)
        assertTrue(result.message.contains("could not be shown to the user (no window to ask in)"), result.message)
    }

    @Test
    fun `a request nobody serves is answered method-not-found, and the core denies instead of waiting`() {
        val api = askingCore()
        val result = api.permissionsCheck("touch made-by-test").future.get(30, TimeUnit.SECONDS)
        assertFalse(result.allowed)
        assertTrue(result.message.contains("could not be shown to the user"), result.message)
    }

    @Test
    fun `the core's cancelRequest after its ask timeout reaches the handler`() {
        val requests = CopyOnWriteArrayList<CoreRequest>()
        var rpc: JsonRpcClient? = null
        val api = askingCore(askTimeoutMs = 1000) { client ->
            rpc = client
            client.handle(CoreRequests.PERMISSION_REQUEST) { requests += it; CompletableFuture<Any?>() }
        }
        val check = api.permissionsCheck("touch made-by-test")
        TestSupport.eventually(message = { "the core never asked" }) { requests.isNotEmpty() }
        requests.single().cancelled.get(30, TimeUnit.SECONDS)
        assertEquals(0, rpc!!.openCoreRequests)
        val result = check.future.get(30, TimeUnit.SECONDS)
        assertFalse(result.allowed)
        assertTrue(result.message.contains("nobody answered"), result.message)
    }

    @Test
    fun `cancelling the call that waits for an answer withdraws the question`() {
        val requests = CopyOnWriteArrayList<CoreRequest>()
        val api = askingCore { client -> client.handle(CoreRequests.PERMISSION_REQUEST) { requests += it; CompletableFuture<Any?>() } }
        val call = api.runBash(BashRequest("touch never-made", description = "cancelled while asking"))
        TestSupport.eventually(message = { "the core never asked" }) { requests.isNotEmpty() }
        call.cancel()
        requests.single().cancelled.get(30, TimeUnit.SECONDS)
        val result = call.result.get(30, TimeUnit.SECONDS)
        assertTrue(result.isError)
        assertFalse(root.resolve("never-made").toFile().exists(), "nothing ran")
    }
}
