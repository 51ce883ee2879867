package dev.wavetools.wave.ide

import com.intellij.notification.NotificationAction
import com.intellij.notification.NotificationGroupManager
import com.intellij.notification.NotificationType
import com.intellij.openapi.Disposable
import com.intellij.openapi.application.ApplicationInfo
import com.intellij.openapi.application.PluginPathManager
import com.intellij.openapi.components.Service
import com.intellij.openapi.components.service
import com.intellij.openapi.components.serviceIfCreated
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.options.ShowSettingsUtil
import com.intellij.openapi.project.Project
import com.intellij.openapi.util.text.StringUtil
import com.intellij.openapi.wm.ToolWindowManager
import com.intellij.util.EnvironmentUtil
import dev.wavetools.wave.bridge.AttachCommand
import dev.wavetools.wave.bridge.AttachedAgents
import dev.wavetools.wave.bridge.BridgeLog
import dev.wavetools.wave.bridge.CoreInstall
import dev.wavetools.wave.bridge.CoreLaunch
import dev.wavetools.wave.bridge.CoreLaunchException
import dev.wavetools.wave.bridge.CoreScript
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.FailureKind
import dev.wavetools.wave.bridge.HostInfo
import dev.wavetools.wave.bridge.InitializeParams
import dev.wavetools.wave.bridge.NodeLocator
import dev.wavetools.wave.bridge.NodeLookup
import dev.wavetools.wave.bridge.PermissionBridge
import dev.wavetools.wave.bridge.WaveLauncher
import dev.wavetools.wave.bridge.WslPath
import dev.wavetools.wave.ui.WaveBundle
import dev.wavetools.wave.ui.WaveController
import java.nio.file.Paths

/**
 * Owns the project's core: created when the tool window opens or an action needs it, disposed with
 * the project — and dispose stops the core and every process it started before it returns (HOST-5).
 */
@Service(Service.Level.PROJECT)
class WaveProjectService(private val project: Project) : Disposable {
    private val log = Logger.getInstance(WaveProjectService::class.java)

    private val bridgeLog = BridgeLog { level, message, error ->
        when (level) {
            BridgeLog.Level.DEBUG -> log.debug(message)
            BridgeLog.Level.INFO -> log.info(message)
            BridgeLog.Level.WARN -> log.warn(message, error)
            BridgeLog.Level.ERROR -> log.error(message, error)
        }
    }

    val supervisor: CoreSupervisor = CoreSupervisor(::launch, ::initializeParams, bridgeLog).also { sup ->
        // On the UI thread: whether the tool window shows the failure is read there.
        sup.addStateListener { state -> if (state is CoreState.Failed) PlatformThreads.later(PlatformThreads.anyModality) { notifyFailure(state) } else lastNotified = null }
    }

    /** The failure a balloon already reported: one report per failure. */
    @Volatile
    private var lastNotified: CoreState.Failed? = null

    private val shutdown = CoreShutdown(PlatformThreads, supervisor, WaveBundle.message("core.stopping.progress"))

    /** Serves the core's permission questions and persists the project's rules when the core reports a change. */
    val permissions = PermissionBridge(WaveProjectSettings.getInstance(project).permissionStore, bridgeLog).also { it.attachTo(supervisor) }

    /** Agents attached to this project's core over MCP (`wave-core mcp --attach`): their tabs and the status line's count. */
    val agents = AttachedAgents(bridgeLog).also { it.attachTo(supervisor) }

    /** An agent's question while the tool window is hidden raises a balloon with Allow Once and Deny. */
    private val balloons = ApprovalBalloons(project, permissions, agents)

    /** The tool window's controller, for the actions; null while the tool window has no content. */
    @Volatile
    var controller: WaveController? = null

    /** Starts the core off the calling thread (the tool window calls this on the UI thread). */
    fun start() = supervisor.startAsync()

    fun restartIfRunning() {
        if (supervisor.state !is CoreState.Stopped) supervisor.restartAsync()
    }

    /** The Node.js the running (or last started) core uses: the settings page and the log say which and where. */
    @Volatile
    var nodeInUse: NodeLookup.Found? = null
        private set

