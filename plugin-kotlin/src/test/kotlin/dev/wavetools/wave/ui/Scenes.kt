package dev.wavetools.wave.ui

import dev.wavetools.wave.bridge.AgentEndpoint
import dev.wavetools.wave.bridge.AgentsStatus
import dev.wavetools.wave.bridge.CallToolResult
import dev.wavetools.wave.bridge.ClientInfo
import dev.wavetools.wave.bridge.ContentItem
import dev.wavetools.wave.bridge.CoreState
import dev.wavetools.wave.bridge.EnvStatus
import dev.wavetools.wave.bridge.InitializeResult
import dev.wavetools.wave.bridge.Json
import dev.wavetools.wave.bridge.NodeAttempt
import dev.wavetools.wave.bridge.NodeLocator
import dev.wavetools.wave.bridge.NodeLookup
import dev.wavetools.wave.bridge.PartVerdict
import dev.wavetools.wave.bridge.PermissionDecided
import dev.wavetools.wave.bridge.PermissionPrompt
import dev.wavetools.wave.bridge.PermissionWarning
import dev.wavetools.wave.bridge.SandboxStatus
import dev.wavetools.wave.bridge.ServerInfo
import dev.wavetools.wave.bridge.TaskInfo
import dev.wavetools.wave.bridge.ToolFinished
import dev.wavetools.wave.bridge.ToolProgress
import dev.wavetools.wave.bridge.ToolStarted
import dev.wavetools.wave.bridge.WorkspaceInfo
import dev.wavetools.wave.bridge.WslPath
import java.nio.file.Files

/**
 * The tool window in the situations the screenshots show and the layout tests check: built on the
 * UI thread, in the current theme, without a core (the live scene is in Screenshots.kt).
 */
object Scenes {
    const val ROOT = "/home/dev/shop"

    fun ready(panel: WavePanel, env: EnvStatus? = EnvStatus(state = "ok", shell = "/bin/zsh", durationMs = 312, attempts = 1, adoptedKeys = listOf("PATH", "NVM_DIR", "JAVA_HOME"), sandbox = SandboxStatus(true, "bubblewrap", "deny"))) {
        panel.statusLine.showCore(CoreState.Ready(InitializeResult(serverInfo = ServerInfo("wave-core", "0.1.0"), workspace = WorkspaceInfo(root = ROOT)), 4242))
        env?.let { panel.statusLine.showEnv(it) }
        panel.feed.workspaceRoot = ROOT
    }

    val host = object : HostServices {
        override val showHelp: (() -> Unit) = {}
        override val downloadNode: (() -> Unit) = {}
        override fun emptyStateActions() = listOf(LinkAction("Connect an Agent") {})
    }

    fun started(callId: String, name: String, args: Map<String, Any?>, at: String) =
        ToolStarted(callId, "main", name, Json.encode(args).asJsonObject, at)

    fun finished(callId: String, name: String, structured: Map<String, Any?>, text: String = "", isError: Boolean = false, durationMs: Long = 0) =
        ToolFinished(callId, "main", name, isError, durationMs, CallToolResult(content = listOf(ContentItem(text = text)), structuredContent = Json.encode(structured).asJsonObject, isError = isError))

    fun emptyState(): WavePanel = WavePanel(host, FakeActions(), onRun = {}, onRetry = {}).also { ready(it) }

    /** No Node.js: what the locator reports with only old ones installed, as the tool window shows it (Download offered). */
    fun fallback(expanded: Boolean): WavePanel = WavePanel(host, FakeActions(), onRun = {}, onRetry = {}).also { panel ->
        val notFound = NodeLookup.NotFound(
            listOf(
                NodeAttempt("/opt/node/bin/node", NodeLocator.SETTINGS, "no executable file there"),
                NodeAttempt("/usr/local/bin/node", "PATH", "not found"),
                NodeAttempt("/usr/bin/node", "PATH", "Node.js v18.19.1 is too old (${NodeLocator.MINIMUM_MAJOR} or newer is needed)"),
                NodeAttempt("/home/dev/.nvm/versions/node/v16.20.2/bin/node", "nvm", "Node.js v16.20.2 is too old (${NodeLocator.MINIMUM_MAJOR} or newer is needed)"),
            ),
            NodeLocator.MINIMUM_MAJOR,
        ).launchException()
        panel.showFallback(CoreState.Failed(notFound.message!!, notFound.details, notFound.kind))
        if (expanded) panel.fallback.details?.setExpanded(true)
    }

