package dev.wavetools.wave.bridge

import java.io.IOException
import java.io.InputStream
import java.net.HttpURLConnection
import java.net.URI
import java.nio.channels.FileChannel
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.nio.file.StandardOpenOption
import java.security.MessageDigest
import java.time.Duration
import java.util.Comparator
import java.util.HexFormat
import java.util.UUID
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

/** One official Node.js archive of the version the plugin manages, with the SHA-256 pinned for it. */
data class NodeDistribution(
    val version: NodeVersion,
    /** Node's own platform name: `linux-x64`, `darwin-arm64`, `win-x64`, ... */
    val platform: String,
    val sha256: String,
    /** The archive's size in bytes, where known; the download says how far it is against it. */
    val size: Long? = null,
) {
    val isWindows: Boolean get() = platform.startsWith("win-")
    val rootName: String get() = "node-$version-$platform"
    val fileName: String get() = rootName + if (isWindows) ".zip" else ".tar.gz"

    /** The executable inside the unpacked [rootName] folder. */
    val executable: String get() = if (isWindows) "node.exe" else "bin/node"

    fun url(baseUrl: String): String = "${baseUrl.trimEnd('/')}/$version/$fileName"
}

/**
 * The Node.js the plugin downloads when there is none: the newest 22 LTS whose checksums could be
 * confirmed from sources other than nodejs.org itself (see docs/user/plugin.md, "Node.js: nothing to install"). The sums are
 * part of the plugin, so a download is checked against what was pinned at build time, never against
 * a SHASUMS256.txt fetched from the same server as the archive.
 */
object PinnedNode {
    val VERSION = NodeVersion(22, 23, 3)
    const val BASE_URL = "https://nodejs.org/dist"

    val DISTRIBUTIONS: List<NodeDistribution> = listOf(
        NodeDistribution(VERSION, "linux-x64", "1084aa36196bba4c3a5e69a1ee388a6e4ff729dad09445fbcd434b28fe3c24af"),
        NodeDistribution(VERSION, "linux-arm64", "5ced2d48d1d7198739b7f86804de0171aefb6823b684b12341d3321afc3cb0b2", 56_655_163),
        NodeDistribution(VERSION, "darwin-x64", "8a677b0219178efd6eb0e475457c4afb452b521a92f6e67845a73bd85727f2a8"),
        NodeDistribution(VERSION, "darwin-arm64", "23b25245dcfb9af7262f8ff142e9e2e0af025368117329e7a7458a51e5922f53", 49_963_763),
        NodeDistribution(VERSION, "win-x64", "2b0ff57b049cda1bbcea2240eec20467018713c1efe1f7360c2681859b90ed71", 35_574_076),
        NodeDistribution(VERSION, "win-arm64", "33dad22e4cef5ee8f9fbb1b0d037fdacd0e56d12a4580f0d63f68b894deab535"),
    )

    /** Node's name for [osArch] (the JVM's `os.arch`: `amd64`, `x86_64`, `aarch64`, `arm64`), or null for a CPU Node has no build of here. */
    fun nodeArch(osArch: String): String? = when (osArch.lowercase()) {
        "amd64", "x86_64", "x64" -> "x64"
        "aarch64", "arm64" -> "arm64"
        else -> null
    }

    /** The archive for this machine, or null when the plugin has none for it (32-bit, RISC-V, ...). */
    fun forPlatform(os: OsFamily, osArch: String): NodeDistribution? {
        val arch = nodeArch(osArch) ?: return null
        val name = when (os) {
            OsFamily.LINUX -> "linux-$arch"
            OsFamily.MAC -> "darwin-$arch"
            OsFamily.WINDOWS -> "win-$arch"
        }
        return DISTRIBUTIONS.firstOrNull { it.platform == name }
    }
}

/** Reports how a download goes and lets the user stop it. Called on the downloading thread. */
interface InstallProgress {
    fun step(text: String) {}

    /** [done] of [total] bytes; [total] is -1 when the server did not say. */
    fun bytes(done: Long, total: Long) {}

