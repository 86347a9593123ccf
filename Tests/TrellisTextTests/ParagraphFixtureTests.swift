import Foundation
import TrellisText
import XCTest
import TrellisTestSupport

/// Browser-laid-out paragraphs (scripts/gentext/genpara.py): every line start exactly, every block
/// height exactly, every line width within 1/64 px and every ellipsis's visible text as Chromium's,
/// except the documented divergences (Fixtures/paragraph-divergences.json), each listed with its
/// reason and each checked to still differ (so the list never hides a case that now agrees).
final class ParagraphFixtureTests: XCTestCase {
    static let widthTolerance = 1.0 / 64 + 1e-9

    private static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
    }

    func testEveryChromiumParagraph() throws {
        try check("paragraphs.jsonl", minimumLayouts: 15_000)
    }

    func testEveryChromiumParagraphOfTheHoldOutSet() throws {
        try check("paragraphs-holdout.jsonl", minimumLayouts: 3_000)
    }

    /// The CSS text properties (white space, tab sizes, …): a table per property, by value and by script.
    func testEveryChromiumParagraphOfTheCSSSet() throws {
        try check("paragraphs-css.jsonl", minimumLayouts: 4_000)
    }

    /// The CSS text properties' hold-out set: other sentences, fonts, sizes and widths, generated after the rules were
    /// written.
    func testEveryChromiumParagraphOfTheCSSHoldOutSet() throws {
        try check("paragraphs-css-holdout.jsonl", minimumLayouts: 2_000)
    }

    /// Paragraphs the measurement on text never seen (`make text-neverseen`: Debian's translations in 13 scripts) found
    /// laid out otherwise than Chromium, kept with Chromium's answers once the rule they showed was fixed.
    func testEveryChromiumParagraphOfTheNeverSeenFinds() throws {
        try check("paragraphs-neverseen.jsonl", minimumLayouts: 30)
    }

    /// One fixture layout's outcome.
    struct Outcome {
        var startsAgree = true
        var heightAgrees = true
        var widthsAgree = true
        var ellipsisAgrees = true
        var ellipsisUndecided = false
        var detail = ""
        var agrees: Bool { startsAgree && heightAgrees && widthsAgree && ellipsisAgrees }
    }

    private func check(_ name: String, minimumLayouts: Int) throws {
        let lines = try String(contentsOf: Self.url(name), encoding: .utf8).split(separator: "\n").dropFirst()
        let divergences = try Self.divergences()
        var total = 0
        var failures = 0
        var listedAgreeing: [String] = []
        var byKey: [String: (layouts: Int, starts: Int, heights: Int, ellipses: Int, ellipsisCases: Int)] = [:]
        var undecided = 0
        var startsAgreeing = 0
        var heightsAgreeing = 0
        var ellipsesAgreeing = 0
        var ellipsisCases = 0
        var report: [String] = []
        for line in lines {
            let fixture = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try XCTUnwrap(fixture["id"] as? String)
            guard FixtureFilter.includes(id) else { continue }
            let script = try XCTUnwrap(fixture["script"] as? String)
            let group = fixture["group"] as? String
            let text = try XCTUnwrap(fixture["text"] as? String)
            let fontSpec = try XCTUnwrap(fixture["font"] as? [String: Any])
            let family = try XCTUnwrap(fontSpec["family"] as? String)
            let size = try XCTUnwrap((fontSpec["size"] as? NSNumber)?.doubleValue)
            let weight = try XCTUnwrap((fontSpec["weight"] as? NSNumber)?.intValue)
            let style = try XCTUnwrap(FontStyle.allCases.first { "\($0)" == fontSpec["style"] as? String })
            let font = try XCTUnwrap(TestFonts.font(family, size: size, weight: weight, style: style), "\(id): \(family)")
            let shaper = ParagraphShaper(font: font)
            for (number, layout) in try XCTUnwrap(fixture["layouts"] as? [[String: Any]]).enumerated() {
                guard FixtureFilter.includes(id, layout: number) else { continue }
                total += 1
                let paragraphStyle = try Self.style(layout, fontSize: size)
                let mode = Self.mode(layout)
                let caseID = "\(id)/\(number)"
                let spacing = try Self.spacing(layout, fontSize: size)
                let outcome = try Self.compare(spacing.isNone ? shaper : ParagraphShaper(font: font.spaced(spacing)), text, layout, paragraphStyle)
                if FixtureFilter.isActive {
                    print("\(caseID) [\(script) \(mode)] \(family) \(size)px width \(layout["width"] ?? "?"): "
                        + (outcome.agrees ? "agrees with Chromium" : outcome.detail))
                }
                // The base set's table is by script and mode; the CSS set's, per property, by value and by script.
                let keys = group.map { ["\($0) / \(Self.value(of: $0, layout))", "\($0) / \(script)"] } ?? ["\(script) \(mode)"]
                if outcome.ellipsisUndecided { undecided += 1 }
                if outcome.startsAgree { startsAgreeing += 1 }
                if outcome.heightAgrees { heightsAgreeing += 1 }
                if !outcome.ellipsisUndecided && paragraphStyle.textOverflow == .ellipsis {
                    ellipsisCases += 1
                    if outcome.ellipsisAgrees { ellipsesAgreeing += 1 }
                }
                for key in keys {
                    var counts = byKey[key] ?? (0, 0, 0, 0, 0)
                    counts.layouts += 1
                    if outcome.startsAgree { counts.starts += 1 }
                    if outcome.heightAgrees { counts.heights += 1 }
                    if !outcome.ellipsisUndecided && paragraphStyle.textOverflow == .ellipsis {
                        counts.ellipsisCases += 1
                        if outcome.ellipsisAgrees { counts.ellipses += 1 }
                    }
                    byKey[key] = counts
                }
                if outcome.agrees {
                    if divergences[caseID] != nil { listedAgreeing.append(caseID) }
                    continue
                }
                report.append("\(caseID) [\(script) \(mode)] \(outcome.detail)")
                if divergences[caseID] == nil {
                    failures += 1
                    if failures <= 30 { XCTFail("\(caseID) [\(script) \(mode)] \(family) \(size)px: \(outcome.detail)") }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(total, FixtureFilter.isActive ? 0 : minimumLayouts, "run scripts/gentext/genpara.py")
        XCTAssertEqual(failures, 0, "layouts that differ from Chromium without a documented divergence")
        XCTAssertEqual(listedAgreeing, [], "documented divergences that now agree with Chromium: remove them from the list")
        if FixtureFilter.isActive { return }
        let ellipsisLayouts = ellipsisCases + undecided
        XCTAssertLessThanOrEqual(undecided * 10, ellipsisLayouts, "too many ellipses Chromium's pixels did not decide")
        if let path = ProcessInfo.processInfo.environment["TRELLIS_PARAGRAPH_REPORT"] {
            try (report.joined(separator: "\n") + "\n").write(toFile: path + "." + name + ".txt", atomically: true, encoding: .utf8)
        }
        var summary = ["Chromium paragraphs (\(name)): \(total) layouts, \(total - report.count) agree in every line start, height, width and ellipsis"]
        for key in byKey.keys.sorted() {
            let c = byKey[key]!
            summary.append("  \(key): line starts \(c.starts)/\(c.layouts), heights \(c.heights)/\(c.layouts)"
                + (c.ellipsisCases > 0 ? ", ellipsis \(c.ellipses)/\(c.ellipsisCases)" : ""))
        }
        summary.append("  all: line starts \(startsAgreeing)/\(total), heights \(heightsAgreeing)/\(total), ellipsis \(ellipsesAgreeing)/\(ellipsisCases) "
            + "(\(undecided) more whose visible text Chromium's pixels did not decide)")
        print(summary.joined(separator: "\n"))
    }

    static func compare(_ shaper: ParagraphShaper, _ text: String, _ layout: [String: Any], _ style: ParagraphStyle) throws -> Outcome {
        let expected = try XCTUnwrap(layout["expected"] as? [String: Any])
        let width = try XCTUnwrap((layout["width"] as? NSNumber)?.doubleValue)
        let starts = try XCTUnwrap(expected["starts"] as? [Int])
        // A width Chromium's rects do not give (a right-to-left line's generated hyphen) is null: not compared.
        let widths = try XCTUnwrap(expected["widths"] as? [Any]).map { ($0 as? NSNumber)?.doubleValue ?? .nan }
        let height = try XCTUnwrap((expected["height"] as? NSNumber)?.doubleValue)
        var outcome = Outcome()
        guard case .success(let paragraph) = shaper.shape(text, whiteSpace: style.whiteSpace) else {
            outcome.startsAgree = false
            outcome.detail = "not shaped: \(shaper.shape(text, whiteSpace: style.whiteSpace))"
            return outcome
        }
        var unclamped = style
        unclamped.maxLines = nil
        unclamped.textOverflow = .clip
        let all = try XCTUnwrap(shaper.layout(paragraph, width: width, style: unclamped))
        let result = try XCTUnwrap(shaper.layout(paragraph, width: width, style: style))
        var ours = all.lines.map(\.start)
        var compared = all.lines
        if style.textWrap != .wrap, let maxLines = style.maxLines, result.lineCount == starts.count {
            compared = result.lines
            // A balanced clamp breaks the lines it shows otherwise than the paragraph unclamped: its shown lines' starts
            // (the hidden ones are not answered), and as many lines in all.
            ours = result.lines.map(\.start) + starts.dropFirst(min(maxLines, starts.count))
        }
        if ours != starts {
            outcome.startsAgree = false
            outcome.detail += "starts \(ours) (Chromium \(starts)); "
        }
        if abs(result.height - height) > 1e-9 {
            outcome.heightAgrees = false
            outcome.detail += "height \(result.height) (Chromium \(height)); "
        }
        // Widths of lines drawn whole (a cut line's rects are the hidden original's).
        let cutLine = result.ellipsis?.line ?? (style.maxLines.map { $0 - 1 } ?? -1)
        if outcome.startsAgree {
            for (index, line) in compared.enumerated() where index != cutLine && index < widths.count && !widths[index].isNaN {
                if abs(line.width - widths[index]) > Self.widthTolerance {
                    outcome.widthsAgree = false
                    outcome.detail += "line \(index) width \(line.width) (Chromium \(widths[index])); "
                }
            }
        }
        // Where each line drawn whole starts, from the box's start edge (a line that draws nothing has no rects).
        if outcome.startsAgree, let xs = (expected["xs"] as? [Any])?.map({ ($0 as? NSNumber)?.doubleValue ?? .nan }) {
            for (index, line) in compared.enumerated() where index != cutLine && index < xs.count && widths[index] > 0 && !xs[index].isNaN {
                if abs(line.x - xs[index]) > Self.widthTolerance {
                    outcome.widthsAgree = false
                    outcome.detail += "line \(index) x \(line.x) (Chromium \(xs[index])); "
                }
            }
        }
        if style.textOverflow == .ellipsis {
            let visibleEnd = (expected["visibleEnd"] as? NSNumber)?.intValue
            if expected["visibleEnd"] is NSNull {
                // Chromium's pixels matched no candidate prefix: counted apart, not compared.
                outcome.ellipsisUndecided = true
            } else if let visibleEnd {
                // The text through the last shown line's forced break, then the ellipsis: the ellipsis falls on a hidden
                // line, so Chromium drew none.
                let drewNone = result.lines.last.map { $0.forcedBreak && $0.end == visibleEnd } ?? false
                if drewNone ? result.ellipsis != nil : result.ellipsis?.end != visibleEnd {
                    outcome.ellipsisAgrees = false
                    outcome.detail += "ellipsis after \(result.ellipsis.map { String($0.end) } ?? "none") (Chromium \(visibleEnd)); "
                }
            } else if let ellipsis = result.ellipsis, style.whiteSpace == .nowrap || style.whiteSpace == .pre || ellipsis.end < Self.visibleEnd(text, result.lines[ellipsis.line]) {
                // Chromium cut nothing: an ellipsis may only follow a whole clamped line.
                outcome.ellipsisAgrees = false
                outcome.detail += "ellipsis after \(ellipsis.end) (Chromium cut nothing); "
            }
        }
        return outcome
    }

    /// The end of a line's text without its trailing spaces, in UTF-16 units.
    static func visibleEnd(_ text: String, _ line: ParagraphLine) -> Int {
        let units = Array(text.utf16)
        var end = line.end
        while end > line.start && (units[end - 1] == 0x20 || units[end - 1] == 0x3000) { end -= 1 }
        return end
    }

    static func style(_ layout: [String: Any], fontSize: Double = 16) throws -> ParagraphStyle {
        var style = ParagraphStyle()
        switch layout["whiteSpace"] as? String ?? "normal" {
        case "pre-wrap": style.whiteSpace = .preWrap
        case "nowrap": style.whiteSpace = .nowrap
        case "pre": style.whiteSpace = .pre
        case "pre-line": style.whiteSpace = .preLine
        case "break-spaces": style.whiteSpace = .breakSpaces
        default: style.whiteSpace = .normal
        }
        if let spaces = layout["tabSize"] as? NSNumber {
            style.tabSize = .spaces(spaces.doubleValue)
        } else if let length = layout["tabSize"] as? String {
            style.tabSize = .length(try XCTUnwrap(Self.px(length)))
        }
        switch layout["wordBreak"] as? String ?? "normal" {
        case "break-all": style.wordBreak = .breakAll
        case "keep-all": style.wordBreak = .keepAll
        default: style.wordBreak = .normal
        }
        switch layout["overflowWrap"] as? String ?? "normal" {
        case "anywhere": style.overflowWrap = .anywhere
        case "break-word": style.overflowWrap = .breakWord
        default: style.overflowWrap = .normal
        }
        if let hyphens = layout["hyphens"] as? String { style.hyphens = try XCTUnwrap(["manual": Hyphens.manual, "none": Hyphens.none][hyphens]) }
        style.maxLines = (layout["maxLines"] as? NSNumber)?.intValue
        style.textOverflow = layout["textOverflow"] as? String == "ellipsis" ? .ellipsis : .clip
        let aligns: [String: TextAlign] = ["start": .start, "end": .end, "left": .left, "right": .right, "center": .center, "justify": .justify]
        if let align = layout["textAlign"] as? String { style.textAlign = try XCTUnwrap(aligns[align]) }
        if let align = layout["textAlignLast"] as? String {
            let lasts: [String: TextAlignLast] = [
                "auto": .auto, "start": .start, "end": .end, "left": .left, "right": .right, "center": .center, "justify": .justify,
            ]
            style.textAlignLast = try XCTUnwrap(lasts[align])
        }
        if let px = layout["textIndent"] as? NSNumber {
            style.textIndent = .length(px.doubleValue)
        } else if let css = layout["textIndent"] as? String {
            style.textIndent = try Self.px(css).map { .length($0) } ?? .percentage(try XCTUnwrap(Double(css.dropLast())))
        }
        if let wrap = layout["textWrap"] as? String {
            let wraps: [String: TextWrap] = ["wrap": .wrap, "balance": .balance, "pretty": .pretty, "stable": .stable]
            style.textWrap = try XCTUnwrap(wraps[wrap])
        }
        // line-height: px as a JSON number, else CSS's forms in a string ("1.5", "150%", "24px", "normal").
        if let px = layout["lineHeight"] as? NSNumber {
            style.lineHeight = LineHeight.length(px.doubleValue).px(fontSize: fontSize)
        } else if let css = layout["lineHeight"] as? String, css != "normal" {
            let lineHeight: LineHeight
            if let px = Self.px(css) {
                lineHeight = .length(px)
            } else if css.hasSuffix("%") {
                lineHeight = .percentage(try XCTUnwrap(Double(css.dropLast())))
            } else {
                lineHeight = .number(try XCTUnwrap(Double(css)))
            }
            style.lineHeight = lineHeight.px(fontSize: fontSize)
        }
        return style
    }

    /// letter-spacing and word-spacing: px as a JSON number, else CSS's px or em in a string, resolved as Blink does (in
    /// double, then a float).
    static func spacing(_ layout: [String: Any], fontSize: Double) throws -> TextSpacing {
        func px(_ value: Any?) throws -> Double {
            if let number = value as? NSNumber { return Double(Float(number.doubleValue)) }
            guard let css = value as? String else { return 0 }
            if let px = Self.px(css) { return Double(Float(px)) }
            let em = try XCTUnwrap(css.hasSuffix("em") ? Double(css.dropLast(2)) : nil, "spacing \(css)")
            return Double(Float(em * fontSize))
        }
        return TextSpacing(letter: try px(layout["letterSpacing"]), word: try px(layout["wordSpacing"]))
    }

    /// A CSS length in px ("13.5px").
    static func px(_ css: String) -> Double? {
        css.hasSuffix("px") ? Double(css.dropLast(2)) : nil
    }

    /// What a CSS-set layout sets for its group's property (the row of the property's table).
    static func value(of group: String, _ layout: [String: Any]) -> String {
        switch group {
        case "white-space":
            let mode = layout["whiteSpace"] as? String ?? "normal"
            if layout["tabSize"] != nil { return "\(mode) tab-size" }
            if layout["maxLines"] != nil { return "\(mode) clamp" }
            if layout["textOverflow"] != nil { return "\(mode) ellipsis" }
            if let wrap = layout["overflowWrap"] ?? layout["wordBreak"] { return "\(mode) \(wrap)" }
            return mode
        case "text-align", "justify":
            var parts: [String] = []
            if let indent = layout["textIndent"] { parts.append((indent as? String)?.hasSuffix("%") == true ? "indent %" : "indent px") }
            if let align = layout["textAlign"] as? String { parts.append(align) }
            if let last = layout["textAlignLast"] as? String { parts.append("last \(last)") }
            if layout["maxLines"] != nil { parts.append("clamp") }
            return parts.joined(separator: " ")
        case "soft-hyphens":
            var parts = [layout["hyphens"] as? String ?? "manual"]
            for key in ["textAlign", "whiteSpace"] { if let value = layout[key] as? String { parts.append(value) } }
            if layout["letterSpacing"] != nil { parts.append("letter-spacing") }
            if layout["maxLines"] != nil { parts.append("clamp") }
            return parts.joined(separator: " ")
        case "letter-spacing", "word-spacing":
            let member = group == "letter-spacing" ? "letterSpacing" : "wordSpacing"
            var parts: [String] = []
            if let value = layout[member] {
                let css = value as? String ?? "px"
                parts.append((css.hasSuffix("em") ? "em" : "px") + ((value as? NSNumber)?.doubleValue ?? Double(css.filter { $0 == "-" || $0 == "." || $0.isNumber }) ?? 0 < 0 ? " negative" : ""))
            }
            if group == "word-spacing" && layout["letterSpacing"] != nil { parts.append("with letter-spacing") }
            if let mode = layout["whiteSpace"] as? String { parts.append(mode) }
            if let wrap = layout["overflowWrap"] as? String { parts.append(wrap) }
            if let align = layout["textAlign"] as? String { parts.append(align) }
            if layout["maxLines"] != nil { parts.append("clamp") } else if layout["textOverflow"] != nil { parts.append("ellipsis") }
            return parts.joined(separator: " ")
        case "text-wrap", "text-wrap-typed", "text-wrap-short", "text-wrap-hyphens":
            var parts = [layout["textWrap"] as? String ?? "wrap"]
            if layout["maxLines"] != nil { parts.append(layout["textOverflow"] != nil ? "clamp ellipsis" : "clamp") }
            for key in ["whiteSpace", "overflowWrap", "wordBreak", "textAlign"] { if let value = layout[key] as? String { parts.append(value) } }
            if let hyphens = layout["hyphens"] as? String { parts.append("hyphens \(hyphens)") }
            if layout["textIndent"] != nil { parts.append("indent") }
            return parts.joined(separator: " ")
        case "line-height":
            guard let value = layout["lineHeight"] else { return "normal" }
            let form = value is NSNumber ? "px" : (value as? String).map { Self.px($0) != nil ? "px" : $0.hasSuffix("%") ? "%" : $0 == "normal" ? "normal" : "number" } ?? "?"
            return layout["maxLines"] != nil ? "\(form) clamp" : form
        default:
            return mode(layout)
        }
    }

    static func mode(_ layout: [String: Any]) -> String {
        if layout["maxLines"] != nil { return "clamp" }
        if layout["textOverflow"] != nil { return "ellipsis" }
        if layout["lineHeight"] != nil { return "line-height" }
        for key in ["whiteSpace", "wordBreak", "overflowWrap"] { if let value = layout[key] as? String { return value } }
        return "normal"
    }

    /// Case id ("p12/3") → the documented reason it differs from Chromium.
    static func divergences() throws -> [String: String] {
        let data = try Data(contentsOf: url("paragraph-divergences.json"))
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var reasons: [String: String] = [:]
        for entry in try XCTUnwrap(list["divergences"] as? [[String: Any]]) {
            let reason = try XCTUnwrap(entry["reason"] as? String)
            for id in try XCTUnwrap(entry["cases"] as? [String]) { reasons[id] = reason }
        }
        return reasons
    }
}
