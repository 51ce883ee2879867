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
}
