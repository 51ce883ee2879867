package dev.wavetools.wave.ui

import java.awt.BasicStroke
import java.awt.Color
import java.awt.Component
import java.awt.Graphics
import java.awt.Graphics2D
import java.awt.RenderingHints
import java.awt.Shape
import java.awt.geom.Ellipse2D
import java.awt.geom.Line2D
import java.awt.geom.Path2D
import java.awt.geom.Rectangle2D
import java.awt.geom.RoundRectangle2D
import javax.swing.Icon
import javax.xml.parsers.DocumentBuilderFactory
import org.w3c.dom.Element

/**
 * An icon the plugin ships (`src/main/resources/icons/<name>.svg`, `<name>_dark.svg` for dark
 * themes), drawn from the file itself — in the IDE (ide/IdeTheme, the Move to Background action)
 * as in the screenshots, which therefore show exactly what the IDE shows. Sized by the theme's UI
 * scale; the platform's HiDPI scaling of the Graphics keeps the vectors sharp.
 */
class ShippedIcon(val name: String) : Icon {
    private val light by lazy { SvgDrawing.load("/icons/$name.svg") }
    private val dark by lazy { SvgDrawing.load("/icons/${name}_dark.svg") }

    private fun drawing() = if (WaveTheme.current.isDark) dark else light

    override fun getIconWidth() = WaveTheme.current.px(drawing().width.toInt())
    override fun getIconHeight() = WaveTheme.current.px(drawing().height.toInt())

    override fun paintIcon(c: Component?, g: Graphics, x: Int, y: Int) {
        val g2 = g.create() as Graphics2D
        g2.translate(x, y)
        g2.scale(WaveTheme.current.scale.toDouble(), WaveTheme.current.scale.toDouble())
        drawing().paint(g2)
        g2.dispose()
    }
}

/**
 * The small part of SVG our icons use, drawn with Java2D: `svg` with a `viewBox`, `g`, `path`
 * (M L H V C S Q T Z, absolute and relative), `rect` (with `rx`), `circle`, `line`; fill, stroke,
 * stroke-width, stroke-linecap, stroke-linejoin, fill-rule and the opacities. Anything else is an
 * error naming it, so an icon never silently draws less than the IDE would.
 */
class SvgDrawing private constructor(val width: Double, val height: Double, private val parts: List<Part>) {
    private class Part(val shape: Shape, val fill: Color?, val stroke: Color?, val stroke2d: BasicStroke)