    /** A project inside WSL: refused with the reason, which Details shows. */
    fun wslProject(): WavePanel = WavePanel(host, FakeActions(), onRun = {}, onRetry = {}).also { panel ->
        val refusal = WslPath.unsupportedProject("//wsl.localhost/Ubuntu-24.04/home/dev/shop")!!
        panel.showFallback(CoreState.Failed(refusal.message!!, refusal.details, refusal.kind))
        panel.fallback.details?.setExpanded(true)
    }

    /** The recorded session (a failing test run, an edit, a read, a grep, a background dev server, a running build) and more. */
    fun session(): WavePanel {
        val panel = WavePanel(host, FakeActions(mutableSetOf("c9")), fixedClock("2026-05-04T10:01:07Z"), onRun = {}, onRetry = {})
        ready(panel)
        RecordedSession.play(panel, RecordedSession.load("session.jsonl"))
        (panel.feed.card("c3") as? CompactCard)?.setExpanded(true)
        panel.input.field.text = "git diff --stat"
        return panel
    }

    /**
     * Permission questions as the core asks them (PROTOCOL.md `permission/request`): one answered, one
     * open with a danger warning on a compound command, a Write outside the project, a command that
     * would leave the sandbox, one whose rules are being edited, one no longer asked, and a denial by a rule.
     */
    fun approvals(): WavePanel {
        // The agent's calls: this window cannot stop or background them, only answer for them.
        val panel = WavePanel(host, FakeActions(), fixedClock("2026-05-04T10:02:30Z"), onRun = {}, onRetry = {})
        ready(panel)
        val feed = panel.feed
        fun ask(key: String, prompt: PermissionPrompt) = feed.permissionAsked(ApprovalModel(key, prompt) { true })

        feed.toolStarted(started("p0", "Bash", mapOf("command" to "npm test", "description" to "Run the unit tests"), "2026-05-04T10:00:10Z"))
        val answered = ask("q0", PermissionPrompt(
            callId = "p0", sessionId = "main", tool = "Bash", command = "npm test", description = "Run the unit tests",
            directory = ROOT, reason = "No rule allows `npm test`.",
            parts = listOf(PartVerdict("npm test", status = "needs-approval", suggestedRule = "npm test:*")),
            suggestedRules = listOf("npm test:*"), timeoutMs = 600000,
        ))
        answered.allowOnceButton.doClick()
        answered.model.decided(PermissionDecided(callId = "p0", tool = "Bash", command = "npm test", outcome = "allow", asked = true, answer = "allow-once"))

        val rm = "git status && rm -rf /tmp/shop-build ~/shop-cache"
        feed.toolStarted(started("p1", "Bash", mapOf("command" to rm, "description" to "Clean the build caches"), "2026-05-04T10:02:01Z"))
        ask("q1", PermissionPrompt(
            callId = "p1", sessionId = "main", tool = "Bash", command = rm, description = "Clean the build caches", directory = ROOT,
            reason = "`rm -rf /tmp/shop-build ~/shop-cache` needs approval: no rule allows it, and it has warnings.",
            warnings = listOf(PermissionWarning("delete-outside-workspace", "Deletes recursively `~/shop-cache`, outside the workspace.", "rm -rf /tmp/shop-build ~/shop-cache")),
            parts = listOf(
                PartVerdict("git status", status = "allowed", rule = "git status"),
                PartVerdict("rm -rf /tmp/shop-build ~/shop-cache", status = "needs-approval", suggestedRule = "rm -rf /tmp/shop-build ~/shop-cache"),
            ),
            suggestedRules = listOf("rm -rf /tmp/shop-build ~/shop-cache"), timeoutMs = 600000, sandboxed = true,
        ))

        feed.toolStarted(started("p2", "Write", mapOf("file_path" to "/home/dev/.npmrc", "content" to "registry=https://registry.npmjs.org/\n"), "2026-05-04T10:02:05Z"))
        ask("q2", PermissionPrompt(
            callId = "p2", sessionId = "main", tool = "Write", kind = "path", path = "/home/dev/.npmrc", directory = ROOT,
            reason = "`/home/dev/.npmrc` is outside the allowed directories.", suggestedRules = listOf("Write(/home/dev/.npmrc)"), timeoutMs = 600000,
        ))

        feed.toolStarted(started("p3", "run_shell_command", mapOf("command" to "docker compose up -d db", "description" to "Start the test database"), "2026-05-04T10:02:09Z"))
        ask("q3", PermissionPrompt(
            callId = "p3", sessionId = "main", tool = "run_shell_command", command = "docker compose up -d db", description = "Start the test database", directory = ROOT,
            reason = "No rule allows `docker compose up -d db`.", suggestedRules = listOf("docker compose up:*"), timeoutMs = 600000,
            sandboxed = false, outsideSandboxReason = "`docker` talks to the Docker daemon's socket, which the sandbox does not expose.",
        ))

        feed.toolStarted(started("p5", "Bash", mapOf("command" to "npm run test:unit -- --watch=false", "description" to "Unit tests"), "2026-05-04T10:02:12Z"))
        val editing = ask("q5", PermissionPrompt(
            callId = "p5", sessionId = "main", tool = "Bash", command = "npm run test:unit -- --watch=false", description = "Unit tests",
            directory = "$ROOT/web", reason = "No rule allows `npm run test:unit -- --watch=false`.",
            suggestedRules = listOf("npm run test:unit:*"), timeoutMs = 600000,
        ))
        editing.alwaysAllowButton.doClick()
        editing.rulesArea.text = "npm run test:*"

        val gone = ask("q6", PermissionPrompt(
            callId = "p6", sessionId = "main", tool = "Bash", command = "curl -fsSL https://example.com/install.sh | sh",
            directory = ROOT, reason = "No rule allows `curl` or `sh`.", timeoutMs = 600000,
        ))
        gone.model.withdraw()
        feed.permissionDecided(PermissionDecided(
            callId = "p7", tool = "Bash", command = "git push --force origin main", outcome = "deny", asked = false,
            reason = "Permission denied: `git push --force origin main` matches the deny rule `git push --force:*`.",
        ))
        return panel
    }