    /** Polled between reads: true stops the install, which then leaves nothing behind. */
    val isCancelled: Boolean get() = false
}

/** Opens an HTTP GET; the IDE passes one that goes through its proxy settings. */
interface HttpDownloader {
    /**
     * Calls [read] with the body and its announced length (-1 when unknown); throws an [IOException]
     * for a connection failure or a status other than 2xx, saying which.
     */
    fun <T> get(url: String, read: (body: InputStream, contentLength: Long) -> T): T
}

/** The JDK's HTTP client, honouring the JVM's proxy selector; the IDE layer replaces it with the IDE's. */
object JdkHttpDownloader : HttpDownloader {
    override fun <T> get(url: String, read: (body: InputStream, contentLength: Long) -> T): T {
        val connection = URI(url).toURL().openConnection() as HttpURLConnection
        connection.connectTimeout = Duration.ofSeconds(20).toMillis().toInt()
        connection.readTimeout = Duration.ofSeconds(60).toMillis().toInt()
        connection.instanceFollowRedirects = true
        try {
            val status = connection.responseCode
            if (status !in 200..299) throw IOException("the server answered HTTP $status for $url")
            return connection.inputStream.use { read(it, connection.contentLengthLong) }
        } finally {
            connection.disconnect()
        }
    }
}

/** A download or unpack failed; the message says what happened and what to do. Nothing was installed. */
class NodeInstallException(message: String, cause: Throwable? = null) : IOException(message, cause)

/**
 * The Node.js runtime the plugin manages, in `<root>/node-v22.x.y-<platform>/`, shared by every
 * project (and every IDE process using the same [root]). [install] downloads the pinned archive,
 * checks its SHA-256 while it streams, unpacks it beside the final folder and renames it into place
 * only when everything succeeded, so the folder either does not exist or is complete. Installs are
 * serialized within the JVM and across processes by a lock file; whoever comes second finds the
 * finished folder and uses it.
 */