    private fun launch(): CoreLaunch {
        val settings = WaveSettings.getInstance().state
        val root = project.basePath ?: throw CoreLaunchException("This project has no directory on disk; Wave Tools needs one to run commands in.", kind = FailureKind.NO_PROJECT_DIRECTORY)
        WslPath.unsupportedProject(root)?.let { throw it }
        val ideEnvironment = EnvironmentUtil.getEnvironmentMap()
        val managed = ManagedNodeService.getInstance()
        val locator = NodeLocator(
            ideEnvironment,
            ideInterpreter = { IdeNodeInterpreterProvider.find(project) },
            managedNode = { managed.installedNode() },
        )
        val node = when (val found = locator.locate(settings.nodePath)) {
            is NodeLookup.Found -> {
                nodeInUse = found
                log.info("wave-core runs on ${found.describe()}")
                found.path
            }
            is NodeLookup.NotFound -> throw found.launchException()
        }
        val script = CoreScript.require(PluginPathManager.getPluginResource(WaveProjectService::class.java, "core/${CoreScript.FILE_NAME}"))
        val environment = ideEnvironment.toMutableMap()
        settings.waveShell?.takeIf { it.isNotBlank() }?.let { environment["WAVE_SHELL"] = it }
        settings.gitBashPath?.takeIf { it.isNotBlank() }?.let { environment["WAVE_GIT_BASH_PATH"] = it }
        // Agents reach this core with `wave-core mcp --attach` (the lock file says where; docs/user/agents.md).
        return CoreLaunch(node = node, coreScript = script, workspaceRoot = Paths.get(root), environment = environment, extraArgs = listOf("--listen", "127.0.0.1:0"))
    }

    /** What an agent runs to reach this core: this installation's node and bundled core (throws [CoreLaunchException] when there is none). */
    fun attachCommand(): AttachCommand {
        val launch = supervisor.process()?.launch ?: launch()
        return AttachCommand(launch.node.toString(), launch.coreScript.toString())
    }

    /**
     * Registers this installation's core with Wave's launcher ([WaveLauncher]) and returns the attach
     * command that runs through it. Slow (it may locate Node.js): never on the UI thread.
     */
    fun launcherAttachCommand(): AttachCommand {
        val direct = attachCommand()
        val environment = EnvironmentUtil.getEnvironmentMap()
        val launcher = WaveLauncher(WaveLauncher.stateDir(environment, Paths.get(System.getProperty("user.home"))))
        val info = ApplicationInfo.getInstance()
        val path = launcher.register(CoreInstall(direct.node, direct.coreScript, pluginVersion(), "${info.fullApplicationName}"))
        return direct.copy(launcher = path.toString())
    }

    // The default timeout is not a core setting: the controller passes it with each typed command.
    private fun initializeParams(): InitializeParams = permissions.initializeParams(
        InitializeParams(
            // The lock file names the IDE, so an agent's stderr says which IDE it attached to.
            hostInfo = ApplicationInfo.getInstance().let { HostInfo(it.fullApplicationName, it.fullVersion) },
            workspaceRoot = project.basePath,
            additionalDirectories = WaveProjectSettings.getInstance(project).state.additionalDirectories.toList(),
        ),
    )

    private fun notifyFailure(state: CoreState.Failed) {
        if (project.isDisposed || state == lastNotified) return
        lastNotified = state
        // The tool window shows the failure with its fix (the fallback panel): no balloon on top of it.
        if (controller != null && state.kind.isSetupProblem && toolWindowVisible()) return
        val notification = NotificationGroupManager.getInstance().getNotificationGroup(NOTIFICATION_GROUP)
            .createNotification(WaveBundle.message("notification.title"), StringUtil.escapeXmlEntities(state.reason), NotificationType.ERROR)
        // No Node.js: the fix is one click away, also when the tool window is closed.
        if (state.kind == FailureKind.NODE_NOT_FOUND && ManagedNodeService.getInstance().canDownload()) {
            notification.addAction(NotificationAction.createSimple(WaveBundle.message("notification.downloadNode.action")) { ManagedNodeService.getInstance().download(project) })
        }
        notification
            .addAction(NotificationAction.createSimple(WaveBundle.message("notification.restart.action")) { supervisor.restartAsync() })
            .addAction(NotificationAction.createSimple(WaveBundle.message("notification.settings.action")) {
                ShowSettingsUtil.getInstance().showSettingsDialog(project, WaveConfigurable::class.java)
            })
            .notify(project)
    }

    private fun toolWindowVisible(): Boolean =
        ToolWindowManager.getInstance(project).getToolWindow(RestartCoreAction.TOOL_WINDOW_ID)?.isVisible == true

    /** The project is closing (on the UI thread): the graceful stop, under a modal progress. */
    fun projectClosing() = shutdown.beforeClose(project)

    /** Never waits: the graceful stop ran at [projectClosing]; whatever still runs is killed. */
    override fun dispose() {
        controller = null
        balloons.close()
        shutdown.dispose()
    }

    companion object {
        const val NOTIFICATION_GROUP = "Wave Tools"

        /** This plugin's version, from the plugin.xml the build patched (the plugin manager's API for it is internal). */
        fun pluginVersion(): String = WaveProjectService::class.java.getResourceAsStream("/META-INF/plugin.xml")?.use { input ->
            Regex("<version>([^<]+)</version>").find(input.readBytes().toString(Charsets.UTF_8))?.groupValues?.get(1)?.trim()
        } ?: "0"

        fun getInstance(project: Project): WaveProjectService = project.service()

        fun getInstanceIfCreated(project: Project): WaveProjectService? = project.serviceIfCreated()
    }
}
