package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.DiffModel

/** A link the embedding IDE adds to the tool window (for example "Connect an Agent" in the empty state). */
data class LinkAction(val text: String, val run: () -> Unit)

/**
 * What only the IDE can do. The plain-Swing defaults keep the panel usable (and testable) without
 * an IDE; a null callback hides the link that would call it, so nothing on screen does nothing.
 */
interface HostServices {
    /** Opens [path] in the editor at the 1-based [line]. */
    fun openFile(path: String, line: Int?) {}

    /** Shows an Edit or Write in the IDE's diff viewer (the IDE reads the file as it is now; see DiffTexts). */
    fun showDiff(path: String, model: DiffModel) {}

    /** A text, read-only, in an editor tab named [title]. */
    fun showText(title: String, text: String) {}

    fun openSettings() {}

    /** "Choose Node.js…" on the fallback panel: by default the settings page with the Node.js path. */
    fun chooseNode() = openSettings()

    /** "Download Node.js for Wave Tools" on the fallback panel; null: the link is not shown. */
    val downloadNode: (() -> Unit)? get() = null

    /** The help link of the empty state; null: not shown. */
    val showHelp: (() -> Unit)? get() = null

    /** Links the empty state offers besides "Run a Command" (an agent connection, for example). */
    fun emptyStateActions(): List<LinkAction> = emptyList()

    /** Runs on the UI thread. */
    fun invokeLater(task: () -> Unit) = javax.swing.SwingUtilities.invokeLater(task)
}
