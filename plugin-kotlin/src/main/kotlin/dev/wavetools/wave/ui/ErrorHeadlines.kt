package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.ToolErrorKind

/**
 * The few words a failed card shows for why it failed ("File changed since it was read",
 * "Denied", "Sandbox unavailable"), from `error.kind.<kind>` in the message bundle; the core's
 * text, which says what to do, stays on the card below it. A kind from a newer core reads "Failed".
 */
fun ToolErrorKind.headline(): String =
    if (this == ToolErrorKind.UNKNOWN) WaveBundle.message("card.status.failed") else WaveBundle.message("error.kind.$wire")