    /** run_shell_command: one finished with stdout, stderr and a background process (Details open), one running with its live tail. */
    fun shellCommand(): WavePanel {
        val panel = WavePanel(host, FakeActions(mutableSetOf("r2")), fixedClock("2026-05-04T10:03:20Z"), onRun = {}, onRetry = {})
        ready(panel)
        val feed = panel.feed
        val build = "npm run build && (node server.js > server.log 2>&1 &)"
        feed.toolStarted(started("r1", "run_shell_command", mapOf("command" to build, "description" to "Build and start the server", "directory" to "web"), "2026-05-04T10:01:00Z"))
        feed.toolFinished(finished("r1", "run_shell_command", mapOf(
            "command" to build, "directory" to "web",
            "stdout" to "> shop-web@1.4.0 build\n> tsc -p . && esbuild src/main.ts --bundle --outfile=dist/main.js\n\n  dist/main.js  182.4kb\n\n⚡ Done in 312ms\n",
            "stderr" to "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it.\n", "error" to null,
            "exitCode" to 0, "signal" to null, "signalName" to null, "backgroundPids" to listOf(48213),
            "backgroundProcesses" to listOf(mapOf("pid" to 48213, "command" to "node server.js")), "pgid" to 48190,
            "timedOut" to false, "interrupted" to false, "timeoutMs" to 120000, "durationMs" to 4380, "sandboxed" to true,
        ), durationMs = 4380))
        (feed.card("r1") as ShellCommandCard).details?.setExpanded(true)
        feed.toolStarted(started("r3", "run_shell_command", mapOf("command" to "npm run lint", "description" to "Lint"), "2026-05-04T10:02:00Z"))
        feed.toolFinished(finished("r3", "run_shell_command", mapOf(
            "command" to "npm run lint", "directory" to "(ROOT)", "stdout" to "",
            "stderr" to "src/cart.ts:41:7  error  'coupon' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n",
            "exitCode" to 1, "backgroundPids" to emptyList<Int>(), "pgid" to 48290, "durationMs" to 2210, "sandboxed" to false,
        ), isError = true, durationMs = 2210))
        feed.toolStarted(started("r2", "run_shell_command", mapOf("command" to "npm run test:e2e -- --project=chromium --reporter=list", "description" to "End-to-end tests"), "2026-05-04T10:02:51Z"))
        feed.toolProgress(ToolProgress("r2", "main",
            "  ✓ cart › adds an item (812ms)\n  ✓ cart › removes an item (640ms)\n  ✓ checkout › pays with a card (2.1s)\n  ◌ checkout › applies a coupon\n[stderr]\n(node:48301) ExperimentalWarning: VM Modules is an experimental feature and might change at any time", 29.0))
        return panel
    }

