package dev.wavetools.wave.bridge

import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/** The settings page's model and its Apply, against the real core. */
class PermissionSettingsTest {
    private val root: Path = TestSupport.workspace()
    private val started = mutableListOf<CoreProcess>()
    private val saved = CopyOnWriteArrayList<PermissionSettings>()
    private val store = object : PermissionStore {
        override fun load() = saved.lastOrNull() ?: PermissionSettings()
        override fun save(settings: PermissionSettings) { saved += settings }
    }

    @AfterEach
    fun cleanup() {
        started.forEach { it.stop() }
        TestSupport.deleteTree(root)
    }

    private fun core(): WaveCoreApi {
        val proc = CoreProcess.start(TestSupport.askingLaunch(root), RecordingLog(), TestSupport.scheduler).also { started += it }
        return WaveCoreApi(proc.rpc).also {
            it.initialize(InitializeParams(hostInfo = HostInfo("kotlin-settings-test"), settings = mapOf("permissions" to mapOf("allow" to listOf("git status"))))).get(30, TimeUnit.SECONDS)
        }
    }

    @Test
    fun `the form shows the saved settings one rule per line, and reads back what was typed`() {
        val form = PermissionSettingsForm(PermissionSettings(null, listOf("git status", "npm run test:*"), listOf("git push --force:*")))
        assertEquals(PermissionModes.ASK, form.mode, "no saved mode is the core's default, ask")
        assertEquals("git status\nnpm run test:*", form.allowText)
        assertEquals("git push --force:*", form.denyText)
        assertFalse(form.isModified(PermissionSettings(null, listOf("git status", "npm run test:*"), listOf("git push --force:*"))))
        form.allowText = "  git status \n\nnpm run build\n"
        form.mode = PermissionModes.DENY_ALL
        assertEquals(PermissionSettings(PermissionModes.DENY_ALL, listOf("git status", "npm run build"), listOf("git push --force:*")), form.toSettings())
        assertTrue(form.isModified(PermissionSettings(null, listOf("git status", "npm run test:*"), listOf("git push --force:*"))))
    }

    @Test
    fun `Apply updates the running core's rules and mode, then saves them`() {
        val api = core()
        val changes = CopyOnWriteArrayList<PermissionRulesChanged>()
        api.addEventListener(object : CoreEvents {
            override fun permissionRulesChanged(event: PermissionRulesChanged) { changes += event }
        })
        val applier = PermissionSettingsApplier(store) { api }
        val settings = PermissionSettings(PermissionModes.DENY_ALL, listOf("npm run build"), listOf("rm -rf *"))
        assertNull(applier.applyAndWait(settings))
        val state = api.permissionsList().get(30, TimeUnit.SECONDS)
        assertEquals(PermissionModes.DENY_ALL, state.mode)
        assertEquals("host", state.modeSource)
        assertEquals(listOf("npm run build"), state.allow.filter { it.source == "host" }.map { it.rule }, "the page's list replaces the host's rules")
        assertEquals(listOf("rm -rf *"), state.deny.filter { it.source == "host" }.map { it.rule })
        assertEquals(settings, saved.last())
        TestSupport.eventually(message = { "changes: $changes" }) { changes.any { it.hostMode == PermissionModes.DENY_ALL } }
        assertEquals(PermissionSettings.from(changes.last()), settings, "what the core reports is what the page saved")
    }

    @Test
    fun `a rule the core cannot read fails Apply with the core's reason, and nothing changes`() {
        val api = core()
        val applier = PermissionSettingsApplier(store) { api }
        val message = applier.applyAndWait(PermissionSettings(PermissionModes.ALLOW_ALL, listOf("npm run build", "echo \$(whoami)"), emptyList()))
        assertTrue(message != null && message.contains("whoami"), message)
        assertTrue(saved.isEmpty(), "nothing saved")
        val state = api.permissionsList().get(30, TimeUnit.SECONDS)
        assertEquals(PermissionModes.ASK, state.mode, "the mode did not change either")
        assertEquals(listOf("git status"), state.allow.map { it.rule })
    }

    @Test
    fun `without a running core Apply only saves`() {
        val applier = PermissionSettingsApplier(store) { null }
        val settings = PermissionSettings(PermissionModes.ALLOW_ALL, listOf("make"), emptyList())
        assertNull(applier.applyAndWait(settings))
        assertEquals(listOf(settings), saved)
    }
}
