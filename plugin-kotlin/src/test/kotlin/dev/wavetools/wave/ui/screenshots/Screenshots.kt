package dev.wavetools.wave.ui.screenshots

import com.google.gson.JsonElement
import dev.wavetools.wave.bridge.AgentKind
import dev.wavetools.wave.bridge.BashResult
import dev.wavetools.wave.bridge.CoreNotifications
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.InitializeResult
import dev.wavetools.wave.bridge.ServerInfo
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.bridge.WorkspaceInfo
import dev.wavetools.wave.ui.CommandCard
import dev.wavetools.wave.ui.FakeActions
import dev.wavetools.wave.ui.LiveRecorder
import dev.wavetools.wave.ui.RecordedSession
import dev.wavetools.wave.ui.Scenes
import dev.wavetools.wave.ui.TestThemes
import dev.wavetools.wave.ui.WavePanel
import dev.wavetools.wave.ui.layoutTree
import dev.wavetools.wave.ui.onEdt
import dev.wavetools.wave.ui.paint
import dev.wavetools.wave.ui.waitForUi
import java.awt.Dimension
import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import javax.imageio.ImageIO
import javax.swing.JComponent

/**
 * `npm run ui:screenshots`: paints the tool window headless, every scene at 340, 420 and 820 px
 * wide in the New UI Light and Dark themes, into plugin-kotlin/build/screenshots/ as
 * `<scene>-<width>-<light|dark>.png`, for review. The scenes: the empty state, the Node.js
 * fallback, a long session, approvals (a warning, a Write, a command outside the sandbox, answered
 * and withdrawn ones), run_shell_command running and finished, background tasks, and a session
 * recorded from the real core just now.
 */
fun main(args: Array<String>) {
    System.setProperty("awt.useSystemAAFontSettings", "lcd")
    System.setProperty("swing.aatext", "true")
    // The spinner's frame, the same in every picture.
    System.setProperty("wave.spinnerFrame", "2")
    val out = File(args.firstOrNull() ?: "plugin-kotlin/build/screenshots").apply { mkdirs() }
    out.listFiles { f -> f.name.endsWith(".png") }?.forEach { it.delete() }
    val live = LiveSession.record()
    val scenes = listOf(
        Scene("empty", fixedHeight = 560) { Scenes.emptyState() },
        Scene("fallback-node", fixedHeight = 560) { Scenes.fallback(expanded = false) },
        Scene("fallback-node-details", fixedHeight = 640) { Scenes.fallback(expanded = true) },
        Scene("fallback-wsl", fixedHeight = 640) { Scenes.wslProject() },
        Scene("session") { Scenes.session() },
        Scene("approvals") { Scenes.approvals() },
        Scene("shell-command") { Scenes.shellCommand() },
        Scene("tasks") { Scenes.tasks() },
        Scene("agent-session") { Scenes.agentSession() },
        Scene("connect-claude", widths = DIALOG_WIDTHS) { Scenes.connect(AgentKind.CLAUDE_CODE) },
        Scene("connect-codex", widths = DIALOG_WIDTHS) { Scenes.connect(AgentKind.CODEX) },
        Scene("live-bash") { live.panel() },
    )
    try {
        for (theme in listOf(TestThemes.light, TestThemes.dark)) {
            onEdt { TestThemes.install(theme) }
            for (scene in scenes) for (width in scene.widths) {
                val file = File(out, "${scene.name}-$width-${if (theme.isDark) "dark" else "light"}.png")
                val built = onEdt { scene.build() }
                // A log shown below the tasks is read off the UI thread: paint once it is there.
                (built as? WavePanel)?.let { p ->
                    waitForUi({ "the log tail of ${p.tasks.selectedTaskId}" }) { p.tasks.selectedTaskId == null || p.tasks.tailOutput?.plainText?.isNotBlank() == true }
                    waitForUi({ "the live output of a running command" }) { p.feed.cards().filterIsInstance<CommandCard>().none { it.followsFile && it.liveOutput == null } }
                }
                val image = onEdt {
                    // The tool window as the IDE shows it: its header, the sessions as content tabs.
                    val frame = (built as? WavePanel)?.let { ToolWindowFrame(it) }
                    val shown: JComponent = frame ?: built
                    val height = scene.fixedHeight ?: if (frame != null) naturalHeight(frame, width) else preferredHeight(built, width)
                    paint(shown, Dimension(width, height)).also { (built as? WavePanel)?.dispose() }
                }
                ImageIO.write(image, "png", file)
                println("wrote $file")
            }
        }
    } finally {
        live.close()
    }
    // Timers of cards that were painted running would keep the AWT threads (and so this JVM) alive.
    kotlin.system.exitProcess(0)
}