    /** Connect an Agent with [kind]'s tab open, for a user whose PATH has the agent's CLI (paths as a real installation has them). */
    fun connect(kind: dev.wavetools.wave.bridge.AgentKind): ConnectAgentPanel {
        val home = java.nio.file.Paths.get("/home/dev")
        val attach = dev.wavetools.wave.bridge.AttachCommand("/home/dev/.nvm/versions/node/v22.11.0/bin/node", "/home/dev/.local/share/JetBrains/IntelliJIdea2025.3/wave-tools/core/wave-core.js")
        // The repository's node_modules/.bin has the claude CLI: Apply is offered, as for a user who has it.
        val path = System.getProperty("wave.repoRoot")?.let { "$it/node_modules/.bin" } ?: ""
        val connect = dev.wavetools.wave.bridge.AgentConnect(attach, home, mapOf("PATH" to path), dev.wavetools.wave.bridge.OsFamily.LINUX)
        val host = object : ConnectHost {
            override fun copy(text: String) {}
            override fun apply(kind: dev.wavetools.wave.bridge.AgentKind, turnOffOwnTools: Boolean, done: (ApplyOutcome) -> Unit) {}
        }
        return ConnectAgentPanel(connect, host, kind)
    }

    /**
     * Two agents attached over MCP: Claude Code's tab showing (a read, a finished test run, a build
     * that runs with its controls, a push waiting for approval) and Codex's tab, disconnected.
     */
    fun agentSession(): WavePanel {
        val clock = fixedClock("2026-05-04T10:12:40Z")
        val panel = WavePanel(host, FakeActions(), clock, onRun = {}, onRetry = {})
        ready(panel)
        panel.statusLine.showAgents(AgentsStatus(AgentEndpoint("http://127.0.0.1:53124/mcp", "/home/dev/.wave/ide/4242.json"), 1))
        // The agent's running calls can be stopped and backgrounded here; its questions are its own.
        val agentActions = object : CallActions by FakeActions(mutableSetOf("a3", "a4")) {
            override fun isOwnCall(callId: String) = false
        }
        val claude = AgentTab("mcp-1a2b3c4d", ClientInfo("claude-code", "2.1.197"), agentActions, clock, panel.softWrap, onClose = {})
        val codex = AgentTab("mcp-9f8e7d6c", ClientInfo("codex-mcp-client", "0.171.0"), FakeActions(), clock, panel.softWrap, onClose = {})
        for (tab in listOf(claude, codex)) {
            tab.feed.workspaceRoot = ROOT
            panel.sessions.addAgent(tab)
        }
        codex.closed("the agent disconnected")
        panel.sessions.refresh(codex)
        panel.sessions.select(claude.sessionId)
        val feed = claude.feed
        fun started(id: String, name: String, args: Map<String, Any?>, at: String) = ToolStarted(id, claude.sessionId, name, Json.encode(args).asJsonObject, at)
        fun finished(id: String, name: String, structured: Map<String, Any?>, text: String, durationMs: Long, isError: Boolean = false) =
            ToolFinished(id, claude.sessionId, name, isError, durationMs, CallToolResult(listOf(ContentItem(text = text)), Json.encode(structured).asJsonObject, isError))
        feed.toolStarted(started("a1", "Read", mapOf("file_path" to "$ROOT/src/cart.ts"), "2026-05-04T10:11:02Z"))
        feed.toolFinished(finished("a1", "Read", mapOf("filePath" to "$ROOT/src/cart.ts", "startLine" to 1, "numLines" to 120, "totalLines" to 120), "", 4))
        feed.toolStarted(started("a2", "Bash", mapOf("command" to "npm test -- cart", "description" to "Run the cart tests"), "2026-05-04T10:11:10Z"))
        feed.toolFinished(finished("a2", "Bash", mapOf("success" to true, "exitCode" to 0, "output" to "> shop@1.4.0 test\n> vitest run cart\n\n ✓ src/cart.test.ts (12 tests) 41ms\n\n Test Files  1 passed (1)\n      Tests  12 passed (12)\n", "durationMs" to 2140), "", 2140))
        feed.toolStarted(started("a3", "Bash", mapOf("command" to "npm run build", "description" to "Build the shop"), "2026-05-04T10:12:01Z"))
        feed.toolStarted(started("a4", "Bash", mapOf("command" to "git push origin feature/coupons", "description" to "Push the branch"), "2026-05-04T10:12:35Z"))
        feed.permissionAsked(ApprovalModel("q1", PermissionPrompt(
            callId = "a4", sessionId = claude.sessionId, tool = "Bash", command = "git push origin feature/coupons", description = "Push the branch",
            directory = ROOT, reason = "No rule allows `git push origin feature/coupons`.",
            parts = listOf(PartVerdict("git push origin feature/coupons", status = "needs-approval", suggestedRule = "git push:*")),
            suggestedRules = listOf("git push:*"), timeoutMs = 600000, sandboxed = true,
        )) { true })
        return panel
    }

