package dev.wavetools.wave.bridge

/** A configuration file cannot be edited safely; nothing was changed. The message says why and what to do. */
class ConfigEditException(message: String) : Exception(message)

/** The TOML values the plugin writes. */
sealed class TomlValue {
    abstract fun render(): String

    data class Str(val value: String) : TomlValue() {
        override fun render() = tomlString(value)
    }

    data class Strs(val values: List<String>) : TomlValue() {
        override fun render() = values.joinToString(", ", "[", "]") { tomlString(it) }
    }

    data class Integer(val value: Long) : TomlValue() {
        override fun render() = value.toString()
    }

    data class Bool(val value: Boolean) : TomlValue() {
        override fun render() = value.toString()
    }
}

/** A TOML basic string: quotes, backslashes and control characters escaped. */
fun tomlString(value: String): String = buildString {
    append('"')
    for (c in value) {
        when (c) {
            '"' -> append("\\\"")
            '\\' -> append("\\\\")
            '\n' -> append("\\n")
            '\t' -> append("\\t")
            '\r' -> append("\\r")
            '\b' -> append("\\b")
            '\u000C' -> append("\\f")
            else -> if (c < ' ' || c == '\u007F') append("\\u%04X".format(c.code)) else append(c)
        }
    }
    append('"')
}

/** A character of a bare TOML key: ASCII letters and digits, `_` and `-`. */
private fun isBareKeyChar(c: Char) = c.isLetterOrDigit() && c.code < 128 || c == '_' || c == '-'

private fun tomlKey(key: String): String = if (key.isNotEmpty() && key.all(::isBareKeyChar)) key else tomlString(key)

/**
 * Sets keys of one table in a TOML document, as text: everything else — other tables, comments,
 * formatting, key order — stays as it was. Reads enough TOML (keys, strings of all four kinds,
 * multi-line arrays and inline tables, comments) to find where the table's keys and values are; a
 * document it cannot read, or one that defines the table in a form it does not edit (dotted keys,
 * an inline table, an array of tables), is refused with [ConfigEditException].
 */
object TomlTableEdit {
    fun upsert(text: String?, table: List<String>, entries: List<Pair<String, TomlValue>>, fileLabel: String = "the file"): String {
        val source = text ?: ""
        val newline = if (source.contains("\r\n")) "\r\n" else "\n"
        val statements = TomlScanner(source, fileLabel).scan()
        val tableName = table.joinToString(".") { tomlKey(it) }

        var header: Statement? = null
        for (s in statements) {
            when (s.kind) {
                Kind.ARRAY_HEADER -> if (s.path.startsWith(table) || table.startsWith(s.path)) {
                    throw ConfigEditException("$fileLabel line ${s.line} declares [[${s.path.joinToString(".")}]], an array of tables, where [$tableName] belongs; fix that by hand.")
                }
                Kind.HEADER -> if (s.path == table) {
                    if (header != null) throw ConfigEditException("$fileLabel defines [$tableName] twice (lines ${header.line} and ${s.line}); remove one by hand.")
                    header = s
                }
                Kind.KEYVAL -> {
                    // A value (dotted keys, an inline table) that defines the table or a part of it
                    // from outside a [table] header: a header added next to it would be invalid TOML.
                    val full = s.table + s.path
                    if ((full.startsWith(table) || table.startsWith(full)) && s.table.size < table.size) {
                        throw ConfigEditException("$fileLabel line ${s.line} sets ${full.joinToString(".")} with a dotted key or an inline table; Apply only edits a [$tableName] table. Move it into one by hand, or copy the configuration instead.")
                    }
                }
            }
        }

        if (header == null) {
            val out = StringBuilder(source)
            if (out.isNotEmpty() && !out.endsWith("\n")) out.append(newline)
            if (out.isNotEmpty() && !out.endsWith("$newline$newline") && !out.endsWith("\n\n")) out.append(newline)
            out.append('[').append(tableName).append(']').append(newline)
            for ((k, v) in entries) out.append(tomlKey(k)).append(" = ").append(v.render()).append(newline)
            return out.toString()
        }

        val h = header
        val body = statements.filter { it.kind == Kind.KEYVAL && it.start > h.start && it.table == table }
        val nextHeader = statements.firstOrNull { it.start > h.start && it.kind != Kind.KEYVAL }
        val bodyInTable = body.filter { nextHeader == null || it.start < nextHeader.start }
        val replacements = mutableListOf<Triple<Int, Int, String>>()
        val missing = mutableListOf<Pair<String, TomlValue>>()
        for ((k, v) in entries) {
            val exact = bodyInTable.firstOrNull { it.path == listOf(k) }
            val dotted = bodyInTable.firstOrNull { it.path.size > 1 && it.path[0] == k }
            when {
                exact != null -> replacements += Triple(exact.valueStart, exact.valueEnd, v.render())
                dotted != null -> throw ConfigEditException("$fileLabel line ${dotted.line} sets $k.${dotted.path.drop(1).joinToString(".")} inside [$tableName]; Apply would conflict with it. Edit $k by hand.")
                else -> missing += k to v
            }
        }
        val insertAt = (bodyInTable.lastOrNull() ?: h).lineEnd
        val out = StringBuilder(source)
        if (missing.isNotEmpty()) {
            val lines = StringBuilder()
            if (insertAt == source.length && !source.endsWith("\n")) lines.append(newline)
            for ((k, v) in missing) lines.append(tomlKey(k)).append(" = ").append(v.render()).append(newline)
            replacements += Triple(insertAt, insertAt, lines.toString())
        }
        for ((start, end, replacement) in replacements.sortedByDescending { it.first }) out.replace(start, end, replacement)
        return out.toString()
    }

