package dev.wavetools.wave.ide.mcp

import com.intellij.mcpserver.McpTool
import com.intellij.mcpserver.McpToolsProvider
import com.intellij.openapi.Disposable
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.components.Service
import com.intellij.openapi.components.service
import com.intellij.openapi.diagnostic.Logger
import com.intellij.openapi.project.Project
import com.intellij.openapi.project.ProjectManager
import dev.wavetools.wave.bridge.BridgeLog
import dev.wavetools.wave.bridge.WaveCoreApi
import dev.wavetools.wave.ide.WaveProjectService
import java.util.concurrent.Executors

/**
 * Registered by META-INF/wave-mcp.xml, which the IDE loads only when its MCP server plugin
 * (`com.intellij.mcpServer`, 2025.2+) is there: elsewhere nothing of this exists.
 */
class WaveMcpToolsProvider : McpToolsProvider {
    override fun getTools(): List<McpTool> = service<WaveMcpService>().tools.tools()
}

/** Holds the tools and the clients' sessions; disposed with the MCP server plugin or the IDE. */
@Service(Service.Level.APP)
class WaveMcpService : Disposable {
    private val log = Logger.getInstance(WaveMcpService::class.java)
    private val scheduler = Executors.newSingleThreadScheduledExecutor { r -> Thread(r, "wave-mcp-sessions").apply { isDaemon = true } }

    val tools = WaveMcpTools(
        cores = IdeProjectCores,
        log = BridgeLog { level, message, error -> if (level >= BridgeLog.Level.WARN) log.warn(message, error) else log.info(message) },
        scheduler = scheduler,
        isUiThread = { ApplicationManager.getApplication().isDispatchThread },
    )

    override fun dispose() {
        tools.close()
        scheduler.shutdownNow()
    }
}

/** The open projects' cores. */
private object IdeProjectCores : ProjectCores {
    private fun open(): List<Project> = ProjectManager.getInstance().openProjects.filter { !it.isDisposed }

    override fun supervisor(project: Project?): CoreLookup {
        val target = project ?: open().singleOrNull()
            ?: return CoreLookup.Missing(
                if (open().isEmpty()) "No project is open in the IDE." else
                    "Several projects are open (${open().joinToString { it.name }}) and the IDE's MCP server did not say which one this client works in. Pass the project's path as the IDE's MCP settings describe, or close the other projects.",
            )
        val service = WaveProjectService.getInstance(target)
        service.start()
        return CoreLookup.Found(service.supervisor, target.name)
    }

    override fun readyApis(): List<WaveCoreApi> = open().mapNotNull { WaveProjectService.getInstanceIfCreated(it)?.supervisor?.api() }

    override fun startAll() = open().forEach { WaveProjectService.getInstance(it).start() }
}
