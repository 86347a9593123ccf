import TrellisJSON
import TrellisText

/// Writes the laid-out texts as they come: the font's metrics, then per text its layout (or one per width) and
/// its content widths when asked for; a layout is its lines, height, width, lineCount, truncated, and the
/// ellipsis when drawn.
enum TextLayoutResponse {
    /// `{"font":…,"texts":[`, before the first text.
    static func begin(_ font: TextFont, to json: inout JSONWriter) {
        json.beginObject()
        json.key("font")
        TextFontRequest.write(font, to: &json)
        json.key("texts")
        json.beginArray()
    }

    /// One text: `{layout members}` or `{"layouts":[…]}` (`perWidth`), with its content widths when computed.
    static func write(_ output: TextLayoutOutput, perWidth: Bool, to json: inout JSONWriter) {
        json.beginObject()
        if perWidth {
            json.key("layouts")
            json.beginArray()
            for layout in output.layouts {
                json.beginObject()
                writeMembers(layout, to: &json)
                json.endObject()
            }
            json.endArray()
        } else if let layout = output.layouts.first {
            writeMembers(layout, to: &json)
        }
        if let widths = output.contentWidths {
            json.key("minContentWidth"); json.number(widths.min)
            json.key("maxContentWidth"); json.number(widths.max)
        }
        json.endObject()
    }

    /// `]}`, after the last text.
    static func end(to json: inout JSONWriter) {
        json.endArray()
        json.endObject()
    }

    /// The layout's members, into an object the caller opened.
    static func writeMembers(_ layout: ParagraphLayout, to json: inout JSONWriter) {
        writeLines(layout, to: &json)
        json.key("height"); json.number(layout.height)
        json.key("width"); json.number(layout.width)
        writeTruncation(layout, to: &json)
    }

    /// `lines`, into an object the caller opened.
    static func writeLines(_ layout: ParagraphLayout, to json: inout JSONWriter) {
        json.key("lines")
        json.beginArray()
        for line in layout.lines {
            json.beginObject()
            json.key("start"); json.int(line.start)
            json.key("end"); json.int(line.end)
            json.key("width"); json.number(line.width)
            // Rule for `x`: present only when the line does not start at the box's start edge (an indent, an alignment).
            if line.x != 0 { json.key("x"); json.number(line.x) }
            // Rule for `hyphen`: present only on a line broken at a soft hyphen.
            if let hyphen = line.hyphen { json.key("hyphen"); json.string(hyphen) }
            // Rule for `expansion`: present only on a justified line.
            if line.expansion != 0 { json.key("expansion"); json.number(line.expansion) }
            json.key("top"); json.number(line.top)
            json.key("height"); json.number(line.height)
            json.key("baseline"); json.number(line.baseline)
            // Rule for `forcedBreak`: present (true) only on a line that ends in a kept line feed.
            if line.forcedBreak { json.key("forcedBreak"); json.bool(true) }
            json.endObject()
        }
        json.endArray()
    }

    /// `lineCount`, `truncated` and the ellipsis when one is drawn, into an object the caller opened.
    static func writeTruncation(_ layout: ParagraphLayout, to json: inout JSONWriter) {
        json.key("lineCount"); json.int(layout.lineCount)
        json.key("truncated"); json.bool(layout.truncated)
        // Rule for `ellipsis`: present only when one is drawn.
        if let ellipsis = layout.ellipsis {
            json.key("ellipsis")
            json.beginObject()
            json.key("line"); json.int(ellipsis.line)
            json.key("end"); json.int(ellipsis.end)
            json.key("x"); json.number(ellipsis.x)
            json.key("width"); json.number(ellipsis.width)
            json.key("text"); json.string(ellipsis.text)
            json.endObject()
        }
    }
}