    fun paint(g: Graphics2D) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE)
        for (p in parts) {
            p.fill?.let { g.color = it; g.fill(p.shape) }
            p.stroke?.let { g.color = it; g.stroke = p.stroke2d; g.draw(p.shape) }
        }
    }

    companion object {
        private val ELEMENTS = setOf("svg", "g", "path", "rect", "circle", "line")
        private val ATTRIBUTES = setOf(
            "xmlns", "width", "height", "viewBox", "d", "x", "y", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2",
            "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "fill-rule", "clip-rule", "opacity", "fill-opacity", "stroke-opacity",
        )

        fun load(resource: String): SvgDrawing {
            val stream = SvgDrawing::class.java.getResourceAsStream(resource) ?: error("the plugin ships no $resource")
            return stream.use { parse(it, resource) }
        }

        fun parse(input: java.io.InputStream, name: String): SvgDrawing {
            val factory = DocumentBuilderFactory.newInstance().apply {
                isNamespaceAware = false
                setFeature("http://apache.org/xml/features/disallow-doctype-decl", true)
            }
            val root = factory.newDocumentBuilder().parse(input).documentElement
            require(root.tagName == "svg") { "$name: the root element is ${root.tagName}, not svg" }
            val box = root.getAttribute("viewBox").trim().split(Regex("[\\s,]+")).map { it.toDouble() }
            require(box.size == 4 && box[0] == 0.0 && box[1] == 0.0) { "$name: the viewBox must be \"0 0 w h\"" }
            val parts = mutableListOf<Part>()
            walk(root, Style(), parts, name)
            return SvgDrawing(box[2], box[3], parts)
        }

        private data class Style(
            val fill: String? = "black", val stroke: String? = null, val width: Float = 1f, val cap: Int = BasicStroke.CAP_BUTT,
            val join: Int = BasicStroke.JOIN_MITER, val evenOdd: Boolean = false, val opacity: Float = 1f, val fillOpacity: Float = 1f, val strokeOpacity: Float = 1f,
        )

        private fun walk(e: Element, inherited: Style, out: MutableList<Part>, name: String) {
            require(e.tagName in ELEMENTS) { "$name: <${e.tagName}> is not drawn outside the IDE (supported: $ELEMENTS)" }
            val attrs = e.attributes
            for (i in 0 until attrs.length) {
                val a = attrs.item(i).nodeName
                require(a in ATTRIBUTES) { "$name: the attribute $a of <${e.tagName}> is not drawn outside the IDE" }
            }
            fun attr(n: String) = e.getAttribute(n).takeIf { it.isNotEmpty() }
            fun num(n: String, default: Double = 0.0) = attr(n)?.toDouble() ?: default
            val style = inherited.copy(
                fill = attr("fill") ?: inherited.fill,
                stroke = attr("stroke") ?: inherited.stroke,
                width = attr("stroke-width")?.toFloat() ?: inherited.width,
                cap = when (attr("stroke-linecap")) { "round" -> BasicStroke.CAP_ROUND; "square" -> BasicStroke.CAP_SQUARE; null -> inherited.cap; else -> BasicStroke.CAP_BUTT },
                join = when (attr("stroke-linejoin")) { "round" -> BasicStroke.JOIN_ROUND; "bevel" -> BasicStroke.JOIN_BEVEL; null -> inherited.join; else -> BasicStroke.JOIN_MITER },
                evenOdd = attr("fill-rule")?.let { it == "evenodd" } ?: inherited.evenOdd,
                opacity = inherited.opacity * (attr("opacity")?.toFloat() ?: 1f),
                fillOpacity = attr("fill-opacity")?.toFloat() ?: inherited.fillOpacity,
                strokeOpacity = attr("stroke-opacity")?.toFloat() ?: inherited.strokeOpacity,
            )
            val shape: Shape? = when (e.tagName) {
                "path" -> PathData.parse(attr("d") ?: "", name).apply { windingRule = if (style.evenOdd) Path2D.WIND_EVEN_ODD else Path2D.WIND_NON_ZERO }
                "rect" -> {
                    val rx = attr("rx")?.toDouble() ?: attr("ry")?.toDouble() ?: 0.0
                    if (rx > 0) RoundRectangle2D.Double(num("x"), num("y"), num("width"), num("height"), rx * 2, (attr("ry")?.toDouble() ?: rx) * 2)
                    else Rectangle2D.Double(num("x"), num("y"), num("width"), num("height"))
                }
                "circle" -> num("r").let { r -> Ellipse2D.Double(num("cx") - r, num("cy") - r, 2 * r, 2 * r) }
                "line" -> Line2D.Double(num("x1"), num("y1"), num("x2"), num("y2"))
                else -> null
            }
            if (shape != null) {
                out += Part(
                    shape,
                    color(style.fill, style.opacity * style.fillOpacity, name).takeIf { e.tagName != "line" },
                    color(style.stroke, style.opacity * style.strokeOpacity, name),
                    BasicStroke(style.width, style.cap, style.join),
                )
            }
            var child = e.firstChild
            while (child != null) {
                if (child is Element) walk(child, style, out, name)
                child = child.nextSibling
            }
        }

        private fun color(value: String?, alpha: Float, name: String): Color? {
            if (value == null || value == "none") return null
            val hex = Regex("^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$").find(value)?.groupValues?.get(1)
                ?: if (value == "black") "000000" else if (value == "white") "ffffff" else error("$name: the colour $value is not drawn outside the IDE (use #rrggbb)")
            val rgb = if (hex.length == 3) hex.map { "$it$it" }.joinToString("") else hex
            val c = Color(rgb.toInt(16))
            return Color(c.red, c.green, c.blue, (alpha.coerceIn(0f, 1f) * 255).toInt())
        }
    }
}

