package dev.wavetools.wave.ui

import org.jetbrains.annotations.PropertyKey
import java.text.MessageFormat
import java.util.Locale
import java.util.ResourceBundle

private const val BUNDLE = "messages.WaveBundle"

/**
 * Every text the plugin shows people, from `messages/WaveBundle.properties`, as the IntelliJ
 * Platform Plugin Template keeps them. The template's bundle extends the platform's DynamicBundle;
 * ui/ and bridge/ must run without the platform, so this reads the same file with
 * [ResourceBundle], and plugin.xml names it as the plugin's `<resource-bundle>` (action texts).
 *
 * Placeholders follow the platform's rule: a message is run through [MessageFormat] only when it
 * gets parameters, so a quote in a message with parameters is written twice (`IDE''s`). Numbers are
 * passed as text: an exit code or a pid must never come out as "48,213".
 */
object WaveBundle {
    private val bundle: ResourceBundle by lazy { ResourceBundle.getBundle(BUNDLE, Locale.ROOT, WaveBundle::class.java.classLoader) }

    fun message(@PropertyKey(resourceBundle = BUNDLE) key: String, vararg params: Any): String {
        val text = bundle.getString(key)
        return if (params.isEmpty()) text else MessageFormat(text, Locale.ROOT).format(params.map { if (it is Number) it.toString() else it }.toTypedArray())
    }

    /** Every key, for the tests that check the texts (capitalization, placeholders). */
    fun keys(): Set<String> = bundle.keySet()
}
