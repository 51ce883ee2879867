package dev.wavetools.wave.ui

import java.io.RandomAccessFile
import java.nio.ByteBuffer
import java.nio.CharBuffer
import java.nio.charset.CodingErrorAction
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.Executors
import java.util.concurrent.ScheduledFuture
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicReference
import javax.swing.SwingUtilities

/**
 * The end of a file that grows (a running command's output, a background task's log): each [poll]
 * reads only what was appended since the last one and keeps at most [maxChars] characters, so a
 * command that prints gigabytes costs a few kilobytes. Bytes are decoded as UTF-8, a character cut
 * by the read is completed by the next one, and a file that shrank (replaced, truncated) is read
 * again from its start. Not thread-safe: one poller owns it.
 */
class FileTail(val path: Path, private val maxChars: Int = 64 * 1024) {
    private var offset = 0L
    private val text = StringBuilder()
    private val decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)
    /** Bytes of a character the last read cut in two. */
    private var pending = ByteArray(0)

    /** Whether output before what [text] holds was left out (the file is longer than the tail). */
    var cutAtStart = false
        private set

    /** Reads what was appended; true when the text changed. A missing file is no change. */
    fun poll(): Boolean {
        if (!Files.isRegularFile(path)) return false
        RandomAccessFile(path.toFile(), "r").use { f ->
            val size = f.length()
            if (size < offset) reset()
            if (size == offset) return false
            // Never more than the tail keeps: a character is at most 4 bytes.
            val start = maxOf(offset, size - maxChars * 4L)
            if (start > offset) {
                cutAtStart = true
                text.setLength(0)
                pending = ByteArray(0)
            }
            val bytes = ByteArray((size - start).toInt())
            f.seek(start)
            f.readFully(bytes)
            offset = size
            var input = pending + bytes
            // Starting inside the file, skip continuation bytes up to the next whole character.
            if (start > 0 && text.isEmpty() && pending.isEmpty()) input = input.dropWhile { it.toInt() and 0xC0 == 0x80 }.toByteArray()
            val keep = incompleteTail(input)
            pending = input.copyOfRange(input.size - keep, input.size)
            val out = CharBuffer.allocate(input.size)
            decoder.reset()
            decoder.decode(ByteBuffer.wrap(input, 0, input.size - keep), out, true)
            decoder.flush(out)
            out.flip()
            text.append(out)
            if (text.length > maxChars) {
                text.delete(0, text.length - maxChars)
                cutAtStart = true
            }
            return true
        }
    }

    private fun reset() {
        offset = 0
        text.setLength(0)
        pending = ByteArray(0)
        cutAtStart = false
    }

    /** How many bytes at the end of [b] start a UTF-8 character that is not complete yet. */
    private fun incompleteTail(b: ByteArray): Int {
        for (back in 1..minOf(3, b.size)) {
            val v = b[b.size - back].toInt() and 0xFF
            if (v and 0xC0 == 0x80) continue
            val length = when {
                v and 0x80 == 0 -> 1
                v and 0xE0 == 0xC0 -> 2
                v and 0xF0 == 0xE0 -> 3
                v and 0xF8 == 0xF0 -> 4
                else -> 1
            }
            return if (length > back) back else 0
        }
        return 0
    }

    val content: String get() = text.toString()
}

/**
 * Follows files for a card or a log view off the UI thread: polls them [INTERVAL_MS] apart on one
 * shared background thread (a few updates a second, however many cards follow files), and hands
 * [onText] the new text on the UI thread — only the latest, never a queue of stale ones. [close]
 * stops it; a card closes it when its command ends.
 */
class LiveTail(
    private val files: List<Path>,
    /** Where the files are read: one shared background thread unless a test gives its own. */
    poller: java.util.concurrent.ScheduledExecutorService = POLLER,
    private val onText: (List<String>, Boolean) -> Unit,
) : AutoCloseable {
    private val tails = files.map { FileTail(it) }
    private val latest = AtomicReference<Pair<List<String>, Boolean>?>(null)
    private val delivering = AtomicBoolean(false)
    @Volatile
    private var closed = false
    private val task: ScheduledFuture<*> = poller.scheduleWithFixedDelay(::poll, 0, INTERVAL_MS, TimeUnit.MILLISECONDS)

    private fun poll() {
        if (closed) return
        val changed = try {
            tails.map { it.poll() }.any { it }
        } catch (e: java.io.IOException) {
            // The command's files went (the call ended and the core tidied up): nothing more to show.
            false
        }
        if (!changed) return
        latest.set(tails.map { it.content } to tails.any { it.cutAtStart })
        if (delivering.compareAndSet(false, true)) SwingUtilities.invokeLater(::deliver)
    }

    private fun deliver() {
        delivering.set(false)
        val (texts, cut) = latest.getAndSet(null) ?: return
        if (!closed) onText(texts, cut)
    }

    override fun close() {
        closed = true
        task.cancel(false)
    }

    companion object {
        const val INTERVAL_MS = 250L

        val POLLER: java.util.concurrent.ScheduledExecutorService = Executors.newSingleThreadScheduledExecutor { r -> Thread(r, "Wave Tools live output").apply { isDaemon = true } }

        /**
         * The last [lines] lines of [text] as a terminal leaves them: a carriage return starts its
         * line again (progress bars), a trailing newline opens no empty line.
         */
        fun lastLines(text: String, lines: Int): Pair<String, Boolean> {
            val all = text.removeSuffix("\n").split('\n').map { line ->
                val l = line.removeSuffix("\r")
                l.substring(l.lastIndexOf('\r') + 1)
            }
            return if (all.size <= lines) all.joinToString("\n") to false else all.takeLast(lines).joinToString("\n") to true
        }
    }
}
