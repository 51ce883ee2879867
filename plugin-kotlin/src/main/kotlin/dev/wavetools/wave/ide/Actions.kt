package dev.wavetools.wave.ide

import com.intellij.icons.AllIcons
import com.intellij.openapi.actionSystem.ActionUpdateThread
import com.intellij.openapi.actionSystem.AnActionEvent
import com.intellij.openapi.project.DumbAwareAction
import com.intellij.openapi.wm.ToolWindowManager
import dev.wavetools.wave.ui.ShippedIcon
import dev.wavetools.wave.ui.WaveBundle
import dev.wavetools.wave.ui.WaveController
import javax.swing.Icon

/**
 * An action on the newest running call this tool window started, enabled only while there is one.
 * update() reads the tool window's Swing state, so it runs on the UI thread.
 */
abstract class LatestCallAction(id: String, icon: Icon, private val bashOnly: Boolean) :
    DumbAwareAction(WaveBundle.message("action.$id.text"), WaveBundle.message("action.$id.description"), icon) {
    override fun getActionUpdateThread() = ActionUpdateThread.EDT

    override fun update(e: AnActionEvent) {
        e.presentation.isEnabled = controller(e)?.panel?.visibleFeed?.latestControllable(bashOnly = bashOnly) != null
    }

    override fun actionPerformed(e: AnActionEvent) {
        controller(e)?.let { perform(it) }
    }

    protected abstract fun perform(controller: WaveController)

    private fun controller(e: AnActionEvent): WaveController? = ProjectControllers.controller(e)
}

/**
 * Ctrl+B in the Wave tool window: the newest running command this window started continues as a
 * background task. Calls the same code as the card's button.
 */
class MoveToBackgroundAction : LatestCallAction("WaveTools.MoveToBackground", ShippedIcon("moveToBackground"), bashOnly = true) {
    override fun perform(controller: WaveController) {
        controller.moveLatestToBackground()
    }

    companion object {
        const val ID = "WaveTools.MoveToBackground"
    }
}

/** Stop: the newest running call this window started is cancelled; the core kills its process tree. */
class StopCallAction : LatestCallAction("WaveTools.Stop", AllIcons.Actions.Suspend, bashOnly = false) {
    override fun perform(controller: WaveController) {
        controller.stopLatest()
    }

    companion object {
        const val ID = "WaveTools.Stop"
    }
}

/** Restarts the project's core (also the way out after it failed), and shows the tool window. */
class RestartCoreAction : DumbAwareAction(
    WaveBundle.message("action.WaveTools.RestartCore.text"), WaveBundle.message("action.WaveTools.RestartCore.description"), AllIcons.Actions.Restart,
) {
    override fun getActionUpdateThread() = ActionUpdateThread.BGT

    override fun update(e: AnActionEvent) {
        e.presentation.isEnabled = e.project != null
    }

    override fun actionPerformed(e: AnActionEvent) {
        val project = e.project ?: return
        WaveProjectService.getInstance(project).supervisor.restartAsync()
        ToolWindowManager.getInstance(project).getToolWindow(TOOL_WINDOW_ID)?.show()
    }

    companion object {
        const val ID = "WaveTools.RestartCore"
        const val TOOL_WINDOW_ID = "Wave"
    }
}
