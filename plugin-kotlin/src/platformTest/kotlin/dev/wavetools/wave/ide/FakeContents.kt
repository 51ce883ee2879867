package dev.wavetools.wave.ide

import com.intellij.openapi.Disposable
import com.intellij.openapi.util.Key
import com.intellij.ui.content.AlertIcon
import com.intellij.ui.content.Content
import com.intellij.ui.content.ContentManager
import com.intellij.ui.content.ContentManagerEvent
import com.intellij.ui.content.ContentManagerEvent.ContentOperation
import com.intellij.ui.content.ContentManagerListener
import javax.swing.Icon
import javax.swing.JComponent
import javax.swing.SwingUtilities

/** A tool window content as the platform's ContentImpl keeps one: closeable until told otherwise. */
class FakeContent(val component: JComponent) : Content {
    // Read-only views: a Kotlin property with a setter would share its JVM name with Content's setters.
    private var shownName: String? = null
    private var shownDescription: String? = null
    private var shownIcon: Icon? = null
    private var canClose = true
    private var alert: AlertIcon? = null
    private var alertCount = 0
    private var disposer: Disposable? = null
    private val userData = HashMap<Key<*>, Any?>()

    val displayName: String? get() = shownName
    val description: String? get() = shownDescription
    val icon: Icon? get() = shownIcon
    val closeable: Boolean get() = canClose
    val alertIcon: AlertIcon? get() = alert
    /** How often fireAlert() was called. */
    val alerts: Int get() = alertCount
    var disposed = false
        private set

    @Suppress("UNCHECKED_CAST")
    fun <T> userData(key: Key<T>): T? = userData[key] as T?

    override fun setIcon(icon: Icon?) { shownIcon = icon }
    override fun setDisplayName(displayName: String?) { shownName = displayName }
    override fun setDescription(description: String?) { shownDescription = description }
    override fun setDisposer(disposer: Disposable) { this.disposer = disposer }
    override fun setCloseable(closeable: Boolean) { canClose = closeable }
    override fun setAlertIcon(icon: AlertIcon?) { alert = icon }
    override fun fireAlert() { alertCount++ }
    override fun <T> putUserData(key: Key<T>, value: T?) { userData[key] = value }

    /** What Disposer.dispose(content) does to a ContentImpl: its disposer runs, once. */
    fun dispose() {
        if (disposed) return
        disposed = true
        disposer?.dispose()
    }

    override fun toString() = "content \"$displayName\""
}

/**
 * A tool window's ContentManager with the platform's rules (ContentManagerImpl): UI thread only;
 * the first content added is selected; a selection change tells listeners of the content that
 * lost it (remove) and then of the one that got it (add); a removal asks the listeners first
 * (contentRemoveQuery, which may consume it), then deselects, removes, tells them, disposes when
 * asked, and selects the content selected before (else the previous one). Closing a tab with its
 * close button is removeContent(content, true), as the platform's tab label does.
 */
class FakeContentManager : ContentManager {
    private val list = mutableListOf<FakeContent>()
    private val history = mutableListOf<FakeContent>()
    private var selected: FakeContent? = null
    private val listeners = mutableListOf<ContentManagerListener>()

    val contents: List<FakeContent> get() = onUiThread { list.toList() }

    private fun <T> onUiThread(block: () -> T): T {
        check(SwingUtilities.isEventDispatchThread()) { "the ContentManager is used on the UI thread only" }
        return block()
    }

    override fun addContent(content: Content) = onUiThread {
        content as FakeContent
        if (content in list) return@onUiThread
        list += content
        listeners.toList().forEach { it.contentAdded(ContentManagerEvent(this, content, list.size - 1, ContentOperation.add)) }
        if (selected == null) setSelectedContent(content)
    }

    override fun removeContent(content: Content, dispose: Boolean): Boolean = onUiThread {
        content as FakeContent
        val index = list.indexOf(content)
        if (index < 0) return@onUiThread false
        val query = ContentManagerEvent(this, content, index, ContentOperation.undefined)
        listeners.toList().forEach { it.contentRemoveQuery(query) }
        if (query.isConsumed) return@onUiThread false
        val wasSelected = selected === content
        if (wasSelected) {
            selected = null
            listeners.toList().forEach { it.selectionChanged(ContentManagerEvent(this, content, index, ContentOperation.remove)) }
        }
        history.remove(content)
        list.remove(content)
        listeners.toList().forEach { it.contentRemoved(ContentManagerEvent(this, content, index, ContentOperation.remove)) }
        if (dispose) content.dispose()
        if (wasSelected && list.isNotEmpty()) {
            val next = history.firstOrNull { it in list } ?: list[(index - 1).coerceAtLeast(0)]
            if (selected !== next) setSelectedContent(next)
        }
        true
    }

    override fun setSelectedContent(content: Content) = onUiThread {
        content as FakeContent
        require(content in list) { "no such content: $content" }
        history.remove(content)
        history.add(0, content)
        if (selected === content) return@onUiThread
        selected?.let { old -> listeners.toList().forEach { it.selectionChanged(ContentManagerEvent(this, old, list.indexOf(old), ContentOperation.remove)) } }
        selected = content
        listeners.toList().forEach { it.selectionChanged(ContentManagerEvent(this, content, list.indexOf(content), ContentOperation.add)) }
    }

    override fun getSelectedContent(): Content? = onUiThread { selected }

    override fun addContentManagerListener(listener: ContentManagerListener) = onUiThread { listeners += listener; Unit }

    override fun removeContentManagerListener(listener: ContentManagerListener) = onUiThread { listeners -= listener; Unit }

    val listenerCount: Int get() = onUiThread { listeners.size }

    /** The tool window goes away: the manager's children (its contents) are disposed, the newest first. */
    fun disposeAll() = onUiThread {
        list.reversed().forEach { it.dispose() }
        list.clear()
        selected = null
    }
}
