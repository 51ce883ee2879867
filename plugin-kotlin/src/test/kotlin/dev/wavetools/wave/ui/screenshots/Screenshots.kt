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
    for (dark in listOf(false, true)) {
        UIManager.setLookAndFeel(UIManager.getCrossPlatformLookAndFeelClassName())
        if (dark) darcula() else lightTheme()
        val file = File(out, if (dark) "approvals-dark.png" else "approvals-light.png")
        ImageIO.write(approvalsScene(dark), "png", file)
        println("wrote $file")
    }
    UIManager.setLookAndFeel(UIManager.getCrossPlatformLookAndFeelClassName())
    lightTheme()
    val rsc = File(out, "run-shell-command.png")
    ImageIO.write(shellCommandScene(), "png", rsc)
    println("wrote $rsc")
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

private fun started(callId: String, name: String, args: Map<String, Any?>, at: String) =
    dev.wavetools.wave.bridge.ToolStarted(callId, "main", name, dev.wavetools.wave.bridge.Json.encode(args).asJsonObject, at)

/**
 * Permission questions as the core asks them (PROTOCOL.md `permission/request`): one open with a
 * danger warning and a compound command, one whose rules are being edited, one answered, one the
 * core stopped waiting for, and a denial by a rule.
 */
private fun approvalsScene(dark: Boolean): java.awt.image.BufferedImage = onEdt {
    val panel = WavePanel(object : HostServices {}, FakeActions(mutableSetOf("p1", "p2")), fixedClock("2026-05-04T10:02:30Z"), onRun = {}, onRetry = {})
    panel.statusLine.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0"), workspace = WorkspaceInfo(root = "/home/dev/shop")), 4242))
    panel.feed.workspaceRoot = "/home/dev/shop"
    panel.split.dividerLocation = 1120
    val feed = panel.feed
    fun ask(key: String, prompt: dev.wavetools.wave.bridge.PermissionPrompt) =
        feed.permissionAsked(dev.wavetools.wave.ui.ApprovalModel(key, prompt) { true })

    feed.toolStarted(started("p0", "Bash", mapOf("command" to "npm test", "description" to "Run the unit tests"), "2026-05-04T10:00:10Z"))
    val answered = ask("q0", dev.wavetools.wave.bridge.PermissionPrompt(
        callId = "p0", sessionId = "main", tool = "Bash", command = "npm test", description = "Run the unit tests",
        directory = "/home/dev/shop", reason = "No rule allows `npm test`.",
        parts = listOf(dev.wavetools.wave.bridge.PartVerdict("npm test", status = "needs-approval", suggestedRule = "npm test:*")),
        suggestedRules = listOf("npm test:*"), timeoutMs = 600000,
    ))
    answered.allowOnceButton.doClick()
    answered.model.decided(dev.wavetools.wave.bridge.PermissionDecided(callId = "p0", tool = "Bash", command = "npm test", outcome = "allow", asked = true, answer = "allow-once"))

    feed.toolStarted(started("p1", "Bash", mapOf("command" to "git status && rm -rf /tmp/shop-build ~/shop-cache", "description" to "Clean the build caches"), "2026-05-04T10:02:01Z"))
    ask("q1", dev.wavetools.wave.bridge.PermissionPrompt(
        callId = "p1", sessionId = "main", tool = "Bash", command = "git status && rm -rf /tmp/shop-build ~/shop-cache",
        description = "Clean the build caches", directory = "/home/dev/shop",
        reason = "`rm -rf /tmp/shop-build ~/shop-cache` needs approval: no rule allows it, and it has warnings.",
        warnings = listOf(dev.wavetools.wave.bridge.PermissionWarning("delete-outside-workspace", "Deletes recursively ~/shop-cache, outside the workspace.", "rm -rf /tmp/shop-build ~/shop-cache")),
        parts = listOf(
            dev.wavetools.wave.bridge.PartVerdict("git status", status = "allowed", rule = "git status"),
            dev.wavetools.wave.bridge.PartVerdict("rm -rf /tmp/shop-build ~/shop-cache", status = "needs-approval", suggestedRule = "rm -rf /tmp/shop-build ~/shop-cache"),
        ),
        suggestedRules = listOf("rm -rf /tmp/shop-build ~/shop-cache"), timeoutMs = 600000,
    ))

    feed.toolStarted(started("p2", "run_shell_command", mapOf("command" to "npm run test:unit -- --watch=false", "description" to "Unit tests"), "2026-05-04T10:02:12Z"))
    val editing = ask("q2", dev.wavetools.wave.bridge.PermissionPrompt(
        callId = "p2", sessionId = "main", tool = "run_shell_command", command = "npm run test:unit -- --watch=false", description = "Unit tests",
        directory = "/home/dev/shop", reason = "No rule allows `npm run test:unit -- --watch=false`.",
        parts = listOf(dev.wavetools.wave.bridge.PartVerdict("npm run test:unit -- --watch=false", status = "needs-approval", suggestedRule = "npm run test:unit:*")),
        suggestedRules = listOf("npm run test:unit:*"), timeoutMs = 600000,
    ))
    editing.alwaysAllowButton.doClick()
    editing.rulesArea.text = "npm run test:*"

    val gone = ask("q3", dev.wavetools.wave.bridge.PermissionPrompt(
        callId = "p3", sessionId = "main", tool = "Write", kind = "path", path = "/home/dev/.npmrc",
        directory = "/home/dev/shop", reason = "/home/dev/.npmrc is outside the allowed directories.", timeoutMs = 600000,
    ))
    gone.model.withdraw(dev.wavetools.wave.ui.ApprovalModel.NOT_WAITING_ANY_MORE)
    feed.permissionDecided(dev.wavetools.wave.bridge.PermissionDecided(
        callId = "p4", tool = "Bash", command = "git push --force origin main", outcome = "deny", asked = false,
        reason = "Permission denied: `git push --force origin main` matches the deny rule `git push --force:*`.",
    ))
    if (dark) darculaButtons(panel)
    paint(panel, Dimension(820, 1240))
}

