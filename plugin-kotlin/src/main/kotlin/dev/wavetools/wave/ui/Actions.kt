package dev.wavetools.wave.ui

/**
 * What the tool window's controls ask for. The controller implements it on top of the core; the
 * IDE layer supplies [HostServices] for what only the IDE can do.
 */
interface CallActions {
    /** Whether this host can stop / background the call (it made it and it is still running). */
    fun canControl(callId: String): Boolean
    fun moveToBackground(callId: String)
    fun stop(callId: String)
    fun stopTask(taskId: String)
    fun openFile(path: String, line: Int? = null)
}

/** IDE services; the plain-Swing defaults make the panel usable (and testable) without an IDE. */
interface HostServices {
    /** Opens [path] in the editor at the 1-based [line]. */
    fun openFile(path: String, line: Int?) {}
    fun openSettings() {}
    fun browse(url: String) {}

    /** "Download Node.js for Wave Tools": the IDE installs the managed runtime; without an IDE, the download page. */
    fun downloadNode() = browse("https://nodejs.org/en/download")
    /** Runs on the UI thread. */
    fun invokeLater(task: () -> Unit) = javax.swing.SwingUtilities.invokeLater(task)
}
