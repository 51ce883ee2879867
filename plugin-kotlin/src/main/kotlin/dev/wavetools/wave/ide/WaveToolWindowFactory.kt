package dev.wavetools.wave.ide

import com.intellij.openapi.Disposable
import com.intellij.openapi.actionSystem.ActionManager
import com.intellij.openapi.actionSystem.CustomShortcutSet
import com.intellij.openapi.project.DumbAware
import com.intellij.openapi.project.Project
import com.intellij.openapi.wm.ToolWindow
import com.intellij.openapi.wm.ToolWindowFactory
import com.intellij.ui.content.ContentFactory
import dev.wavetools.wave.ui.WaveController
import java.awt.event.InputEvent
import java.awt.event.KeyEvent
import javax.swing.KeyStroke

/**
 * The "Wave" tool window. DumbAware, so it works while the IDE indexes. Opening it starts the
 * project's core; closing the project stops it (the service's dispose).
 */
class WaveToolWindowFactory : ToolWindowFactory, DumbAware {
    override fun createToolWindowContent(project: Project, toolWindow: ToolWindow) {
        // The panel is styled from the IDE's theme and colour scheme, and follows their changes.
        IdeThemeService.ensureInstalled()
        val service = WaveProjectService.getInstance(project)
        val controller = WaveController(
            supervisor = service.supervisor,
            host = IdeHostServices(project),
            defaultTimeoutMs = { WaveSettings.getInstance().state.defaultTimeoutSeconds.takeIf { it > 0 }?.let { it * 1000L } },
            permissions = service.permissions,
            agents = service.agents,
        )
        controller.attach()
        service.controller = controller

        val content = ContentFactory.getInstance().createContent(controller.panel, null, false)
        content.setDisposer(Disposable {
            if (service.controller === controller) service.controller = null
            controller.dispose()
        })
        toolWindow.contentManager.addContent(content)

        // Ctrl+B is "Go to Declaration" in the editor: bind it only inside this tool window, never in the keymap.
        MoveToBackgroundAction().registerCustomShortcutSet(
            CustomShortcutSet(KeyStroke.getKeyStroke(KeyEvent.VK_B, InputEvent.CTRL_DOWN_MASK)),
            controller.panel.shortcutScope,
            toolWindow.disposable,
        )
        StopCallAction().registerCustomShortcutSet(
            CustomShortcutSet(KeyStroke.getKeyStroke(KeyEvent.VK_F2, InputEvent.CTRL_DOWN_MASK)),
            controller.panel.shortcutScope,
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
