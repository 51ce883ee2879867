package dev.wavetools.wave.bridge

import java.io.BufferedInputStream
import java.io.EOFException
import java.io.IOException
import java.io.InputStream
import java.nio.charset.StandardCharsets
import java.nio.file.FileSystems
import java.nio.file.Files
import java.nio.file.LinkOption
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.nio.file.attribute.PosixFilePermission
import java.util.zip.GZIPInputStream
import java.util.zip.ZipInputStream

/** An archive entry that would write outside the folder it is unpacked into, or a kind of file no runtime needs. */
class UnsafeArchiveException(message: String) : IOException(message)

/**
 * Unpacks `.tar.gz` and `.zip` archives into a folder and never anywhere else: entry names that are
 * absolute or climb with `..`, symbolic links whose target leaves the folder, writes through a link,
 * hard links to outside, device files and FIFOs are refused, and the whole unpack fails on the first
 * one (the caller throws the folder away). Unix modes from tar headers are kept, so executables stay
 * executable. The JDK reads gzip and zip itself; the tar reader here covers ustar, GNU long names and
 * pax path/size records, which is what release archives (Node.js's among them) use.
 */
object SafeArchive {
    private val posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")

    /** Unpacks [archive], chosen by its file name (`.tar.gz`/`.tgz` or `.zip`), into the empty folder [into]. */
    fun unpack(archive: Path, into: Path, cancelled: () -> Boolean = { false }) {
        val name = archive.fileName.toString().lowercase()
        Files.newInputStream(archive).use { raw ->
            val input = BufferedInputStream(raw, 1 shl 16)
            when {
                name.endsWith(".tar.gz") || name.endsWith(".tgz") -> unpackTar(GZIPInputStream(input, 1 shl 16), into, cancelled)
                name.endsWith(".zip") -> unpackZip(input, into, cancelled)
                else -> throw IOException("$name is neither a .tar.gz nor a .zip archive")
            }
        }
    }

    fun unpackZip(input: InputStream, into: Path, cancelled: () -> Boolean = { false }) {
        val root = into.toRealPath()
        ZipInputStream(input).use { zip ->
            while (true) {
                val entry = zip.nextEntry ?: break
                checkCancelled(cancelled)
                if (entry.isDirectory && isRootEntry(entry.name)) continue
                val target = resolveInside(root, entry.name)
                if (entry.isDirectory) {
                    createDirectories(root, target)
                } else {
                    createDirectories(root, target.parent)
                    writeFile(root, target, zip, cancelled)
                }
            }
        }
    }

