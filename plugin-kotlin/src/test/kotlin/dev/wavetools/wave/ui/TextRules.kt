package dev.wavetools.wave.ui

/**
 * The IntelliJ Platform UI Guidelines' capitalization for buttons, links and actions ("Title
 * Case"): every word starts with a capital letter except articles, coordinating conjunctions and
 * short prepositions, which stay lower case unless they start or end the text. Words that are not
 * words (numbers, `…`, `Ctrl+B`) are left alone.
 */
object TextRules {
    private val minorWords = setOf(
        "a", "an", "the", "and", "but", "for", "nor", "or", "so", "yet", "as", "at", "by", "in", "into", "of", "off",
        "on", "onto", "out", "per", "to", "up", "via", "with", "from", "than",
    )

    /** The words of [text] that break Title Case; empty when it follows it. */
    fun titleCaseViolations(text: String): List<String> {
        val words = text.split(' ', '\u00a0').map { it.trim('…', '.', ',', ':', '(', ')', '"', '\'', '“', '”') }.filter { it.isNotEmpty() }
        return words.filterIndexed { i, word ->
            val first = word.first()
            if (!first.isLetter()) return@filterIndexed false
            val edge = i == 0 || i == words.lastIndex
            if (!edge && word.lowercase() in minorWords) return@filterIndexed word != word.lowercase()
            !first.isUpperCase()
        }
    }

    fun isTitleCase(text: String) = titleCaseViolations(text).isEmpty()
}