private val WIDTHS = listOf(340, 420, 820)

/** The Connect an Agent dialog's content, at the widths a dialog has. */
private val DIALOG_WIDTHS = listOf(560, 760)

private class Scene(val name: String, val fixedHeight: Int? = null, val widths: List<Int> = WIDTHS, val build: () -> JComponent)

/** The height a component asks for at [width] (its text wrapped to that width). */
private fun preferredHeight(c: JComponent, width: Int): Int {
    repeat(3) { layoutTree(c, Dimension(width, 3200)) }
    return c.preferredSize.height.coerceIn(300, 3200)
}

/** The height the tool window needs at [width] to show everything, the feed not scrolled (at most 3,200 px). */
private fun naturalHeight(frame: ToolWindowFrame, width: Int): Int {
    repeat(3) { layoutTree(frame, Dimension(width, 3200)) }
    val panel = frame.panel
    val agent = panel.sessions.selectedAgent
    if (agent != null) {
        val feed = if (agent.feed.isEmpty) 300 else agent.feed.preferredSize.height
        return (frame.header.height + agent.header.height + feed + 4).coerceIn(400, 3200)
    }
    val shown = panel.feed
    val feed = if (shown.isEmpty) 300 else shown.preferredSize.height
    // The tasks panel gets at most 45 % of the height between the status line and the input.
    val middle = if (panel.tasks.isVisible) {
        val tasks = panel.tasks.preferredSize.height + panel.split.dividerSize
        maxOf(feed + tasks, tasks * 100 / 45 + 1)
    } else feed
    return (frame.header.height + panel.statusLine.height + middle + panel.input.height + 4).coerceIn(400, 3200)
}

/**
 * A session recorded from the real bundled core (real bash, a probe of a scratch home): cwd
 * notices, an exit code, a signal, a cut output with its file, a running background task and the
 * probe's state from `env/status`. Recorded once; painted for every theme and width.
 */
private class LiveSession(val recording: List<Pair<String, JsonElement?>>, val env: EnvStatus, val taskId: String, private val dirs: List<java.nio.file.Path>, private val recorder: LiveRecorder) : AutoCloseable {
    fun panel(): WavePanel {
        val p = WavePanel(Scenes.host, FakeActions(), onRun = {}, onRetry = {})
        p.statusLine.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0"), workspace = WorkspaceInfo(root = recorder.root.toString())), recorder.proc.pid))
        p.feed.workspaceRoot = recorder.root.toString()
        RecordedSession.play(p, recording)
        p.statusLine.showEnv(env)
        p.tasks.select(taskId)
        return p
    }

    override fun close() {
        recorder.close()
        dirs.forEach { TestSupport.deleteTree(it) }
    }

    companion object {
        fun record(): LiveSession {
            val root = TestSupport.workspace()
            val home = Files.createTempDirectory("wave-home-").toRealPath()
            Files.writeString(home.resolve(".bash_profile"), "export PATH=\"\$HOME/bin:\$PATH\"\n")
            val live = LiveRecorder(root, TestSupport.launchWithProbe(root, home))
            live.bash("printf '\\033[1;32m✓\\033[0m build ok\\n'; cd src && ls", "Build, then look at the sources")
            live.bash("echo 'checking…'; echo 'error: 2 tests failed' >&2; exit 2", "Run the checks")
            live.bash("kill -TERM $$", "A command killed by a signal")
            live.bash("seq -f 'line %g of a long log' 1 3000", "Print a long log")
            live.bash("cd / && pwd", "Leave the workspace")
            val ticker = BashResult.from(live.bash("while :; do date +%T; sleep 1; done", "Tick every second", background = true))
            // A build that still runs when the pictures are taken: its card shows what it printed so far.
            val build = live.start("for i in \$(seq 1 120); do echo \"compiling module \$i of 120\"; sleep 0.5; done", "A long build, still running")
            live.awaitNotification(CoreNotifications.TOOL_OUTPUT) { it?.asJsonObject?.get("callId")?.asString == build.callId }
            Thread.sleep(3000)
            live.awaitNotification(CoreNotifications.TASK_STARTED)
            Thread.sleep(2200) // a few ticks in the task's log for the tail to show
            live.awaitNotification(CoreNotifications.ENV_STATUS_CHANGED)
            val env = live.api.envStatus().get(10, TimeUnit.SECONDS)
            return LiveSession(live.recording(), env, ticker.backgroundTaskId!!, listOf(root, home), live)
        }
    }
}
