package dev.wavetools.wave.ide

import com.intellij.icons.AllIcons
import com.intellij.openapi.actionSystem.ActionManager
import com.intellij.openapi.actionSystem.CustomShortcutSet
import com.intellij.openapi.project.DumbAware
import com.intellij.openapi.project.Project
import com.intellij.openapi.wm.ToolWindow
import com.intellij.openapi.wm.ToolWindowFactory
import com.intellij.ui.content.ContentFactory
import dev.wavetools.wave.bridge.AttachedAgents
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.PermissionBridge
import dev.wavetools.wave.ui.HostServices
import dev.wavetools.wave.ui.WaveController
import java.awt.event.InputEvent
import java.awt.event.KeyEvent
import javax.swing.KeyStroke

/**
 * The "Wave" tool window. DumbAware, so it works while the IDE indexes. Opening it starts the
 * project's core; closing the project stops it (the service's dispose). Its sessions are its
 * content tabs ([SessionContents]), each with the toolbar (Soft-Wrap, Scroll to End, Clear All,
 * Settings); the title bar has what concerns the whole window: Move to Background and Stop (the
 * newest running call of the tab that shows), Connect an Agent, Restart.
 */
class WaveToolWindowFactory : ToolWindowFactory, DumbAware {
    override fun createToolWindowContent(project: Project, toolWindow: ToolWindow) {
        // The panel is styled from the IDE's theme and colour scheme, and follows their changes.
        IdeThemeService.ensureInstalled()
        val service = WaveProjectService.getInstance(project)
        val controller = toolWindowController(service.supervisor, IdeHostServices(project), IdeToolWindowSettings, service.permissions, service.agents)
        controller.attach()
        service.controller = controller

        SessionContents(
            controller.panel,
            toolWindow.contentManager,
            newContent = { component -> ContentFactory.getInstance().createContent(component, null, false) },
            toolbarFor = PlatformToolbars::toolbar,
            waitingIcon = AllIcons.General.Warning,
            onProjectContentDisposed = {
                if (service.controller === controller) service.controller = null
                controller.dispose()
            },
        )

        // Ctrl+B is "Go to Declaration" in the editor: bind it only inside this tool window, never in
        // the keymap. The whole tool window, since an agent's session is a content of its own.
        MoveToBackgroundAction().registerCustomShortcutSet(
            CustomShortcutSet(KeyStroke.getKeyStroke(KeyEvent.VK_B, InputEvent.CTRL_DOWN_MASK)),
            toolWindow.component,
            toolWindow.disposable,
        )
        StopCallAction().registerCustomShortcutSet(
            CustomShortcutSet(KeyStroke.getKeyStroke(KeyEvent.VK_F2, InputEvent.CTRL_DOWN_MASK)),
            toolWindow.component,
            toolWindow.disposable,
        )
        val actions = ActionManager.getInstance()
        toolWindow.setTitleActions(listOfNotNull(
            actions.getAction(MoveToBackgroundAction.ID),
            actions.getAction(StopCallAction.ID),
            actions.getAction(ConnectAgentAction.ID),
            actions.getAction(RestartCoreAction.ID),
        ))

        service.start()
    }
}

/** The tool window's controller, reading [settings] each time (a changed cap or timeout applies at once). */
fun toolWindowController(
    supervisor: CoreSupervisor,
    host: HostServices,
    settings: ToolWindowSettings,
    permissions: PermissionBridge?,
    agents: AttachedAgents?,
): WaveController = WaveController(
    supervisor = supervisor,
    host = host,
    defaultTimeoutMs = { settings.defaultTimeoutMs },
    permissions = permissions,
    agents = agents,
    maxCards = { settings.maxCards },
)
