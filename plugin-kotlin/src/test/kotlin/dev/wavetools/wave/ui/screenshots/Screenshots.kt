package dev.wavetools.wave.ui.screenshots

import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.InitializeResult
import dev.wavetools.wave.bridge.ServerInfo
import dev.wavetools.wave.bridge.WorkspaceInfo
import dev.wavetools.wave.bridge.TestSupport
import dev.wavetools.wave.ui.FakeActions
import dev.wavetools.wave.ui.LiveRecorder
import dev.wavetools.wave.ui.HostServices
import dev.wavetools.wave.ui.RecordedSession
import dev.wavetools.wave.ui.WavePanel
import dev.wavetools.wave.ui.fixedClock
import dev.wavetools.wave.ui.onEdt
import dev.wavetools.wave.ui.paint
import java.awt.Color
import java.awt.Dimension
import java.io.File
import javax.imageio.ImageIO
import javax.swing.UIManager
import javax.swing.plaf.ColorUIResource

/**
 * `npm run ui:screenshots`: paints the tool window headless in a realistic session (a failing test
 * run, an edit diff, a dev server moved to the background, a running build) in a light and a dark
 * theme, a session recorded from the real core just now, and the fallback panel, into
 * plugin-kotlin/build/screenshots/ for review.
 */
fun main(args: Array<String>) {
    System.setProperty("awt.useSystemAAFontSettings", "lcd")
    System.setProperty("swing.aatext", "true")
    val out = File(args.firstOrNull() ?: "plugin-kotlin/build/screenshots").apply { mkdirs() }
    val size = Dimension(820, 1240)
    for (dark in listOf(false, true)) {
        UIManager.setLookAndFeel(UIManager.getCrossPlatformLookAndFeelClassName())
        if (dark) darcula() else lightTheme()
        val file = File(out, if (dark) "session-dark.png" else "session-light.png")
        val image = onEdt {
            val panel = WavePanel(object : HostServices {}, FakeActions(mutableSetOf("c9")), fixedClock("2026-05-04T10:01:07Z"), onRun = {}, onRetry = {})
            panel.statusLine.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0"), workspace = WorkspaceInfo(root = "/home/dev/shop")), 4242))
            panel.feed.workspaceRoot = "/home/dev/shop"
            panel.split.dividerLocation = 1010
            RecordedSession.play(panel, RecordedSession.load("session.jsonl"))
            panel.feed.card("c3")?.let { (it as dev.wavetools.wave.ui.CompactCard).setExpanded(true) }
            panel.input.field.text = "git diff --stat"
            if (dark) darculaButtons(panel)
            paint(panel, size)
        }
        ImageIO.write(image, "png", file)
        println("wrote $file")
    }
    UIManager.setLookAndFeel(UIManager.getCrossPlatformLookAndFeelClassName())
    lightTheme()
    val live = File(out, "live-bash.png")
    ImageIO.write(liveSession(), "png", live)
    println("wrote $live")
    val fallback = onEdt {
        val panel = WavePanel(object : HostServices {}, FakeActions(), onRun = {}, onRetry = {})
        panel.showFallback(
            "Node.js is needed to run Wave Tools",
            "Node.js 18 or newer was not found.\nTried:\n  • /usr/local/bin/node (settings): no executable file there\n  • /usr/bin/node (PATH): Node.js v16.20.2 is too old (18 or newer is needed)\n  • /home/dev/.nvm/versions/node (nvm): not found\nInstall Node.js 18 or newer from https://nodejs.org, or set its path in Settings | Tools | Wave Tools | Node.js path.",
        )
        paint(panel, Dimension(820, 360))
    }
    ImageIO.write(fallback, "png", File(out, "fallback.png"))
    println("wrote ${File(out, "fallback.png")}")
    // The cards' elapsed-time timers would keep the AWT threads (and so this JVM) alive.
    kotlin.system.exitProcess(0)
}

/**
 * A session recorded from the real bundled core right now (real bash, a probe of a scratch home),
 * painted the way the tool window shows it: cwd notices, an exit code, a signal, a truncated output
 * with its file, a running background task and the probe's state from `env/status`.
 */
