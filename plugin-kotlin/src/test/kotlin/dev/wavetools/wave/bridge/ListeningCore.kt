package dev.wavetools.wave.bridge

import java.nio.file.Files
import java.nio.file.Path

/**
 * The core as the plugin runs it for agents: in its default `ask` mode, listening (`--listen`) with
 * a WAVE_STATE_DIR of its own, the permission bridge answering for the host and the attached agents
 * tracked. Agents started with [McpAgent] in [root] and [stateDir] find it.
 */
class ListeningCore : AutoCloseable {
    val root: Path = TestSupport.workspace()
    val stateDir: Path = Files.createTempDirectory("wave-state-")
    val log = RecordingLog()
    val permissions = PermissionBridge(
        object : PermissionStore {
            override fun load() = PermissionSettings()
            override fun save(settings: PermissionSettings) {}
        },
        log,
    )
    val agents = AttachedAgents(log)
    val supervisor = CoreSupervisor(
        launch = { TestSupport.askingLaunch(root, mapOf("WAVE_STATE_DIR" to stateDir.toString())).copy(extraArgs = listOf("--listen", "127.0.0.1:0")) },
        initializeParams = { permissions.initializeParams(InitializeParams(hostInfo = HostInfo("IntelliJ IDEA", "2025.3"), workspaceRoot = root.toString())) },
        log = log,
    ).also {
        permissions.attachTo(it)
        agents.attachTo(it)
    }

    fun agent(): McpAgent = McpAgent(root, stateDir)

    override fun close() {
        supervisor.close()
        TestSupport.deleteTree(root)
        TestSupport.deleteTree(stateDir)
    }
}
