package dev.wavetools.wave.bridge

/** Keeps every message in memory, for tests to read. */
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