/** run_shell_command: one running with its live output tail, one finished with every result field. */
private fun shellCommandScene(): java.awt.image.BufferedImage = onEdt {
    val panel = WavePanel(object : HostServices {}, FakeActions(mutableSetOf("r2")), fixedClock("2026-05-04T10:03:20Z"), onRun = {}, onRetry = {})
    panel.statusLine.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0"), workspace = WorkspaceInfo(root = "/home/dev/shop")), 4242))
    panel.split.dividerLocation = 1120
    val feed = panel.feed
    feed.toolStarted(started("r1", "run_shell_command", mapOf("command" to "npm run build && (node server.js > server.log 2>&1 &)", "description" to "Build and start the server", "directory" to "web"), "2026-05-04T10:01:00Z"))
    val structured = mapOf(
        "command" to "npm run build && (node server.js > server.log 2>&1 &)", "directory" to "web",
        "stdout" to "> shop-web@1.4.0 build\n> tsc -p . && esbuild src/main.ts --bundle --outfile=dist/main.js\n\n  dist/main.js  182.4kb\n\n⚡ Done in 312ms\n",
        "stderr" to "npm warn deprecated inflight@1.0.6: This module is not supported\n", "error" to null, "errorKind" to null,
        "exitCode" to 0, "signal" to null, "signalName" to null, "backgroundPids" to listOf(48213),
        "backgroundProcesses" to listOf(mapOf("pid" to 48213, "command" to "node server.js")), "pgid" to 48190,
        "timedOut" to false, "interrupted" to false, "timeoutMs" to 120000, "durationMs" to 4380,
    )
    feed.toolFinished(dev.wavetools.wave.bridge.ToolFinished("r1", "main", "run_shell_command", false, 4380,
        dev.wavetools.wave.bridge.CallToolResult(structuredContent = dev.wavetools.wave.bridge.Json.encode(structured).asJsonObject)))
    feed.toolStarted(started("r2", "run_shell_command", mapOf("command" to "npm run test:e2e", "description" to "End-to-end tests"), "2026-05-04T10:02:51Z"))
    feed.toolProgress(dev.wavetools.wave.bridge.ToolProgress("r2", "main",
        "  ✓ cart › adds an item (812ms)\n  ✓ cart › removes an item (640ms)\n  ✓ checkout › pays with a card (2.1s)\n  ◌ checkout › applies a coupon\n[stderr]\n(node:48301) ExperimentalWarning: VM Modules is an experimental feature", 29.0))
    paint(panel, Dimension(820, 900))
}
