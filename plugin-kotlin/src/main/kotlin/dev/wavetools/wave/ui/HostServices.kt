package dev.wavetools.wave.ui

/** IDE services; the plain-Swing defaults make the panel usable (and testable) without an IDE. */
interface HostServices {
    /** Opens [path] in the editor at the 1-based [line]. */
    fun openFile(path: String, line: Int?) {}
    fun openSettings() {}
    fun browse(url: String) {}
    /** Runs on the UI thread. */
    fun invokeLater(task: () -> Unit) = javax.swing.SwingUtilities.invokeLater(task)
}
