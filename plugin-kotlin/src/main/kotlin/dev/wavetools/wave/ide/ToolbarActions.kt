package dev.wavetools.wave.ide

import com.intellij.icons.AllIcons
import com.intellij.openapi.actionSystem.ActionManager
import com.intellij.openapi.actionSystem.ActionUpdateThread
import com.intellij.openapi.actionSystem.AnActionEvent
import com.intellij.openapi.actionSystem.DefaultActionGroup
import com.intellij.openapi.project.DumbAwareAction
import com.intellij.openapi.project.DumbAwareToggleAction
import dev.wavetools.wave.ui.ToolbarAction
import dev.wavetools.wave.ui.WaveBundle
import dev.wavetools.wave.ui.WaveController
import dev.wavetools.wave.ui.WavePanel
import javax.swing.BorderFactory
import javax.swing.Icon
import javax.swing.JComponent

/** How an action of the tool window finds the controller it acts on. */
fun interface ControllerLookup {
    fun controller(e: AnActionEvent): WaveController?
}

/** The controller of the project the event comes from (one tool window per project). */
object ProjectControllers : ControllerLookup {
    override fun controller(e: AnActionEvent): WaveController? = e.project?.let { WaveProjectService.getInstanceIfCreated(it) }?.controller
}

/**
 * One of the panel's toolbar actions ([WavePanel.toolbarActions], by id) as a platform action: an
 * ActionButton in each session's toolbar, with the platform's tooltip (its text, description and
 * any shortcut the keymap gives it; registered in plugin.xml, so Find Action and the keymap know
 * it). It acts on the session that shows. update() reads Swing state, so it runs on the UI thread.
 */
abstract class PanelToolbarAction(private val id: String, icon: Icon?, private val lookup: ControllerLookup) :
    DumbAwareAction(WaveBundle.message("action.$id.text"), WaveBundle.message("action.$id.description"), icon) {
    override fun getActionUpdateThread() = ActionUpdateThread.EDT

    override fun update(e: AnActionEvent) {
        e.presentation.isEnabled = panelAction(e)?.isEnabled?.invoke() == true
    }

    override fun actionPerformed(e: AnActionEvent) {
        panelAction(e)?.takeIf { it.isEnabled() }?.perform?.invoke()
    }

    private fun panelAction(e: AnActionEvent): ToolbarAction? = lookup.controller(e)?.panel?.toolbarAction(id)
}

class ScrollToEndAction internal constructor(lookup: ControllerLookup) : PanelToolbarAction(WavePanel.SCROLL_TO_END, AllIcons.RunConfigurations.Scroll_down, lookup) {
    constructor() : this(ProjectControllers)
}

class ClearAllAction internal constructor(lookup: ControllerLookup) : PanelToolbarAction(WavePanel.CLEAR_ALL, AllIcons.Actions.GC, lookup) {
    constructor() : this(ProjectControllers)
}

class WaveSettingsAction internal constructor(lookup: ControllerLookup) : PanelToolbarAction(WavePanel.SETTINGS, AllIcons.General.Settings, lookup) {
    constructor() : this(ProjectControllers)
}

/** Soft-Wrap: a toggle button that shows whether long output lines wrap (every card at once). */
class SoftWrapAction internal constructor(private val lookup: ControllerLookup) : DumbAwareToggleAction(
    WaveBundle.message("action.${WavePanel.SOFT_WRAP}.text"), WaveBundle.message("action.${WavePanel.SOFT_WRAP}.description"), AllIcons.Actions.ToggleSoftWrap,
) {
    constructor() : this(ProjectControllers)

    override fun getActionUpdateThread() = ActionUpdateThread.EDT

    override fun isSelected(e: AnActionEvent): Boolean = panelAction(e)?.isSelected?.invoke() == true

    override fun setSelected(e: AnActionEvent, state: Boolean) {
        val action = panelAction(e) ?: return
        if (action.isSelected() != state) action.perform()
    }

    private fun panelAction(e: AnActionEvent): ToolbarAction? = lookup.controller(e)?.panel?.toolbarAction(WavePanel.SOFT_WRAP)
}

/**
 * Each session's toolbar, as the Run window gives each of its consoles one: an ActionToolbar of the
 * registered toolbar actions whose data context is the content it sits in.
 */
object PlatformToolbars {
    const val PLACE = "WaveToolWindow"
    val ACTION_IDS = listOf(WavePanel.SOFT_WRAP, WavePanel.SCROLL_TO_END, WavePanel.CLEAR_ALL, WavePanel.SETTINGS)

    fun toolbar(target: JComponent): JComponent {
        val actions = ActionManager.getInstance()
        val toolbar = actions.createActionToolbar(PLACE, DefaultActionGroup(ACTION_IDS.mapNotNull { actions.getAction(it) }), true)
        toolbar.setTargetComponent(target)
        return toolbar.component.apply {
            isOpaque = false
            border = BorderFactory.createEmptyBorder()
        }
    }
}