private fun liveSession(): java.awt.image.BufferedImage {
    val root = TestSupport.workspace()
    val home = java.nio.file.Files.createTempDirectory("wave-home-").toRealPath()
    java.nio.file.Files.writeString(home.resolve(".bash_profile"), "export PATH=\"\$HOME/bin:\$PATH\"\n")
    val launch = TestSupport.launch(root, mapOf("HOME" to home.toString(), "SHELL" to "/bin/bash"))
    try {
        LiveRecorder(root, launch).use { live ->
            live.bash("printf '\\033[1;32m✓\\033[0m build ok\\n'; cd src && ls", "Build, then look at the sources")
            live.bash("echo 'checking…'; echo 'error: 2 tests failed' >&2; exit 2", "Run the checks")
            live.bash("kill -TERM $$", "A command killed by a signal")
            live.bash("seq -f 'line %g of a long log' 1 3000", "Print a long log")
            live.bash("cd / && pwd", "Leave the workspace")
            val ticker = dev.wavetools.wave.bridge.BashResult.from(live.bash("while :; do date +%T; sleep 1; done", "Tick every second", background = true))
            live.awaitNotification(dev.wavetools.wave.bridge.CoreNotifications.TASK_STARTED)
            Thread.sleep(2200) // a few ticks in the task's log for the tail to show
            live.awaitNotification(dev.wavetools.wave.bridge.CoreNotifications.ENV_STATUS_CHANGED)
            val env = live.api.envStatus().get(10, java.util.concurrent.TimeUnit.SECONDS)
            return onEdt {
                val panel = WavePanel(object : HostServices {}, FakeActions(), onRun = {}, onRetry = {})
                panel.statusLine.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0"), workspace = WorkspaceInfo(root = root.toString())), live.proc.pid))
                panel.feed.workspaceRoot = root.toString()
                panel.split.dividerLocation = 960
                RecordedSession.play(panel, live.recording())
                panel.statusLine.showEnv(env)
                panel.tasks.select(ticker.backgroundTaskId!!)
                val image = paint(panel, Dimension(820, 1240))
                panel.tasks.closeTail()
                image
            }
        }
    } finally {
        TestSupport.deleteTree(home)
        TestSupport.deleteTree(root)
    }
}

private fun put(key: String, rgb: Int) = UIManager.put(key, ColorUIResource(Color(rgb)))

private fun lightTheme() {
    put("Panel.background", 0xF7F8FA); put("ToolWindow.background", 0xF7F8FA)
    put("Label.foreground", 0x1E1F22); put("Label.infoForeground", 0x6C707E)
    put("Component.borderColor", 0xDFE1E5); put("EditorPane.background", 0xFFFFFF)
    put("TextField.background", 0xFFFFFF); put("TextField.foreground", 0x1E1F22)
    put("Button.background", 0xFFFFFF); put("Button.foreground", 0x1E1F22); put("Component.linkColor", 0x2470B3)
    put("ScrollPane.background", 0xF7F8FA); put("Viewport.background", 0xF7F8FA)
    put("SplitPane.background", 0xF7F8FA); put("TextPane.background", 0xFFFFFF)
    UIManager.put("Button.gradient", null)
}

/** The main Darcula colours, as the IDE's UIManager would report them. */
private fun darcula() {
    put("Panel.background", 0x2B2D30); put("ToolWindow.background", 0x2B2D30)
    put("Label.foreground", 0xDFE1E5); put("Label.infoForeground", 0x8C8F96)
    put("Component.borderColor", 0x43454A); put("EditorPane.background", 0x1E1F22)
    put("Component.linkColor", 0x589DF6)
    put("TextField.background", 0x1E1F22); put("TextField.foreground", 0xDFE1E5)
    put("Button.background", 0x3C3F41); put("Button.foreground", 0xDFE1E5)
    put("ScrollPane.background", 0x2B2D30); put("Viewport.background", 0x2B2D30)
    put("SplitPane.background", 0x2B2D30); put("TextPane.background", 0x1E1F22)
    put("Button.select", 0x4E5157); put("TextField.caretForeground", 0xDFE1E5)
    UIManager.put("Button.gradient", null)
}

/** Metal paints its buttons light whatever the colours say; draw them the way Darcula does. */
private fun darculaButtons(root: java.awt.Component) {
    dev.wavetools.wave.ui.descendants(root).filterIsInstance<javax.swing.JButton>().forEach { b ->
        b.isOpaque = true
        b.background = Color(0x3C3F41)
        b.foreground = Color(0xDFE1E5)
        b.border = javax.swing.BorderFactory.createCompoundBorder(
            javax.swing.BorderFactory.createLineBorder(Color(0x5E6060)),
            javax.swing.BorderFactory.createEmptyBorder(1, 8, 1, 8),
        )
    }
}