class ManagedNodeRuntime(
    val root: Path,
    val distribution: NodeDistribution,
    private val http: HttpDownloader = JdkHttpDownloader,
    private val baseUrl: String = PinnedNode.BASE_URL,
    private val log: BridgeLog,
) {
    val installDir: Path = root.resolve(distribution.rootName)
    val executable: Path = installDir.resolve(distribution.executable)
    private val marker: Path = installDir.resolve(COMPLETE_MARKER)

    /** The runtime's `node`, when a complete install is there. */
    fun installed(): Path? = executable.takeIf { Files.isRegularFile(marker) && Files.isRegularFile(it) }

    /** Installs the runtime unless it is there; returns its `node`. Throws [NodeInstallException] or [InstallCancelledException]. */
    fun install(progress: InstallProgress = object : InstallProgress {}): Path {
        installed()?.let { return it }
        Files.createDirectories(root)
        return jvmLock(root).withLock {
            FileChannel.open(root.resolve(".install.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE).use { channel ->
                channel.lock().use {
                    // Another project, or another IDE, may have finished while this one waited.
                    installed()?.let { return@withLock it }
                    removeLeftovers()
                    installLocked(progress)
                }
            }
        }
    }

    private fun installLocked(progress: InstallProgress): Path {
        val id = UUID.randomUUID().toString().take(8)
        val archive = root.resolve(".download-$id-${distribution.fileName}")
        val staging = root.resolve(".staging-$id")
        try {
            download(archive, progress)
            progress.step("Unpacking Node.js ${distribution.version}")
            Files.createDirectories(staging)
            try {
                SafeArchive.unpack(archive, staging) { progress.isCancelled }
            } catch (e: InstallCancelledException) {
                throw e
            } catch (e: UnsafeArchiveException) {
                throw NodeInstallException("The Node.js archive was refused and nothing was installed: ${e.message}.", e)
            } catch (e: IOException) {
                throw NodeInstallException("Unpacking ${distribution.fileName} failed and nothing was installed: ${e.message}. Try again; there may not be enough free disk space in $root.", e)
            }
            val unpacked = staging.resolve(distribution.rootName)
            if (!Files.isRegularFile(unpacked.resolve(distribution.executable))) {
                throw NodeInstallException("${distribution.fileName} does not contain ${distribution.rootName}/${distribution.executable}; nothing was installed.")
            }
            Files.writeString(unpacked.resolve(COMPLETE_MARKER), "${distribution.fileName} sha256=${distribution.sha256}\n")
            try {
                Files.move(unpacked, installDir, StandardCopyOption.ATOMIC_MOVE)
            } catch (e: IOException) {
                throw NodeInstallException("Could not move the unpacked Node.js into $installDir: ${e.message}. Nothing was installed.", e)
            }
            log.info("installed Node.js ${distribution.version} into $installDir")
            return executable
        } finally {
            deleteQuietly(archive)
            deleteQuietly(staging)
        }
    }

    private fun download(archive: Path, progress: InstallProgress) {
        val url = distribution.url(baseUrl)
        progress.step("Downloading Node.js ${distribution.version} (${distribution.fileName})")
        val digest = MessageDigest.getInstance("SHA-256")
        val received = try {
            http.get(url) { body, announced ->
                val total = if (announced > 0) announced else distribution.size ?: -1
                var done = 0L
                Files.newOutputStream(archive).use { out ->
                    val buffer = ByteArray(1 shl 16)
                    while (true) {
                        if (progress.isCancelled) throw InstallCancelledException()
                        val n = body.read(buffer)
                        if (n < 0) break
                        out.write(buffer, 0, n)
                        digest.update(buffer, 0, n)
                        done += n
                        progress.bytes(done, total)
                    }
                }
                if (announced > 0 && done != announced) {
                    throw NodeInstallException("The download of $url stopped after $done of $announced bytes. Nothing was installed; check the network connection (and the IDE's proxy settings) and try again.")
                }
                done
            }
        } catch (e: InstallCancelledException) {
            throw e
        } catch (e: NodeInstallException) {
            throw e
        } catch (e: IOException) {
            throw NodeInstallException("Downloading $url failed: ${e.message}. Nothing was installed; check the network connection and the IDE's proxy settings (Settings | Appearance & Behavior | System Settings | HTTP Proxy), then try again.", e)
        }
        val actual = HexFormat.of().formatHex(digest.digest())
        if (!actual.equals(distribution.sha256, ignoreCase = true)) {
            throw NodeInstallException(
                "The downloaded ${distribution.fileName} ($received bytes) does not match the SHA-256 pinned in the plugin " +
                    "(expected ${distribution.sha256}, got $actual). It was deleted and nothing was installed. Try again; if it " +
                    "keeps failing, something between you and nodejs.org changes downloads — install Node.js 20 or newer yourself " +
                    "and set its path in Settings | Tools | Wave Tools.",
            )
        }
    }

    /** Downloads and staging folders a crashed or killed install left; only called while holding the lock. */
    private fun removeLeftovers() {
        Files.newDirectoryStream(root).use { entries ->
            for (entry in entries) {
                val name = entry.fileName.toString()
                if (name.startsWith(".download-") || name.startsWith(".staging-")) deleteQuietly(entry)
            }
        }
        // An install folder without its marker was not made by a finished install (the marker is written before the rename).
        if (Files.exists(installDir) && !Files.exists(marker)) deleteQuietly(installDir)
    }

    companion object {
        const val COMPLETE_MARKER = ".wave-tools-complete"
        private val locks = ConcurrentHashMap<Path, ReentrantLock>()

        private fun jvmLock(root: Path): ReentrantLock = locks.computeIfAbsent(root.toAbsolutePath().normalize()) { ReentrantLock() }

        internal fun deleteQuietly(path: Path) {
            if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return
            try {
                Files.walk(path).use { stream ->
                    stream.sorted(Comparator.reverseOrder()).forEach { p ->
                        try {
                            Files.deleteIfExists(p)
                        } catch (e: IOException) {
                            // Best effort: the next install removes leftovers under the lock.
                        }
                    }
                }
            } catch (e: IOException) {
                // as above
            }
        }
    }
}