    /** Background tasks: running ones, a stopped one (grey dot), a failed one, and a log open below them. */
    fun tasks(): WavePanel {
        val panel = WavePanel(host, FakeActions(mutableSetOf("t1")), fixedClock("2026-05-04T10:20:00Z"), onRun = {}, onRetry = {})
        ready(panel)
        panel.feed.toolStarted(started("b1", "Bash", mapOf("command" to "npm run dev", "description" to "Start the dev server"), "2026-05-04T10:02:00Z"))
        panel.feed.toolFinished(finished("b1", "Bash", mapOf("success" to true, "backgroundTaskId" to "b7k2q9d", "backgroundedByUser" to true, "output" to "", "durationMs" to 4100), durationMs = 4100))
        val log = Files.createTempFile("wave-screenshot-task", ".log")
        Files.writeString(log, "> shop@1.4.0 dev\n> vite\n\n  VITE v5.2.0  ready in 312 ms\n\n  ➜  Local:   http://localhost:5173/\n  ➜  Network: use --host to expose\n10:19:58 [vite] page reload src/cart.ts\n")
        log.toFile().deleteOnExit()
        fun task(id: String, command: String, status: String, startedAt: String, runtimeMs: Long, description: String? = null, origin: String = "background", exitCode: Int? = null, signal: String? = null, path: String = "/tmp/wave-core-dev/$id.log") =
            TaskInfo(taskId = id, sessionId = "main", command = command, description = description, origin = origin, status = status, startedAt = startedAt, runtimeMs = runtimeMs, exitCode = exitCode, signal = signal, outputPath = path)
        panel.tasks.upsert(task("b7k2q9d", "npm run dev", "running", "2026-05-04T10:02:00Z", 0, "Start the dev server", "user", path = log.toString()))
        panel.tasks.upsert(task("c1d2e3f", "cargo watch -x 'test --workspace --all-features'", "running", "2026-05-04T10:14:30Z", 0))
        panel.tasks.upsert(task("ba1f9x2", "npm run lint -- --watch", "killed", "2026-05-04T09:40:00Z", 1_080_000, signal = "SIGTERM"))
        panel.tasks.upsert(task("f00b4r1", "docker compose logs -f api", "failed", "2026-05-04T09:30:00Z", 65_000, exitCode = 1))
        panel.tasks.select("b7k2q9d")
        return panel
    }
}
