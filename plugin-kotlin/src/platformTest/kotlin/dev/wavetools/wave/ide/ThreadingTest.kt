package dev.wavetools.wave.ide

import dev.wavetools.wave.bridge.AgentConnect
import dev.wavetools.wave.bridge.AgentKind
import dev.wavetools.wave.bridge.AttachCommand
import dev.wavetools.wave.bridge.ConnectStep
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.RecordingLog
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.ui.ApplyOutcome
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import javax.swing.JPanel

/** ide/'s threading with a fake UI thread that keeps the platform's modality rule. */
class ThreadingTest {
    private val threads = FakeUiThreads()
    private val home = Files.createTempDirectory("wave-home-").toRealPath()
    private val connect = AgentConnect(AttachCommand("/usr/bin/node", "/opt/wave/core/wave-core.js"), home, mapOf("PATH" to ""))

    @AfterEach
    fun cleanup() {
        threads.close()
        TestSupport.deleteTree(home)
    }

    @Test
    fun `the fake keeps the platform's rule - a non-modal runnable waits while a dialog is open`() {
        val dialog = JPanel()
        threads.openDialog(dialog)
        val ran = CopyOnWriteArrayList<String>()
        threads.later(threads.nonModal) { ran += "non-modal" }
        threads.later(threads.anyModality) { ran += "any" }
        threads.flush()
        assertEquals(listOf("any"), ran, "what a pooled thread posts without a modality is held back by the open dialog")
        threads.closeDialog(dialog)
        assertEquals(listOf("any", "non-modal"), ran)
    }

    @Test
    fun `Connect's Apply reaches its open dialog - the review and the outcome run while it is open`() {
        val dialog = JPanel()
        val anchor = JPanel().also { dialog.add(it) }
        threads.openDialog(dialog)
        val reviewedWithDialogs = CompletableFuture<Int>()
        val done = CompletableFuture<Pair<ApplyOutcome, Int>>()
        val applier = ConnectApplier(threads, connect, isDisposed = { false }) { kind, steps ->
            assertEquals(AgentKind.CODEX, kind)
            assertTrue(steps.single() is ConnectStep.EditFile)
            reviewedWithDialogs.complete(threads.openDialogs)
            true
        }
        threads.onUi { applier.apply(anchor, AgentKind.CODEX, false) { outcome -> done.complete(outcome to threads.openDialogs) } }
        assertEquals(1, reviewedWithDialogs.get(30, TimeUnit.SECONDS), "the review ran while the dialog was open")
        val (outcome, dialogs) = done.get(30, TimeUnit.SECONDS)
        assertEquals(ApplyOutcome.Applied, outcome)
        assertEquals(1, dialogs, "the outcome reached the dialog while it was open")
        assertTrue(Files.readString(home.resolve(".codex/config.toml")).contains("[mcp_servers.wave]"))
        threads.closeDialog(dialog)
    }

    @Test
    fun `Connect opens only after the slow look-ups ran off the UI thread, under a progress`() {
        val prepareOnUi = CompletableFuture<Boolean>()
        val shown = CompletableFuture<Boolean>()
        threads.onUi {
            ConnectOpener(threads).open(
                null,
                prepare = {
                    // Stands for attachCommand() (Node.js search), EnvironmentUtil and the PATH scans.
                    prepareOnUi.complete(threads.isUiThread)
                    connect.prepare()
                },
                show = { c ->
                    assertTrue(c === connect)
                    shown.complete(threads.isUiThread)
                },
                failed = { shown.completeExceptionally(AssertionError(it)) },
            )
        }
        assertFalse(prepareOnUi.get(30, TimeUnit.SECONDS), "the look-ups ran off the UI thread")
        assertTrue(shown.get(30, TimeUnit.SECONDS), "the dialog opens on the UI thread")
        assertEquals(listOf(false), threads.progressWork.map { it.second })
    }

    @Test
    fun `Connect reports a launch problem instead of opening`() {
        val failed = CompletableFuture<String>()
        threads.onUi {
            ConnectOpener(threads).open(
                null,
                prepare = { throw dev.wavetools.wave.bridge.CoreLaunchException("No Node.js 20 or newer was found.") },
                show = { failed.completeExceptionally(AssertionError("opened")) },
                failed = { failed.complete(it) },
            )
        }
        assertEquals("No Node.js 20 or newer was found.", failed.get(30, TimeUnit.SECONDS))
    }

    private fun supervisor(root: java.nio.file.Path) = CoreSupervisor(
        launch = { TestSupport.launchWithoutProbe(root) },
        initializeParams = { InitializeParams(hostInfo = HostInfo("kotlin-threading-test"), workspaceRoot = root.toString()) },
        log = RecordingLog(),
    )

    private fun awaitReady(s: CoreSupervisor) = TestSupport.eventually(Duration.ofSeconds(30), message = { "state: ${s.state}" }) { s.state is CoreState.Ready }

    @Test
    fun `project close - the graceful stop runs off the UI thread under a progress, and dispose then has nothing to kill`() {
        val root = TestSupport.workspace()
        val s = supervisor(root)
        try {
            s.startAsync()
            awaitReady(s)
            val marker = s.process()!!.launch.instanceMarker
            val shutdown = CoreShutdown(threads, s, "Stopping Wave Tools…")
            val report = threads.onUi { shutdown.beforeClose(null) }
            assertNotNull(report)
            assertTrue(report!!.graceful, report.toString())
            assertEquals(listOf("Stopping Wave Tools…" to false), threads.progressWork.toList())
            assertEquals(emptyList<Long>(), threads.onUi { shutdown.dispose() }, "dispose found nothing left")
            assertTrue(TestSupport.markedProcesses(marker).isEmpty())
        } finally {
            s.closeNow()
            TestSupport.deleteTree(root)
        }
    }

    @Test
    fun `dispose without a graceful stop kills the core and its processes at once`() {
        val root = TestSupport.workspace()
        val s = supervisor(root)
        try {
            s.startAsync()
            awaitReady(s)
            val marker = s.process()!!.launch.instanceMarker
            val pid = s.process()!!.pid
            val killed = threads.onUi { CoreShutdown(threads, s, "Stopping Wave Tools…").dispose() }
            assertTrue(pid in killed, "killed: $killed")
            assertTrue(threads.progressWork.isEmpty(), "no progress: dispose does not stop gracefully")
            TestSupport.eventually(message = { "left: ${TestSupport.markedProcesses(marker).keys}" }) { TestSupport.markedProcesses(marker).isEmpty() }
            assertEquals(CoreState.Stopped, s.state)
        } finally {
            TestSupport.deleteTree(root)
        }
    }
}