    fun unpackTar(input: InputStream, into: Path, cancelled: () -> Boolean = { false }) {
        val root = into.toRealPath()
        val tar = TarReader(input)
        val links = mutableListOf<Path>()
        while (true) {
            checkCancelled(cancelled)
            val entry = tar.next() ?: break
            // `./`, the folder itself, as `tar -C dir .` writes it first.
            if (entry.type == TarEntry.Type.DIRECTORY && isRootEntry(entry.name)) continue
            val target = resolveInside(root, entry.name)
            when (entry.type) {
                TarEntry.Type.DIRECTORY -> {
                    createDirectories(root, target)
                    applyMode(target, entry.mode)
                }
                TarEntry.Type.FILE -> {
                    createDirectories(root, target.parent)
                    writeFile(root, target, tar.body(), cancelled)
                    applyMode(target, entry.mode)
                }
                TarEntry.Type.SYMLINK -> {
                    createDirectories(root, target.parent)
                    val linkTarget = entry.linkName
                    if (linkTarget.isEmpty() || linkTarget.startsWith("/") || linkTarget.contains('\\') || Regex("^[A-Za-z]:").containsMatchIn(linkTarget)) {
                        throw UnsafeArchiveException("${entry.name} is a link to ${linkTarget.ifEmpty { "nothing" }}, outside the archive's folder")
                    }
                    val resolved = target.parent.resolve(linkTarget).normalize()
                    if (!resolved.startsWith(root)) throw UnsafeArchiveException("${entry.name} is a link to $linkTarget, outside the archive's folder")
                    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) throw UnsafeArchiveException("${entry.name} appears twice in the archive")
                    Files.createSymbolicLink(target, Path.of(linkTarget))
                    links.add(target)
                }
                TarEntry.Type.HARDLINK -> {
                    val source = resolveInside(root, entry.linkName)
                    if (!Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
                        throw UnsafeArchiveException("${entry.name} is a hard link to ${entry.linkName}, which is not a file unpacked before it")
                    }
                    createDirectories(root, target.parent)
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES)
                }
                TarEntry.Type.OTHER -> throw UnsafeArchiveException("${entry.name} is a device file or FIFO (tar type '${entry.typeFlag}'), which no runtime needs")
            }
        }
        // Each target was checked by name; links through other links (`a -> .`, `b -> a/..`) can still
        // leave the folder once resolved, so every link is resolved for real now that all are in place.
        for (link in links) {
            // A dangling link is refused too: where it points once something exists there cannot be checked now.
            val real = try {
                link.toRealPath()
            } catch (e: IOException) {
                throw UnsafeArchiveException("${root.relativize(link)} is a link to ${Files.readSymbolicLink(link)}, which is not in the archive")
            }
            if (!real.startsWith(root)) throw UnsafeArchiveException("${root.relativize(link)} resolves to $real, outside the archive's folder")
        }
    }

    private fun isRootEntry(name: String): Boolean = name.replace('\\', '/').split('/').all { it.isEmpty() || it == "." }

    /**
     * The path [name] names inside [root]; refuses absolute names, `..` that climbs out, and names
     * whose parent folders already exist in [root] as symbolic links (a write would go through them).
     */
    internal fun resolveInside(root: Path, name: String): Path {
        val clean = name.replace('\\', '/')
        if (clean.isEmpty() || clean.startsWith("/") || Regex("^[A-Za-z]:").containsMatchIn(clean)) {
            throw UnsafeArchiveException("the archive entry \"$name\" has an absolute path")
        }
        val parts = clean.split('/').filter { it.isNotEmpty() && it != "." }
        if (parts.isEmpty()) throw UnsafeArchiveException("the archive entry \"$name\" has no name")
        if (parts.any { it == ".." }) throw UnsafeArchiveException("the archive entry \"$name\" climbs out of its folder with ..")
        var current = root
        for ((i, part) in parts.withIndex()) {
            current = current.resolve(part)
            if (i < parts.size - 1 && Files.isSymbolicLink(current)) {
                throw UnsafeArchiveException("the archive entry \"$name\" would be written through the link ${root.relativize(current)}")
            }
        }
        if (!current.normalize().startsWith(root)) throw UnsafeArchiveException("the archive entry \"$name\" is outside its folder")
        return current
    }

    private fun createDirectories(root: Path, dir: Path) {
        if (dir == root) return
        if (Files.isSymbolicLink(dir)) throw UnsafeArchiveException("${root.relativize(dir)} is a link, not a folder")
        Files.createDirectories(dir)
    }

    private fun writeFile(root: Path, target: Path, body: InputStream, cancelled: () -> Boolean) {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) throw UnsafeArchiveException("${root.relativize(target)} would replace a link or folder")
            Files.delete(target)
        }
        Files.newOutputStream(target).use { out ->
            val buffer = ByteArray(1 shl 16)
            while (true) {
                val n = body.read(buffer)
                if (n < 0) break
                out.write(buffer, 0, n)
                checkCancelled(cancelled)
            }
        }
    }

    private fun applyMode(target: Path, mode: Int) {
        if (!posix || mode <= 0) return
        val perms = mutableSetOf<PosixFilePermission>()
        val bits = listOf(
            0b100_000_000 to PosixFilePermission.OWNER_READ, 0b010_000_000 to PosixFilePermission.OWNER_WRITE, 0b001_000_000 to PosixFilePermission.OWNER_EXECUTE,
            0b000_100_000 to PosixFilePermission.GROUP_READ, 0b000_010_000 to PosixFilePermission.GROUP_WRITE, 0b000_001_000 to PosixFilePermission.GROUP_EXECUTE,
            0b000_000_100 to PosixFilePermission.OTHERS_READ, 0b000_000_010 to PosixFilePermission.OTHERS_WRITE, 0b000_000_001 to PosixFilePermission.OTHERS_EXECUTE,
        )
        for ((bit, perm) in bits) if (mode and bit != 0) perms += perm
        // The owner always keeps read and write: a runtime folder the IDE cannot clean up is worse than a lax mode.
        perms += PosixFilePermission.OWNER_READ
        perms += PosixFilePermission.OWNER_WRITE
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) perms += PosixFilePermission.OWNER_EXECUTE
        Files.setPosixFilePermissions(target, perms)
    }

    private fun checkCancelled(cancelled: () -> Boolean) {
        if (cancelled()) throw InstallCancelledException()
    }
}

