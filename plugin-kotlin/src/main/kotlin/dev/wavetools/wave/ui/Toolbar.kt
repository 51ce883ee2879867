package dev.wavetools.wave.ui

import java.awt.FlowLayout
import javax.swing.Icon
import javax.swing.JPanel

/**
 * One action of the tool window's toolbar (Soft-Wrap, Scroll to End, Clear All, Settings), without
 * the platform: the IDE makes an AnAction of each — an ActionButton with the platform's tooltip
 * and shortcut, a toggle for [isToggle] — and puts them in the tool window's toolbar; outside the
 * IDE an [IconToolbar] shows them.
 */
class ToolbarAction(
    val id: String,
    val text: String,
    val description: String,
    val icon: (Theme) -> Icon,
    val isToggle: Boolean = false,
    val isSelected: () -> Boolean = { false },
    val isEnabled: () -> Boolean = { true },
    val perform: () -> Unit,
)

/** [actions] as a row of icon buttons, for the panel outside the IDE (the IDE shows its own toolbar). */
class IconToolbar(val actions: List<ToolbarAction>) : JPanel(FlowLayout(FlowLayout.RIGHT, 0, 0)) {
    val buttons: List<IconButton> = actions.map { a ->
        IconButton(a.icon, a.text, a.description) { a.perform(); refresh() }
    }

    init {
        isOpaque = false
        buttons.forEach { add(it) }
        refresh()
    }

    /** Toggles show their state, disabled actions grey out. */
    fun refresh() {
        actions.zip(buttons).forEach { (a, b) ->
            b.selected = a.isToggle && a.isSelected()
            b.isEnabled = a.isEnabled()
        }
    }

    fun button(id: String): IconButton? = actions.indexOfFirst { it.id == id }.takeIf { it >= 0 }?.let { buttons[it] }
}
