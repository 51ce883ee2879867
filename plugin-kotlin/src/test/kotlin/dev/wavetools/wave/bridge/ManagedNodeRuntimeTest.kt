package dev.wavetools.wave.bridge

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.net.InetAddress
import java.net.InetSocketAddress
import java.nio.file.Files
import java.nio.file.Path
import java.security.MessageDigest
import java.util.HexFormat
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.zip.ZipEntry
import java.util.zip.ZipOutputStream

/**
 * The managed Node.js runtime against a real HTTP server on the loopback interface, serving real
 * archives built here with GNU tar and the JDK's zip writer: install, reuse, and every way a
 * download or an archive can go wrong, each leaving nothing installed.
 */
class ManagedNodeRuntimeTest {
    private val work: Path = Files.createTempDirectory("wave-managed-node-").toRealPath()
    private val system: Path = work.resolve("system/wave-tools/node")
    private val pool = Executors.newCachedThreadPool()
    private val server: HttpServer = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0).apply {
        executor = pool
        start()
    }
    private val baseUrl = "http://127.0.0.1:${server.address.port}/dist"
    private val requests = AtomicInteger()
    private val version = PinnedNode.VERSION
    private val rootName = "node-$version-linux-x64"

    @AfterEach
    fun cleanup() {
        server.stop(0)
        pool.shutdownNow()
        TestSupport.deleteTree(work)
    }

    // ---- archives ----

    /** A small Node.js-shaped tree: bin/node answers --version, bin/npm links into lib/, one name longer than ustar's 100 bytes. */
    private fun nodeTree(dir: Path): Path {
        val top = dir.resolve(rootName)
        Files.createDirectories(top.resolve("bin"))
        Files.writeString(top.resolve("bin/node"), "#!/bin/sh\necho $version\n")
        exec("chmod", "755", top.resolve("bin/node").toString())
        val npm = top.resolve("lib/node_modules/npm/bin/npm-cli.js")
        Files.createDirectories(npm.parent)
        Files.writeString(npm, "console.log('npm')\n")
        Files.createSymbolicLink(top.resolve("bin/npm"), Path.of("../lib/node_modules/npm/bin/npm-cli.js"))
        val deep = top.resolve("lib/node_modules/npm/node_modules/" + "a-rather-long-package-name-".repeat(3) + "x/lib/index.js")
        Files.createDirectories(deep.parent)
        Files.writeString(deep, "module.exports = 1\n")
        Files.writeString(top.resolve("LICENSE"), "Node.js is licensed for use as follows: ...\n")
        return top
    }

    private fun tarGz(name: String, format: String = "gnu", build: (Path) -> Unit = { nodeTree(it) }): ByteArray {
        val src = Files.createDirectories(work.resolve("src-${System.nanoTime()}"))
        build(src)
        val out = work.resolve(name)
        exec("tar", "--format=$format", "-czf", out.toString(), "-C", src.toString(), ".")
        return Files.readAllBytes(out)
    }

    private fun exec(vararg command: String) {
        val p = ProcessBuilder(*command).redirectErrorStream(true).start()
        val output = p.inputStream.readAllBytes().toString(Charsets.UTF_8)
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "${command.joinToString(" ")}: $output")
    }

    private fun sha256(bytes: ByteArray) = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))

    // ---- server ----

    private fun serve(path: String, handler: (HttpExchange) -> Unit) {
        server.createContext(path) { exchange ->
            requests.incrementAndGet()
            try {
                handler(exchange)
            } finally {
                exchange.close()
            }
        }
    }

    private fun serveArchive(fileName: String, bytes: ByteArray) = serve("/dist/$version/$fileName") { ex ->
        ex.sendResponseHeaders(200, bytes.size.toLong())
        ex.responseBody.write(bytes)
    }

    private fun runtime(sha: String, platform: String = "linux-x64", root: Path = system, size: Long? = null) =
        ManagedNodeRuntime(root, NodeDistribution(version, platform, sha, size), JdkHttpDownloader, baseUrl, RecordingLog())

    private fun assertNothingInstalled(root: Path = system) {
        val left = if (Files.isDirectory(root)) Files.list(root).use { s -> s.map { it.fileName.toString() }.toList() } else emptyList()
        assertEquals(emptyList<String>(), left.filter { it != ".install.lock" }, "left behind in $root")
    }

    private class Progress(val cancelAfterBytes: Long = Long.MAX_VALUE) : InstallProgress {
        val steps = mutableListOf<String>()
        var lastDone = 0L
        var lastTotal = 0L

        @Volatile
        override var isCancelled = false

        override fun step(text: String) {
            steps += text
        }

        override fun bytes(done: Long, total: Long) {
            lastDone = done
            lastTotal = total
            if (done >= cancelAfterBytes) isCancelled = true
        }
    }

    // ---- tests ----

    @Test
    fun `a good archive is downloaded, verified and unpacked into a versioned folder that runs`() {
        val archive = tarGz("good.tar.gz")
        serveArchive("$rootName.tar.gz", archive)
        val progress = Progress()
        val runtime = runtime(sha256(archive))
        assertNull(runtime.installed())

        val node = runtime.install(progress)

        assertEquals(system.resolve("$rootName/bin/node"), node)
        assertEquals(node, runtime.installed())
        // The executable bit survived: the fake node runs and reports the pinned version.
        assertEquals(version.toString(), ProcessVersionProbe().versionOf(node.toString()))
        val npm = system.resolve("$rootName/bin/npm")
        assertTrue(Files.isSymbolicLink(npm))
        assertEquals("console.log('npm')\n", Files.readString(npm))
        assertTrue(Files.readString(system.resolve("$rootName/lib/node_modules/npm/node_modules/" + "a-rather-long-package-name-".repeat(3) + "x/lib/index.js")).contains("exports"))
        assertEquals(archive.size.toLong(), progress.lastDone)
        assertEquals(archive.size.toLong(), progress.lastTotal)
        assertEquals(listOf("Downloading Node.js $version ($rootName.tar.gz)", "Unpacking Node.js $version"), progress.steps)
        // Only the install and the lock are left: no download, no staging folder.
        assertEquals(setOf(rootName, ".install.lock"), Files.list(system).use { s -> s.map { it.fileName.toString() }.toList() }.toSet())
        assertEquals(1, requests.get())
    }

    @Test
    fun `pax archives (long names as extended headers) unpack the same way`() {
        val archive = tarGz("pax.tar.gz", format = "pax")
        serveArchive("$rootName.tar.gz", archive)
        val node = runtime(sha256(archive)).install()
        assertEquals(version.toString(), ProcessVersionProbe().versionOf(node.toString()))
    }

    @Test
    fun `a second project reuses the first install, also while it is still downloading`() {
        val archive = tarGz("good.tar.gz")
        val secondWaiting = CountDownLatch(1)
        serve("/dist/$version/$rootName.tar.gz") { ex ->
            // Hold the first download until the second project has asked too.
            secondWaiting.await(10, TimeUnit.SECONDS)
            ex.sendResponseHeaders(200, archive.size.toLong())
            ex.responseBody.write(archive)
        }
        val sha = sha256(archive)
        val first = pool.submit<Path> { runtime(sha).install() }
        val second = pool.submit<Path> {
            secondWaiting.countDown()
            runtime(sha).install()
        }
        val a = first.get(30, TimeUnit.SECONDS)
        val b = second.get(30, TimeUnit.SECONDS)
        assertEquals(a, b)
        assertEquals(1, requests.get())

        // A later project (a new runtime object, as after an IDE restart) finds it without asking the server.
        val later = runtime(sha)
        assertEquals(a, later.installed())
        assertEquals(a, later.install())
        assertEquals(1, requests.get())
    }

    @Test
    fun `an archive that does not match the pinned checksum is deleted and nothing is installed`() {
        val archive = tarGz("good.tar.gz")
        serveArchive("$rootName.tar.gz", archive)
        val pinned = sha256("something else".toByteArray())
        val e = assertThrows(NodeInstallException::class.java) { runtime(pinned).install() }
        assertTrue(e.message!!.contains("does not match the SHA-256 pinned in the plugin (expected $pinned, got ${sha256(archive)})"), e.message)
        assertTrue(e.message!!.contains("Settings | Tools | Wave Tools"), e.message)
        assertNothingInstalled()
    }

    @Test
    fun `a body cut off before its announced length installs nothing`() {
        val archive = tarGz("good.tar.gz")
        serve("/dist/$version/$rootName.tar.gz") { ex ->
            ex.sendResponseHeaders(200, archive.size.toLong())
            ex.responseBody.write(archive, 0, archive.size / 2)
            ex.responseBody.flush()
            // Closing the exchange now ends the connection half way through the announced body.
        }
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(archive)).install() }
        assertTrue(e.message!!.contains("Nothing was installed"), e.message)
        assertTrue(e.message!!.contains("proxy"), e.message)
        assertNothingInstalled()
    }

    @Test
    fun `a server error names the status and installs nothing`() {
        serve("/dist/$version/$rootName.tar.gz") { ex -> ex.sendResponseHeaders(503, -1) }
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(ByteArray(1))).install() }
        assertTrue(e.message!!.contains("HTTP 503"), e.message)
        assertTrue(e.message!!.contains("$baseUrl/$version/$rootName.tar.gz"), e.message)
        assertNothingInstalled()
    }

    @Test
    fun `cancelling during the download leaves nothing, and a later install succeeds`() {
        val archive = tarGz("big.tar.gz") { dir ->
            val top = nodeTree(dir)
            // Incompressible filler, so the download takes several reads.
            Files.write(top.resolve("lib/filler.bin"), ByteArray(2 shl 20).also { java.util.Random(7).nextBytes(it) })
        }
        val release = CountDownLatch(1)
        val calls = AtomicInteger()
        serve("/dist/$version/$rootName.tar.gz") { ex ->
            ex.sendResponseHeaders(200, archive.size.toLong())
            if (calls.incrementAndGet() == 1) {
                ex.responseBody.write(archive, 0, 64 * 1024)
                ex.responseBody.flush()
                // The rest only comes once the test says so: the client has to stop on its own.
                release.await(20, TimeUnit.SECONDS)
                return@serve
            }
            ex.responseBody.write(archive)
        }
        val sha = sha256(archive)
        assertThrows(InstallCancelledException::class.java) { runtime(sha).install(Progress(cancelAfterBytes = 1)) }
        release.countDown()
        assertNothingInstalled()

        val node = runtime(sha).install()
        assertEquals(version.toString(), ProcessVersionProbe().versionOf(node.toString()))
    }

    @Test
    fun `leftovers of an install that was killed are removed by the next one`() {
        Files.createDirectories(system.resolve(".staging-dead/$rootName/bin"))
        Files.writeString(system.resolve(".download-dead-$rootName.tar.gz"), "half")
        // A folder with the final name but no completion marker was not made by a finished install.
        Files.createDirectories(system.resolve("$rootName/bin"))
        Files.writeString(system.resolve("$rootName/bin/node"), "#!/bin/sh\necho broken\n")
        val archive = tarGz("good.tar.gz")
        serveArchive("$rootName.tar.gz", archive)
        val runtime = runtime(sha256(archive))
        assertNull(runtime.installed())
        val node = runtime.install()
        assertEquals(version.toString(), ProcessVersionProbe().versionOf(node.toString()))
        assertEquals(setOf(rootName, ".install.lock"), Files.list(system).use { s -> s.map { it.fileName.toString() }.toList() }.toSet())
    }

    @Test
    fun `an entry that climbs out with dot-dot is refused and nothing is written outside`() {
        val src = Files.createDirectories(work.resolve("evil-src/inner"))
        nodeTree(src)
        Files.writeString(work.resolve("evil-src/escaped.txt"), "pwned\n")
        val out = work.resolve("evil.tar.gz")
        // -P keeps the leading ../ GNU tar would otherwise strip.
        exec("tar", "-P", "-czf", out.toString(), "-C", src.toString(), rootName, "../escaped.txt")
        val archive = Files.readAllBytes(out)
        serveArchive("$rootName.tar.gz", archive)
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(archive)).install() }
        assertTrue(e.message!!.contains("climbs out of its folder"), e.message)
        assertFalse(Files.exists(system.resolve("escaped.txt")))
        assertFalse(Files.exists(system.parent.resolve("escaped.txt")))
        assertNothingInstalled()
    }

    @Test
    fun `a link pointing out of the folder, and a file written through it, are refused`() {
        val outside = Files.createDirectories(work.resolve("outside"))
        val src = Files.createDirectories(work.resolve("link-src"))
        val top = nodeTree(src)
        val tar = work.resolve("link.tar")
        Files.createSymbolicLink(top.resolve("escape"), outside)
        exec("tar", "-cf", tar.toString(), "-C", src.toString(), rootName)
        // Then the same name as a folder with a file in it, appended: an unpacker that follows the
        // link would write that file into `outside`.
        Files.delete(top.resolve("escape"))
        Files.createDirectories(top.resolve("escape"))
        Files.writeString(top.resolve("escape/pwned"), "pwned\n")
        exec("tar", "-rf", tar.toString(), "-C", src.toString(), "$rootName/escape/pwned")
        exec("gzip", "-k", tar.toString())
        val archive = Files.readAllBytes(work.resolve("link.tar.gz"))
        serveArchive("$rootName.tar.gz", archive)

        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(archive)).install() }
        assertTrue(e.message!!.contains("is a link to $outside, outside the archive's folder"), e.message)
        assertFalse(Files.exists(outside.resolve("pwned")))
        assertNothingInstalled()
    }

    @Test
    fun `relative links that only escape once resolved through another link are refused`() {
        val archive = tarGz("chain.tar.gz") { dir ->
            nodeTree(dir)
            // Each target stays inside by name; b resolves through a (the folder itself) to its parent.
            Files.createSymbolicLink(dir.resolve("a"), Path.of("."))
            Files.createSymbolicLink(dir.resolve("b"), Path.of("a/.."))
        }
        serveArchive("$rootName.tar.gz", archive)
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(archive)).install() }
        assertTrue(e.message!!.contains("outside the archive's folder"), e.message)
        assertNothingInstalled()
    }

    @Test
    fun `Windows zip archives unpack, and a zip entry with dot-dot is refused`() {
        fun zip(entries: Map<String, String>): ByteArray {
            val bytes = java.io.ByteArrayOutputStream()
            ZipOutputStream(bytes).use { z ->
                for ((name, text) in entries) {
                    z.putNextEntry(ZipEntry(name))
                    z.write(text.toByteArray())
                    z.closeEntry()
                }
            }
            return bytes.toByteArray()
        }
        val winRoot = "node-$version-win-x64"
        val good = zip(mapOf("$winRoot/node.exe" to "MZ fake", "$winRoot/node_modules/npm/package.json" to "{}"))
        serveArchive("$winRoot.zip", good)
        val runtime = runtime(sha256(good), platform = "win-x64")
        assertEquals(system.resolve("$winRoot/node.exe"), runtime.install())
        assertEquals("MZ fake", Files.readString(runtime.installed()!!))

        val otherRoot = work.resolve("other-system")
        val evil = zip(mapOf("$winRoot/node.exe" to "MZ", "$winRoot/../../zip-escaped.txt" to "pwned"))
        server.removeContext("/dist/$version/$winRoot.zip")
        serveArchive("$winRoot.zip", evil)
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(evil), platform = "win-x64", root = otherRoot).install() }
        assertTrue(e.message!!.contains("climbs out of its folder"), e.message)
        assertFalse(Files.exists(work.resolve("zip-escaped.txt")))
        assertNothingInstalled(otherRoot)
    }

    @Test
    fun `hard links inside the archive are unpacked as copies, a FIFO is refused`() {
        val linked = tarGz("hardlink.tar.gz") { dir ->
            val top = nodeTree(dir)
            Files.createLink(top.resolve("bin/node-copy"), top.resolve("bin/node"))
        }
        serveArchive("$rootName.tar.gz", linked)
        val node = runtime(sha256(linked)).install()
        assertEquals(version.toString(), ProcessVersionProbe().versionOf(node.parent.resolve("node-copy").toString()))

        val other = work.resolve("other-system")
        val fifo = tarGz("fifo.tar.gz") { dir ->
            val top = nodeTree(dir)
            exec("mkfifo", top.resolve("lib/pipe").toString())
        }
        server.removeContext("/dist/$version/$rootName.tar.gz")
        serveArchive("$rootName.tar.gz", fifo)
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(fifo), root = other).install() }
        assertTrue(e.message!!.contains("is a device file or FIFO"), e.message)
        assertNothingInstalled(other)
    }

    /** A tar stream written by hand, for entries GNU tar will not produce: a hard link and a pax path that leave the folder. */
    private fun handWrittenTar(vararg entries: Triple<String, Char, String>): ByteArray {
        val out = java.io.ByteArrayOutputStream()
        fun header(name: String, type: Char, size: Int, link: String = "") {
            val h = ByteArray(512)
            fun put(text: String, at: Int) = text.toByteArray().copyInto(h, at)
            put(name, 0)
            put("0000644\u0000", 100)
            put("0000000\u0000", 108)
            put("0000000\u0000", 116)
            put(String.format("%011o\u0000", size), 124)
            put("00000000000\u0000", 136)
            h[156] = type.code.toByte()
            put(link, 157)
            put("ustar\u000000", 257)
            for (i in 148 until 156) h[i] = ' '.code.toByte()
            put(String.format("%06o\u0000 ", h.sumOf { it.toInt() and 0xff }), 148)
            out.write(h)
        }
        for ((name, type, content) in entries) {
            val body = content.toByteArray()
            when (type) {
                'x' -> {
                    // content is "key=value": one pax record, then the entry it applies to (a plain file).
                    val record = " $content\n"
                    var length = record.length + 2
                    if ("$length$record".length != length) length++
                    val pax = "$length$record".toByteArray()
                    header("PaxHeader", 'x', pax.size)
                    out.write(pax)
                    out.write(ByteArray((512 - pax.size % 512) % 512))
                    header(name, '0', 5)
                    out.write("pwned".toByteArray())
                    out.write(ByteArray(507))
                }
                '1' -> header(name, '1', 0, content)
                else -> {
                    header(name, type, body.size)
                    out.write(body)
                    out.write(ByteArray((512 - body.size % 512) % 512))
                }
            }
        }
        out.write(ByteArray(1024))
        val gz = java.io.ByteArrayOutputStream()
        java.util.zip.GZIPOutputStream(gz).use { it.write(out.toByteArray()) }
        return gz.toByteArray()
    }

    @Test
    fun `a hard link to a file outside, and a pax path that climbs out, are refused`() {
        val outside = work.resolve("secret.txt")
        Files.writeString(outside, "secret\n")
        val hard = handWrittenTar(
            Triple("$rootName/bin/node", '0', "#!/bin/sh\necho $version\n"),
            Triple("$rootName/lib/stolen", '1', "../../secret.txt"),
        )
        serveArchive("$rootName.tar.gz", hard)
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(hard)).install() }
        assertTrue(e.message!!.contains("climbs out of its folder"), e.message)
        assertNothingInstalled()

        val other = work.resolve("other-system")
        // The ustar name is harmless; the pax record that overrides it is not.
        val pax = handWrittenTar(
            Triple("$rootName/bin/node", '0', "#!/bin/sh\necho $version\n"),
            Triple("$rootName/harmless.txt", 'x', "path=$rootName/../../pax-escaped.txt"),
        )
        server.removeContext("/dist/$version/$rootName.tar.gz")
        serveArchive("$rootName.tar.gz", pax)
        val p = assertThrows(NodeInstallException::class.java) { runtime(sha256(pax), root = other).install() }
        assertTrue(p.message!!.contains("climbs out of its folder"), p.message)
        assertFalse(Files.exists(work.resolve("pax-escaped.txt")))
        assertNothingInstalled(other)
    }

    @Test
    fun `an archive without the node executable is not installed`() {
        val archive = tarGz("empty.tar.gz") { dir -> Files.createDirectories(dir.resolve("$rootName/lib")) }
        serveArchive("$rootName.tar.gz", archive)
        val e = assertThrows(NodeInstallException::class.java) { runtime(sha256(archive)).install() }
        assertTrue(e.message!!.contains("does not contain $rootName/bin/node"), e.message)
        assertNothingInstalled()
    }

    @Test
    fun `every supported machine has a pinned archive`() {
        assertEquals("linux-x64", PinnedNode.forPlatform(OsFamily.LINUX, "amd64")?.platform)
        assertEquals("linux-arm64", PinnedNode.forPlatform(OsFamily.LINUX, "aarch64")?.platform)
        assertEquals("darwin-arm64", PinnedNode.forPlatform(OsFamily.MAC, "aarch64")?.platform)
        assertEquals("darwin-x64", PinnedNode.forPlatform(OsFamily.MAC, "x86_64")?.platform)
        assertEquals("win-x64", PinnedNode.forPlatform(OsFamily.WINDOWS, "amd64")?.platform)
        assertEquals("win-arm64", PinnedNode.forPlatform(OsFamily.WINDOWS, "aarch64")?.platform)
        assertNull(PinnedNode.forPlatform(OsFamily.LINUX, "x86"))
        for (d in PinnedNode.DISTRIBUTIONS) {
            assertTrue(Regex("[0-9a-f]{64}").matches(d.sha256), d.platform)
            assertEquals(22, d.version.major)
        }
        val linux = PinnedNode.forPlatform(OsFamily.LINUX, "amd64")!!
        assertEquals("https://nodejs.org/dist/v22.23.3/node-v22.23.3-linux-x64.tar.gz", linux.url(PinnedNode.BASE_URL))
        assertEquals("https://nodejs.org/dist/v22.23.3/node-v22.23.3-win-arm64.zip", PinnedNode.forPlatform(OsFamily.WINDOWS, "arm64")!!.url(PinnedNode.BASE_URL))
    }
}