/** The user (or the IDE) cancelled; nothing was installed. */
class InstallCancelledException : IOException("cancelled")

internal class TarEntry(val name: String, val type: Type, val typeFlag: Char, val mode: Int, val size: Long, val linkName: String) {
    enum class Type { FILE, DIRECTORY, SYMLINK, HARDLINK, OTHER }
}

/** Reads a tar stream entry by entry; [body] is the current entry's content, valid until the next [next]. */
internal class TarReader(private val input: InputStream) {
    private var remaining = 0L
    private var padding = 0L

    fun next(): TarEntry? {
        skipBody()
        var longName: String? = null
        var longLink: String? = null
        var paxPath: String? = null
        var paxLink: String? = null
        var paxSize: Long? = null
        while (true) {
            val header = readBlock() ?: return null
            if (header.all { it == 0.toByte() }) return null
            verifyChecksum(header)
            val typeFlag = (header[156].toInt() and 0xff).toChar()
            val size = paxSize ?: parseNumber(header, 124, 12)
            when (typeFlag) {
                'L', 'K', 'x', 'g' -> {
                    if (size > MAX_META_SIZE) throw IOException("a tar metadata record of $size bytes is too large")
                    val data = readFully(size.toInt())
                    skipPadding(size)
                    when (typeFlag) {
                        'L' -> longName = cString(data)
                        'K' -> longLink = cString(data)
                        'x' -> parsePax(data).let { pax ->
                            pax["path"]?.let { paxPath = it }
                            pax["linkpath"]?.let { paxLink = it }
                            pax["size"]?.let { paxSize = it.toLongOrNull() ?: throw IOException("a tar pax size is not a number: $it") }
                        }
                    }
                    continue
                }
            }
            val name = paxPath ?: longName ?: run {
                val base = field(header, 0, 100)
                val prefix = if (String(header, 257, 5, StandardCharsets.US_ASCII) == "ustar") field(header, 345, 155) else ""
                if (prefix.isEmpty()) base else "$prefix/$base"
            }
            val link = paxLink ?: longLink ?: field(header, 157, 100)
            val mode = parseNumber(header, 100, 8).toInt()
            val type = when (typeFlag) {
                '0', '\u0000', '7' -> if (name.endsWith("/")) TarEntry.Type.DIRECTORY else TarEntry.Type.FILE
                '5' -> TarEntry.Type.DIRECTORY
                '2' -> TarEntry.Type.SYMLINK
                '1' -> TarEntry.Type.HARDLINK
                else -> TarEntry.Type.OTHER
            }
            val bodySize = if (type == TarEntry.Type.FILE) size else if (type == TarEntry.Type.OTHER) size else 0L
            remaining = bodySize
            padding = (512 - bodySize % 512) % 512
            return TarEntry(name, type, typeFlag, mode, size, link)
        }
    }