    private fun List<String>.startsWith(prefix: List<String>) = size >= prefix.size && subList(0, prefix.size) == prefix

    internal enum class Kind { HEADER, ARRAY_HEADER, KEYVAL }

    /** One header or key/value pair: where it starts, where its value is, where its line ends (after the newline). */
    internal data class Statement(
        val kind: Kind,
        val path: List<String>,
        val table: List<String>,
        val line: Int,
        val start: Int,
        val valueStart: Int,
        val valueEnd: Int,
        val lineEnd: Int,
    )

    private class TomlScanner(private val s: String, private val label: String) {
        private var pos = 0
        private var line = 1
        private var table: List<String> = emptyList()
        private val out = mutableListOf<Statement>()

        fun scan(): List<Statement> {
            while (pos < s.length) {
                skipBlanks()
                if (pos >= s.length) break
                val c = s[pos]
                when {
                    c == '\n' -> newline()
                    c == '\r' && peek(1) == '\n' -> { pos++; newline() }
                    c == '#' -> skipComment()
                    c == '[' -> header()
                    else -> keyValue()
                }
            }
            return out
        }

        private fun fail(what: String): Nothing = throw ConfigEditException("$label line $line: $what. It is not TOML this can edit safely; the file was not changed — fix it, or add the configuration by hand.")

        private fun peek(offset: Int = 0): Char? = s.getOrNull(pos + offset)

        private fun newline() {
            pos++
            line++
        }

        private fun skipBlanks() {
            while (pos < s.length && (s[pos] == ' ' || s[pos] == '\t')) pos++
        }

        private fun skipComment() {
            while (pos < s.length && s[pos] != '\n') pos++
        }

        /** After a statement: only blanks and a comment may follow on its line. Returns the offset after the newline. */
        private fun endOfLine(): Int {
            skipBlanks()
            if (peek() == '#') skipComment()
            if (peek() == '\r' && peek(1) == '\n') pos++
            when (peek()) {
                null -> return pos
                '\n' -> {
                    newline()
                    return pos
                }
                else -> fail("unexpected '${peek()}' after a value")
            }
        }

        private fun header() {
            val start = pos
            val startLine = line
            val array = peek(1) == '['
            pos += if (array) 2 else 1
            val path = key()
            skipBlanks()
            if (peek() != ']' || (array && peek(1) != ']')) fail("a table header is not closed")
            pos += if (array) 2 else 1
            val end = pos
            val lineEnd = endOfLine()
            table = path
            out += Statement(if (array) Kind.ARRAY_HEADER else Kind.HEADER, path, path, startLine, start, end, end, lineEnd)
        }

        private fun keyValue() {
            val start = pos
            val startLine = line
            val path = key()
            skipBlanks()
            if (peek() != '=') fail("expected '=' after the key ${path.joinToString(".")}")
            pos++
            skipBlanks()
            val valueStart = pos
            value()
            val valueEnd = pos
            val lineEnd = endOfLine()
            out += Statement(Kind.KEYVAL, path, table, startLine, start, valueStart, valueEnd, lineEnd)
        }

        private fun key(): List<String> {
            val parts = mutableListOf<String>()
            while (true) {
                skipBlanks()
                parts += when (peek()) {
                    '"' -> basicString(multiline = false)
                    '\'' -> literalString(multiline = false)
                    else -> {
                        val from = pos
                        while (pos < s.length && isBareKeyChar(s[pos])) pos++
                        if (pos == from) fail("expected a key")
                        s.substring(from, pos)
                    }
                }
                skipBlanks()
                if (peek() != '.') return parts
                pos++
            }
        }

