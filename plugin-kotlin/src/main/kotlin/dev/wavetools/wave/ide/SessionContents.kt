package dev.wavetools.wave.ide

import com.intellij.openapi.Disposable
import com.intellij.openapi.wm.ToolWindow
import com.intellij.ui.content.AlertIcon
import com.intellij.ui.content.Content
import com.intellij.ui.content.ContentManager
import com.intellij.ui.content.ContentManagerEvent
import com.intellij.ui.content.ContentManagerListener
import dev.wavetools.wave.ui.ApprovalModel
import dev.wavetools.wave.ui.SessionTabsModel
import dev.wavetools.wave.ui.WaveBundle
import dev.wavetools.wave.ui.WavePanel
import javax.swing.Icon
import javax.swing.JComponent

/**
 * The tool window's sessions as its own content tabs (one row that overflows into a list, never
 * wraps): the project's session is the content holding the whole [panel], each attached agent's
 * [SessionTabsModel.Entry.component] a content of its own. Each content carries its session's title
 * (with the number of questions waiting), tooltip, the warning icon while a question waits, and
 * the toolbar [toolbarFor] makes for it. Only an agent's session that ended may be closed: its
 * close button shows then, and any other removal is refused. Selecting a tab selects the session in
 * the model and the other way round; closing one closes the session, whose view is disposed.
 *
 * All on the UI thread. It ends with the project's content (the tool window's disposal).
 */
class SessionContents(
    private val panel: WavePanel,
    private val contents: ContentManager,
    /** A new content showing a component: ContentFactory.createContent(component, null, false) in the IDE. */
    private val newContent: (JComponent) -> Content,
    /** The toolbar of a content showing [JComponent] (an ActionToolbar targeting it, in the IDE). */
    private val toolbarFor: (JComponent) -> JComponent,
    /** The badge of a tab whose session waits for an answer (AllIcons.General.Warning). */
    private val waitingIcon: Icon?,
    /** The project's content was disposed: the tool window is going away. */
    private val onProjectContentDisposed: () -> Unit,
) {
    private val model = panel.sessions.model
    private val byKey = LinkedHashMap<String, Content>()
    private var closed = false

    private val modelListener = object : SessionTabsModel.Listener {
        override fun added(entry: SessionTabsModel.Entry, index: Int) {
            add(entry)
            refreshProjectTitle()
        }

        override fun changed(entry: SessionTabsModel.Entry) {
            byKey[entry.key]?.let { present(entry, it) }
        }

        override fun removed(entry: SessionTabsModel.Entry) {
            // Forget it first: removing it disposes it, and its disposer must not close it again.
            // (Gone already when the person closed its tab: its disposer closed the session.)
            byKey.remove(entry.key)?.let { contents.removeContent(it, true) }
            refreshProjectTitle()
        }

        override fun selected(entry: SessionTabsModel.Entry) {
            val content = byKey[entry.key] ?: return
            if (contents.selectedContent !== content) contents.setSelectedContent(content)
        }

        override fun announce(entry: SessionTabsModel.Entry, question: ApprovalModel) {
            byKey[entry.key]?.fireAlert()
        }
    }

    private val contentListener = object : ContentManagerListener {
        override fun selectionChanged(event: ContentManagerEvent) {
            if (event.operation != ContentManagerEvent.ContentOperation.add) return
            keyOf(event.content)?.let { model.select(it) }
        }

        override fun contentRemoveQuery(event: ContentManagerEvent) {
            val key = keyOf(event.content) ?: return
            // The project's session, or an agent still attached: the tab stays.
            if (model.entry(key)?.closable != true) event.consume()
        }
    }

    private val subscription: AutoCloseable

    init {
        panel.sessions.useHostTabs()
        model.entries.forEach(::add)
        subscription = model.addListener(modelListener)
        contents.addContentManagerListener(contentListener)
        model.selected?.let { modelListener.selected(it) }
        refreshProjectTitle()
    }

    /** The content that shows [key]'s session (the project's: [SessionTabsModel.PROJECT]). */
    fun content(key: String): Content? = byKey[key]

    private fun keyOf(content: Content): String? = byKey.entries.firstOrNull { it.value === content }?.key

    private fun add(entry: SessionTabsModel.Entry) {
        if (closed || byKey.containsKey(entry.key)) return
        val component: JComponent = if (entry.isProject) panel else entry.component
        val content = newContent(component)
        content.setAlertIcon(waitingIcon?.let { AlertIcon(it) })
        if (entry.isProject) {
            panel.setToolbar(toolbarFor(panel))
            content.setDisposer(Disposable {
                close()
                onProjectContentDisposed()
            })
        } else {
            entry.agent?.setToolbar(toolbarFor(entry.component))
            // Disposed when the person closed the tab (its close button) or with the tool window.
            content.setDisposer(Disposable {
                if (byKey[entry.key] === content) {
                    byKey.remove(entry.key)
                    if (!closed) model.close(entry.key)
                }
            })
        }
        byKey[entry.key] = content
        present(entry, content)
        contents.addContent(content)
    }

    private fun present(entry: SessionTabsModel.Entry, content: Content) {
        // With the project's session alone, the tool window's title says it all ("Wave").
        content.setDisplayName(if (entry.isProject && model.entries.size == 1) null else entry.displayTitle)
        content.setDescription(tooltip(entry))
        content.setCloseable(entry.closable)
        val waiting = entry.pendingApprovals > 0 && waitingIcon != null
        content.setIcon(if (waiting) waitingIcon else null)
        content.putUserData(ToolWindow.SHOW_CONTENT_ICON, waiting)
    }

    private fun refreshProjectTitle() {
        val project = model.entry(SessionTabsModel.PROJECT) ?: return
        byKey[project.key]?.let { present(project, it) }
    }

    /** The entry's tooltip and how many questions wait (a tab's tooltip is one plain line). */
    private fun tooltip(entry: SessionTabsModel.Entry): String? {
        val pending = when (val n = entry.pendingApprovals) {
            0 -> null
            1 -> WaveBundle.message("agents.tab.pending.one")
            else -> WaveBundle.message("agents.tab.pending.many", n)
        }
        return listOfNotNull(entry.tooltip, pending).joinToString(". ").ifEmpty { null }
    }

    /** Stops following the model and the tool window; the contents stay until the platform disposes them. */
    fun close() {
        if (closed) return
        closed = true
        subscription.close()
        contents.removeContentManagerListener(contentListener)
    }
}
