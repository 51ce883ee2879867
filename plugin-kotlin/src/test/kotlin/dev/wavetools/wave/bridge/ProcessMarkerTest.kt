package dev.wavetools.wave.bridge

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.UUID

/** Finding a core's processes in /proc, with real processes. */
class ProcessMarkerTest {
    @Test
    fun `a zombie is alive to ProcessHandle but not running, so a stop does not count it as left behind`() {
        // `sleep 0` exits at once; its parent execs `sleep 30`, which never reaps it: a zombie.
        val parent = ProcessBuilder("sh", "-c", "sleep 0 & exec sleep 30").start()
        try {
            TestSupport.eventually(message = { "no zombie child" }) {
                parent.toHandle().children().anyMatch { !ProcessMarker.isRunning(it) }
            }
            val zombie = parent.toHandle().children().filter { !ProcessMarker.isRunning(it) }.findFirst().get()
            assertTrue(zombie.isAlive, "ProcessHandle still sees the zombie")
            assertTrue(ProcessMarker.isRunning(parent.toHandle()))
        } finally {
            parent.destroyForcibly().waitFor()
        }
        assertFalse(ProcessMarker.isRunning(parent.toHandle()))
    }

    @Test
    fun `pidsWith finds exactly the processes started with the marker`() {
        val marker = UUID.randomUUID().toString()
        val marked = ProcessBuilder("sleep", "30").apply { environment()[ProcessMarker.ENV_NAME] = marker }.start()
        val similar = ProcessBuilder("sleep", "30").apply { environment()[ProcessMarker.ENV_NAME] = "$marker-other" }.start()
        try {
            TestSupport.eventually(message = { "marker not visible" }) { ProcessMarker.pidsWith(marker).isNotEmpty() }
            assertEquals(listOf(marked.pid()), ProcessMarker.pidsWith(marker))
        } finally {
            marked.destroyForcibly().waitFor()
            similar.destroyForcibly().waitFor()
        }
        assertEquals(emptyList<Long>(), ProcessMarker.pidsWith(marker), "a reaped process is gone from /proc")
    }
}