    /** The current entry's content; ends at the entry's size, and a stream that ends early is an error. */
    fun body(): InputStream = object : InputStream() {
        override fun read(): Int {
            val one = ByteArray(1)
            return if (read(one, 0, 1) < 0) -1 else one[0].toInt() and 0xff
        }

        override fun read(b: ByteArray, off: Int, len: Int): Int {
            if (remaining <= 0) return -1
            val n = input.read(b, off, minOf(len.toLong(), remaining).toInt())
            if (n < 0) throw EOFException("the archive ends in the middle of a file")
            remaining -= n
            return n
        }
    }

    private fun skipBody() {
        while (remaining > 0) {
            val skipped = input.skip(remaining)
            if (skipped <= 0) {
                if (input.read() < 0) throw EOFException("the archive ends in the middle of a file")
                remaining--
            } else {
                remaining -= skipped
            }
        }
        skipExactly(padding)
        padding = 0
    }

    private fun skipPadding(size: Long) = skipExactly((512 - size % 512) % 512)

    private fun skipExactly(count: Long) {
        var left = count
        while (left > 0) {
            if (input.read() < 0) throw EOFException("the archive ends early")
            left--
        }
    }

    private fun readBlock(): ByteArray? {
        val block = ByteArray(512)
        var off = 0
        while (off < 512) {
            val n = input.read(block, off, 512 - off)
            if (n < 0) {
                if (off == 0) return null
                throw EOFException("the archive ends in the middle of a header")
            }
            off += n
        }
        return block
    }

    private fun readFully(size: Int): ByteArray {
        val data = ByteArray(size)
        var off = 0
        while (off < size) {
            val n = input.read(data, off, size - off)
            if (n < 0) throw EOFException("the archive ends in the middle of a record")
            off += n
        }
        return data
    }

    private fun verifyChecksum(header: ByteArray) {
        val stored = parseNumber(header, 148, 8)
        var sum = 0L
        for (i in 0 until 512) sum += if (i in 148 until 156) 32 else header[i].toInt() and 0xff
        if (sum != stored) throw IOException("the archive is damaged (a tar header checksum does not match)")
    }

    private fun field(header: ByteArray, offset: Int, length: Int): String {
        var end = offset
        while (end < offset + length && header[end] != 0.toByte()) end++
        return String(header, offset, end - offset, StandardCharsets.UTF_8)
    }

    private fun cString(data: ByteArray): String {
        val end = data.indexOf(0.toByte()).let { if (it < 0) data.size else it }
        return String(data, 0, end, StandardCharsets.UTF_8)
    }

    /** Octal, or GNU base-256 when the first byte has its high bit set. */
    private fun parseNumber(header: ByteArray, offset: Int, length: Int): Long {
        if (header[offset].toInt() and 0x80 != 0) {
            var value = 0L
            for (i in offset + 1 until offset + length) value = (value shl 8) or (header[i].toLong() and 0xff)
            return value
        }
        val text = String(header, offset, length, StandardCharsets.US_ASCII).trim { it == ' ' || it == '\u0000' }
        if (text.isEmpty()) return 0
        return text.toLongOrNull(8) ?: throw IOException("the archive is damaged (a tar header number is \"$text\")")
    }

    /** `<length> <key>=<value>\n` records. */
    private fun parsePax(data: ByteArray): Map<String, String> {
        val out = HashMap<String, String>()
        var pos = 0
        while (pos < data.size) {
            val space = (pos until data.size).firstOrNull { data[it] == ' '.code.toByte() } ?: break
            val length = String(data, pos, space - pos, StandardCharsets.US_ASCII).toIntOrNull() ?: break
            if (length <= 0 || pos + length > data.size) break
            val record = String(data, space + 1, pos + length - space - 2, StandardCharsets.UTF_8)
            val eq = record.indexOf('=')
            if (eq > 0) out[record.substring(0, eq)] = record.substring(eq + 1)
            pos += length
        }
        return out
    }

    companion object {
        private const val MAX_META_SIZE = 1L shl 20
    }
}
