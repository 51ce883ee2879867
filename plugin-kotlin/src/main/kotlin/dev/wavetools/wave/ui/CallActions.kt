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
