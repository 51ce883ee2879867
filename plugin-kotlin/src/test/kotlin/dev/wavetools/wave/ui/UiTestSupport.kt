package dev.wavetools.wave.ui

import com.google.gson.JsonElement
import com.google.gson.JsonParser
import dev.wavetools.wave.bridge.CoreEvents
import dev.wavetools.wave.bridge.CoreSupervisor
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.SessionCwdChanged
import dev.wavetools.wave.bridge.TaskInfo
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolStarted
import java.awt.Component
import java.awt.Container
import java.awt.Dimension
import java.awt.image.BufferedImage
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset
import java.util.concurrent.CopyOnWriteArrayList
import javax.swing.SwingUtilities

/** Records what the controls asked for; controls every call whose id is in [controllable]. */
class FakeActions(val controllable: MutableSet<String> = mutableSetOf()) : CallActions {
    val log = CopyOnWriteArrayList<String>()
    override fun canControl(callId: String) = callId in controllable
    override fun moveToBackground(callId: String) { log += "move $callId" }
    override fun stop(callId: String) { log += "stop $callId" }
    override fun stopTask(taskId: String) { log += "stopTask $taskId" }
    override fun openFile(path: String, line: Int?) { log += "open $path${line?.let { ":$it" } ?: ""}" }
    override fun showDiff(path: String, model: dev.wavetools.wave.bridge.DiffModel) { log += "diff $path +${model.linesAdded} -${model.linesRemoved}" }
}

/** A notification recording from test resources (`feeds/<name>.jsonl`, one JSON-RPC message a line). */
object RecordedSession {
    fun load(name: String): List<Pair<String, JsonElement?>> {
        val text = RecordedSession::class.java.getResource("/feeds/$name")?.readText() ?: error("missing test resource feeds/$name")
        return text.lines().filter { it.isNotBlank() }.map {
            val o = JsonParser.parseString(it).asJsonObject
            o.get("method").asString to o.get("params")
        }
    }

    /** Feeds the recording to the panel the way the controller does, on the UI thread. */
    fun play(panel: WavePanel, messages: List<Pair<String, JsonElement?>>) = onEdt {
        val sink = object : CoreEvents {
            override fun toolStarted(event: ToolStarted) = panel.feed.toolStarted(event)
            override fun toolProgress(event: dev.wavetools.wave.bridge.ToolProgress) = panel.feed.toolProgress(event)
            override fun toolOutput(event: dev.wavetools.wave.bridge.ToolOutput) = panel.feed.toolOutput(event)
            override fun toolFinished(event: ToolFinished) = panel.feed.toolFinished(event)
            override fun cwdChanged(event: SessionCwdChanged) = panel.feed.cwdChanged(event)
            override fun taskStarted(task: TaskInfo) = panel.tasks.upsert(task)
            override fun taskFinished(task: TaskInfo) = panel.tasks.upsert(task)
            override fun envStatusChanged(status: EnvStatus) = panel.statusLine.showEnv(status)
        }
        messages.forEach { (m, p) -> CoreEvents.dispatch(sink, m, p) }
    }
}

fun fixedClock(at: String): Clock = Clock.fixed(Instant.parse(at), ZoneOffset.UTC)

/** Waits (off the UI thread) until [condition], evaluated on the UI thread, holds. */
fun waitForUi(message: () -> String, condition: () -> Boolean) =
    TestSupport.eventually(message = message) { onEdt(condition) }

/** Waits until the controller's status line says the core is ready. */
fun WaveController.awaitReady() =
    waitForUi({ "status: ${panel.statusLine.coreLabel.text}" }) { panel.statusLine.coreLabel.text == WaveBundle.message("status.core.ready") }

/** Attaches the controller to [supervisor], starts the core and waits until it is ready. */
fun WaveController.startAndAwaitReady(supervisor: CoreSupervisor) {
    attach()
    supervisor.start()
    awaitReady()
}

fun <T> onEdt(block: () -> T): T {
    if (SwingUtilities.isEventDispatchThread()) return block()
    var result: Result<T>? = null
    SwingUtilities.invokeAndWait { result = runCatching(block) }
    return result!!.getOrThrow()
}

/**
 * Lays out a component tree that has no window (headless) at [size]. Without a window nothing is
 * ever validated, so cached layout sizes are dropped first, as a revalidation would.
 */
fun layoutTree(c: Component, size: Dimension? = null) {
    if (size != null) {
        descendants(c).forEach { it.invalidate() }
        c.size = size
    }
    if (c is Container) {
        c.doLayout()
        for (child in c.components) layoutTree(child)
    }
}

/** Paints a component tree into an image, the way a screen would show it. */
fun paint(c: Component, size: Dimension): BufferedImage {
    // Heights follow widths (wrapped text): later passes settle what the first one measured at no width.
    repeat(3) { layoutTree(c, size) }
    val img = BufferedImage(size.width, size.height, BufferedImage.TYPE_INT_RGB)
    val g = img.createGraphics()
    g.setRenderingHint(java.awt.RenderingHints.KEY_TEXT_ANTIALIASING, java.awt.RenderingHints.VALUE_TEXT_ANTIALIAS_LCD_HRGB)
    g.setRenderingHint(java.awt.RenderingHints.KEY_ANTIALIASING, java.awt.RenderingHints.VALUE_ANTIALIAS_ON)
    c.paint(g)
    g.dispose()
    return img
}

fun descendants(c: Component): List<Component> =
    listOf(c) + if (c is Container) c.components.flatMap { descendants(it) } else emptyList()

inline fun <reified T : Component> Component.find(crossinline predicate: (T) -> Boolean = { true }): List<T> =
    descendants(this).filterIsInstance<T>().filter { predicate(it) }