/** SVG path data without arcs: what icon editors write for lines and curves. */
object PathData {
    private val TOKEN = Regex("""[MmLlHhVvCcSsQqTtZzAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?""")

    fun parse(d: String, name: String = "path"): Path2D.Double {
        val tokens = TOKEN.findAll(d).map { it.value }.toList()
        val p = Path2D.Double()
        var i = 0
        var cmd = ' '
        var x = 0.0
        var y = 0.0
        var startX = 0.0
        var startY = 0.0
        var lastCtrlX = 0.0
        var lastCtrlY = 0.0
        var lastWasCubic = false
        var lastWasQuad = false
        fun number(): Double = tokens.getOrNull(i++)?.toDoubleOrNull() ?: error("$name: path data ends early or has a stray letter: $d")
        while (i < tokens.size) {
            val t = tokens[i]
            if (t[0].isLetter()) {
                cmd = t[0]
                i++
                require(cmd != 'A' && cmd != 'a') { "$name: arcs (A) are not drawn outside the IDE; use curves (C) or a circle/rect element" }
                if (cmd == 'Z' || cmd == 'z') {
                    p.closePath(); x = startX; y = startY; lastWasCubic = false; lastWasQuad = false
                    continue
                }
            } else if (cmd == ' ') error("$name: path data must start with a command: $d")
            val rel = cmd.isLowerCase()
            val ox = if (rel) x else 0.0
            val oy = if (rel) y else 0.0
            var cubic = false
            var quad = false
            when (cmd.uppercaseChar()) {
                'M' -> {
                    x = ox + number(); y = oy + number(); p.moveTo(x, y); startX = x; startY = y
                    // Further pairs after a move are lines.
                    cmd = if (rel) 'l' else 'L'
                }
                'L' -> { x = ox + number(); y = oy + number(); p.lineTo(x, y) }
                'H' -> { x = ox + number(); p.lineTo(x, y) }
                'V' -> { y = oy + number(); p.lineTo(x, y) }
                'C' -> {
                    val x1 = ox + number(); val y1 = oy + number(); val x2 = ox + number(); val y2 = oy + number()
                    x = ox + number(); y = oy + number()
                    p.curveTo(x1, y1, x2, y2, x, y); lastCtrlX = x2; lastCtrlY = y2; cubic = true
                }
                'S' -> {
                    val x1 = if (lastWasCubic) 2 * x - lastCtrlX else x
                    val y1 = if (lastWasCubic) 2 * y - lastCtrlY else y
                    val x2 = ox + number(); val y2 = oy + number()
                    x = ox + number(); y = oy + number()
                    p.curveTo(x1, y1, x2, y2, x, y); lastCtrlX = x2; lastCtrlY = y2; cubic = true
                }
                'Q' -> {
                    val x1 = ox + number(); val y1 = oy + number()
                    x = ox + number(); y = oy + number()
                    p.quadTo(x1, y1, x, y); lastCtrlX = x1; lastCtrlY = y1; quad = true
                }
                'T' -> {
                    val x1 = if (lastWasQuad) 2 * x - lastCtrlX else x
                    val y1 = if (lastWasQuad) 2 * y - lastCtrlY else y
                    x = ox + number(); y = oy + number()
                    p.quadTo(x1, y1, x, y); lastCtrlX = x1; lastCtrlY = y1; quad = true
                }
                else -> error("$name: unknown path command $cmd")
            }
            lastWasCubic = cubic
            lastWasQuad = quad
        }
        return p
    }
}