        private fun value() {
            when {
                s.startsWith("\"\"\"", pos) -> basicString(multiline = true)
                s.startsWith("'''", pos) -> literalString(multiline = true)
                peek() == '"' -> basicString(multiline = false)
                peek() == '\'' -> literalString(multiline = false)
                peek() == '[' -> container('[', ']')
                peek() == '{' -> container('{', '}')
                else -> {
                    // A number, boolean or date-time: one word, except the space a date-time may have
                    // between its date and its time.
                    val from = pos
                    scalarWord()
                    if (pos == from) fail("a key has no value")
                    if (Regex("""\d{4}-\d{2}-\d{2}""").matches(s.substring(from, pos)) && peek() == ' ' && s.getOrNull(pos + 1)?.isDigit() == true) {
                        pos++
                        scalarWord()
                    }
                }
            }
        }

        private fun scalarWord() {
            while (pos < s.length && s[pos] !in " \t\r\n#,]}") pos++
        }

        /** An array or inline table, possibly over several lines, with strings, comments and nesting inside. */
        private fun container(open: Char, close: Char) {
            val startLine = line
            pos++
            while (true) {
                skipBlanks()
                val c = peek() ?: throw ConfigEditException("$label line $startLine: '$open' is never closed; the file was not changed.")
                when {
                    c == close -> {
                        pos++
                        return
                    }
                    c == '\n' -> newline()
                    c == '\r' || c == ',' || c == '=' -> pos++
                    c == '#' -> skipComment()
                    open == '{' && c != '"' && c != '\'' && c != '[' && c != '{' && isBareKeyChar(c) && looksLikeKey() -> {
                        key()
                        skipBlanks()
                        if (peek() != '=') fail("expected '=' in an inline table")
                        pos++
                    }
                    else -> value()
                }
            }
        }


        /** Inside `{…}`: a bare word followed by `=` or `.` is a key, not a value such as `true` or `1`. */
        private fun looksLikeKey(): Boolean {
            var i = pos
            while (i < s.length && isBareKeyChar(s[i])) i++
            while (i < s.length && (s[i] == ' ' || s[i] == '\t')) i++
            return i < s.length && (s[i] == '=' || s[i] == '.')
        }

        private fun unclosedString(startLine: Int): Nothing = throw ConfigEditException("$label line $startLine: a string is never closed; the file was not changed.")

        /** At a multi-line string's closing delimiter: consumes it and the up to two quotes before it that belong to the text; returns how many those are. */
        private fun closeMultiline(quote: Char): Int {
            var quotes = 0
            while (peek() == quote && quotes < 5) {
                pos++
                quotes++
            }
            return quotes - 3
        }

        private fun basicString(multiline: Boolean): String {
            val startLine = line
            val sb = StringBuilder()
            pos += if (multiline) 3 else 1
            while (true) {
                val c = peek() ?: unclosedString(startLine)
                if (multiline && s.startsWith("\"\"\"", pos)) {
                    repeat(closeMultiline('"')) { sb.append('"') }
                    return sb.toString()
                }
                if (!multiline && c == '"') {
                    pos++
                    return sb.toString()
                }
                if (c == '\n') {
                    if (!multiline) fail("a string runs past the end of its line")
                    newline()
                    sb.append('\n')
                    continue
                }
                if (c == '\\') {
                    val e = peek(1) ?: fail("a string ends in a backslash")
                    pos += 2
                    when (e) {
                        'n' -> sb.append('\n')
                        't' -> sb.append('\t')
                        'r' -> sb.append('\r')
                        'b' -> sb.append('\b')
                        'f' -> sb.append('\u000C')
                        '"' -> sb.append('"')
                        '\\' -> sb.append('\\')
                        'u', 'U' -> {
                            val digits = if (e == 'u') 4 else 8
                            val hex = s.substring(pos, minOf(s.length, pos + digits))
                            val code = hex.toIntOrNull(16) ?: fail("a \\$e escape is not followed by $digits hex digits")
                            sb.appendCodePoint(code)
                            pos += digits
                        }
                        '\n', ' ', '\t', '\r' -> {
                            if (!multiline) fail("a backslash ends a line inside a single-line string")
                            // A line-ending backslash trims the whitespace and newlines that follow.
                            pos--
                            while (pos < s.length && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r' || s[pos] == '\n')) {
                                if (s[pos] == '\n') line++
                                pos++
                            }
                        }
                        else -> fail("unknown escape \\$e in a string")
                    }
                    continue
                }
                sb.append(c)
                pos++
            }
        }

        private fun literalString(multiline: Boolean): String {
            val startLine = line
            pos += if (multiline) 3 else 1
            val from = pos
            while (true) {
                val c = peek() ?: unclosedString(startLine)
                if (multiline && s.startsWith("'''", pos)) {
                    closeMultiline('\'')
                    return s.substring(from, pos - 3)
                }
                if (!multiline && c == '\'') {
                    pos++
                    return s.substring(from, pos - 1)
                }
                if (c == '\n') {
                    if (!multiline) fail("a string runs past the end of its line")
                    line++
                }
                pos++
            }
        }
    }
}
