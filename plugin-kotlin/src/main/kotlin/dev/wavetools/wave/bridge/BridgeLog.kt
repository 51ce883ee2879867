package dev.wavetools.wave.bridge

/**
 * Where the bridge reports what happened. The IDE layer routes this into idea.log; tests collect it.
 * Kept as a tiny interface so the bridge has no logging dependency.
 */
fun interface BridgeLog {
    enum class Level { DEBUG, INFO, WARN, ERROR }

    fun log(level: Level, message: String, error: Throwable?)

    fun debug(message: String) = log(Level.DEBUG, message, null)
    fun info(message: String) = log(Level.INFO, message, null)
    fun warn(message: String, error: Throwable? = null) = log(Level.WARN, message, error)
    fun error(message: String, error: Throwable? = null) = log(Level.ERROR, message, error)

    companion object {
        /** Drops everything; for callers that have nowhere to report to. */
        val NONE = BridgeLog { _, _, _ -> }

        /** Writes to stderr; for command-line tools and as a last resort. */
        val STDERR = BridgeLog { level, message, error ->
            System.err.println("[wave ${level.name.lowercase()}] $message")
            error?.printStackTrace()
        }
    }
}

/** Keeps every message in memory; used by tests and by the status line's "last error" hint. */
class RecordingLog(private val delegate: BridgeLog? = null) : BridgeLog {
    data class Entry(val level: BridgeLog.Level, val message: String, val error: Throwable?)

    private val entries = java.util.concurrent.CopyOnWriteArrayList<Entry>()

    override fun log(level: BridgeLog.Level, message: String, error: Throwable?) {
        entries += Entry(level, message, error)
        delegate?.log(level, message, error)
    }

    fun entries(): List<Entry> = entries.toList()

    fun messages(level: BridgeLog.Level? = null): List<String> =
        entries.filter { level == null || it.level == level }.map { it.message }
}
