package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.DiffModel

/**
 * What the cards' controls ask for. The controller implements it on top of the core; the IDE
 * layer supplies [HostServices] for what only the IDE can do.
 */
interface CallActions {
    /** Whether this host can stop / background the call (it made it, or an attached agent did, and it is still running). */
    fun canControl(callId: String): Boolean

    /** Whether the person made the call here (typed it), rather than an agent: an approval then asks "Run this command?". */
    fun isOwnCall(callId: String): Boolean = canControl(callId)
    fun moveToBackground(callId: String)
    fun stop(callId: String)
    fun stopTask(taskId: String)
    fun openFile(path: String, line: Int? = null)
    /** Opens the IDE's diff viewer on an Edit or Write of [path]. */
    fun showDiff(path: String, model: DiffModel)

    /** Shows [text] whole, read-only, in an editor tab named [title] ("Show All" on an output the core kept no file of). */
    fun showText(title: String, text: String) {}
}
