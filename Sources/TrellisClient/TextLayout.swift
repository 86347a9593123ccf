extension TrellisClient {
    /// CSS white-space: `normal` and `nowrap` collapse spaces, tabs and line feeds; `pre-line` collapses spaces and
    /// tabs but keeps line feeds as forced breaks; `pre`, `pre-wrap` and `break-spaces` keep everything; `nowrap` and
    /// `pre` never wrap.
    public enum TextWhiteSpace: String, Sendable, Codable, CaseIterable {
        case normal
        case preWrap = "pre-wrap"
        case nowrap
        case pre
        case preLine = "pre-line"
        case breakSpaces = "break-spaces"
    }

    /// CSS tab-size: a number of spaces, or a length in px.
    public enum TextTabSize: Sendable, Equatable, Codable {
        case spaces(Double)
        case px(Double)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let spaces = try? container.decode(Double.self) {
                self = .spaces(spaces)
                return
            }
            let text = try container.decode(String.self)
            if text.lowercased().hasSuffix("px"), let px = Double(text.dropLast(2)) {
                self = .px(px)
            } else if let spaces = Double(text) {
                self = .spaces(spaces)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a tab size: \(text)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .spaces(let spaces): try container.encode(spaces)
            case .px(let px): try container.encode("\(px)px")
            }
        }
    }

    /// CSS text-align (and text-align-last, which also takes `auto`): each line's place in its box.
    public enum TextAlign: String, Sendable, Codable, CaseIterable {
        case auto, start, end, left, right, center, justify
    }

    /// CSS text-wrap-style of a paragraph that wraps: greedy (`wrap`, `stable`) or Chromium's balanced or pretty breaks.
    public enum TextWrap: String, Sendable, Codable, CaseIterable {
        case wrap, balance, pretty, stable
    }

    /// CSS word-break.
    public enum TextWordBreak: String, Sendable, Codable, CaseIterable {
        case normal
        case breakAll = "break-all"
        case keepAll = "keep-all"
    }

    /// CSS overflow-wrap: where a word too long for its line may break.
    public enum TextOverflowWrap: String, Sendable, Codable, CaseIterable {
        case normal
        case anywhere
        case breakWord = "break-word"
    }

    /// CSS text-overflow on the last line shown.
    public enum TextOverflow: String, Sendable, Codable, CaseIterable {
        case clip
        case ellipsis
    }

    /// The body of POST /v1/text/layout: texts laid out as paragraphs at one `width`, or at each of 1 to 16
    /// `widths` (exactly one of the two: each initializer sets one).
    public struct TextLayoutRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = TextLayoutResponse
        public static let path = "/v1/text/layout"

        public var font: TextFont
        /// @font-face rules over stored fonts that `font.family` may name.
        public var fontFaces: [FontFaceRule]? = nil
        /// At most 10,000 texts of at most 1,000 Unicode scalars each; tabs, line feeds and carriage returns are white
        /// space (kept or collapsed as `whiteSpace` says), other control characters are refused.
        public var texts: [String]
        /// The box's width in CSS px.
        public var width: Double?
        /// Lay every text out at each of these widths: each text answers `layouts`, one per width.
        public var widths: [Double]?
        public var whiteSpace: TextWhiteSpace?
        public var wordBreak: TextWordBreak?
        public var overflowWrap: TextOverflowWrap?
        /// Show at most this many lines (-webkit-line-clamp).
        public var maxLines: Int?
        public var textOverflow: TextOverflow?
        /// CSS line-height: px, a multiple of the font size, a percentage or normal; nil is normal.
        public var lineHeight: TextLineHeight?
        /// CSS tab-size; nil is 8 spaces.
        public var tabSize: TextTabSize?
        /// CSS text-align (not `auto`) and text-align-last; nil is start and auto.
        public var textAlign: TextAlign?
        public var textAlignLast: TextAlign?
        /// CSS text-indent in px (negative: the first line starts before the start edge); nil is 0.
        public var textIndent: Double?
        /// CSS text-wrap-style; nil is `wrap`.
        public var textWrap: TextWrap?
        /// Also answer each text's minContentWidth and maxContentWidth.
        public var contentWidths: Bool?
        /// CSS letter-spacing (after every grapheme cluster; optional ligatures off) and word-spacing (after every
        /// space and no-break space); nil is normal (0).
        public var letterSpacing: TextSpacing? = nil
        public var wordSpacing: TextSpacing? = nil
        /// CSS hyphens: manual (nil) breaks at soft hyphens and shows a hyphen there; none does not break there.
        public var hyphens: TextHyphens? = nil

        public init(
            font: TextFont, texts: [String], width: Double, whiteSpace: TextWhiteSpace? = nil, wordBreak: TextWordBreak? = nil,
            overflowWrap: TextOverflowWrap? = nil, maxLines: Int? = nil, textOverflow: TextOverflow? = nil,
            lineHeight: TextLineHeight? = nil, contentWidths: Bool? = nil, tabSize: TextTabSize? = nil
        ) {
            self.init(
                font: font, texts: texts, width: width, widths: nil, whiteSpace: whiteSpace, wordBreak: wordBreak,
                overflowWrap: overflowWrap, maxLines: maxLines, textOverflow: textOverflow, lineHeight: lineHeight,
                contentWidths: contentWidths, tabSize: tabSize)
        }

        public init(
            font: TextFont, texts: [String], widths: [Double], whiteSpace: TextWhiteSpace? = nil, wordBreak: TextWordBreak? = nil,
            overflowWrap: TextOverflowWrap? = nil, maxLines: Int? = nil, textOverflow: TextOverflow? = nil,
            lineHeight: TextLineHeight? = nil, contentWidths: Bool? = nil, tabSize: TextTabSize? = nil
        ) {
            self.init(
                font: font, texts: texts, width: nil, widths: widths, whiteSpace: whiteSpace, wordBreak: wordBreak,
                overflowWrap: overflowWrap, maxLines: maxLines, textOverflow: textOverflow, lineHeight: lineHeight,
                contentWidths: contentWidths, tabSize: tabSize)
        }

        private init(
            font: TextFont, texts: [String], width: Double?, widths: [Double]?, whiteSpace: TextWhiteSpace?,
            wordBreak: TextWordBreak?, overflowWrap: TextOverflowWrap?, maxLines: Int?, textOverflow: TextOverflow?,
            lineHeight: TextLineHeight?, contentWidths: Bool?, tabSize: TextTabSize?
        ) {
            self.font = font
            self.texts = texts
            self.width = width
            self.widths = widths
            self.whiteSpace = whiteSpace
            self.wordBreak = wordBreak
            self.overflowWrap = overflowWrap
            self.maxLines = maxLines
            self.textOverflow = textOverflow
            self.lineHeight = lineHeight
            self.contentWidths = contentWidths
            self.tabSize = tabSize
        }
    }

    /// The answer of POST /v1/text/layout, in CSS px; offsets are UTF-16 offsets of the text as sent.
    public struct TextLayoutResponse: Sendable, Equatable, Codable {
        /// A line: the part of the text it shows (the lines tile the text), what is drawn, and its box.
        public struct Line: Sendable, Equatable, Codable {
            public var start: Int
            public var end: Int
            /// What is drawn: without hanging spaces; with the ellipsis, up to its end.
            public var width: Double
            public var top: Double
            public var height: Double
            /// From the paragraph's top.
            public var baseline: Double
            /// True when the line ends in a kept line feed (absent otherwise).
            public var forcedBreak: Bool?
            /// Where the drawn text starts, from the box's start edge (its right edge in a right-to-left paragraph); nil is 0.
            public var x: Double?
            /// On a justified line: the px added at each expansion opportunity.
            public var expansion: Double?
            /// On a line broken at a soft hyphen: the hyphen to draw after its text (counted in `width`).
            public var hyphen: String?

            public init(start: Int, end: Int, width: Double, top: Double, height: Double, baseline: Double, forcedBreak: Bool? = nil) {
                self.start = start
                self.end = end
                self.width = width
                self.top = top
                self.height = height
                self.baseline = baseline
                self.forcedBreak = forcedBreak
            }
        }

        /// Where the ellipsis is drawn: after the visible text (ending at `end`) of `line`, `x` from the line's start edge.
        public struct Ellipsis: Sendable, Equatable, Codable {
            public var line: Int
            public var end: Int
            public var x: Double
            public var width: Double
            /// U+2026, or three full stops when the first face has no U+2026.
            public var text: String

            public init(line: Int, end: Int, x: Double, width: Double, text: String) {
                self.line = line
                self.end = end
                self.x = x
                self.width = width
                self.text = text
            }
        }

        /// One text laid out at one width.
        public struct Paragraph: Sendable, Equatable, Codable {
            /// The lines shown, in order.
            public var lines: [Line]
            /// The lines shown, stacked.
            public var height: Double
            /// The widest line drawn.
            public var width: Double
            /// Lines before maxLines.
            public var lineCount: Int
            /// Lines were hidden by maxLines or text was cut for the ellipsis.
            public var truncated: Bool
            /// Present only when an ellipsis is drawn.
            public var ellipsis: Ellipsis?

            public init(lines: [Line], height: Double, width: Double, lineCount: Int, truncated: Bool, ellipsis: Ellipsis? = nil) {
                self.lines = lines
                self.height = height
                self.width = width
                self.lineCount = lineCount
                self.truncated = truncated
                self.ellipsis = ellipsis
            }
        }

        /// One text's answer: its paragraph at `width`, or one per width of `widths`, and its content widths when asked.
        public struct LaidOutText: Sendable, Equatable, Codable {
            /// The paragraph at each width asked, in order (one for `width`).
            public var layouts: [Paragraph]
            /// True when the request had `widths` (the answer's `layouts`); false for `width` (the paragraph's members
            /// inline in the text's answer).
            public var atEachWidth: Bool
            /// Every break opportunity taken: the widest unbreakable piece.
            public var minContentWidth: Double?
            /// The text on one line.
            public var maxContentWidth: Double?

            /// The paragraph at `width` (at the first of `widths`).
            public var paragraph: Paragraph? { layouts.first }

            public init(layouts: [Paragraph], atEachWidth: Bool, minContentWidth: Double? = nil, maxContentWidth: Double? = nil) {
                self.layouts = layouts
                self.atEachWidth = atEachWidth
                self.minContentWidth = minContentWidth
                self.maxContentWidth = maxContentWidth
            }

            private enum CodingKeys: String, CodingKey { case layouts, minContentWidth, maxContentWidth }

            /// Rule: an answer with `layouts` is one paragraph per width; without, the answer is the paragraph itself.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                if container.contains(.layouts) {
                    layouts = try container.decode([Paragraph].self, forKey: .layouts)
                    atEachWidth = true
                } else {
                    layouts = [try Paragraph(from: decoder)]
                    atEachWidth = false
                }
                minContentWidth = try container.decodeIfPresent(Double.self, forKey: .minContentWidth)
                maxContentWidth = try container.decodeIfPresent(Double.self, forKey: .maxContentWidth)
            }

            public func encode(to encoder: any Encoder) throws {
                if !atEachWidth, let paragraph = layouts.first {
                    try paragraph.encode(to: encoder)
                }
                var container = encoder.container(keyedBy: CodingKeys.self)
                if atEachWidth { try container.encode(layouts, forKey: .layouts) }
                try container.encodeIfPresent(minContentWidth, forKey: .minContentWidth)
                try container.encodeIfPresent(maxContentWidth, forKey: .maxContentWidth)
            }
        }

        /// The primary face's line, as POST /v1/text/measure answers it.
        public var font: TextMeasureResponse.Metrics
        /// One per text, in order.
        public var texts: [LaidOutText]

        public init(font: TextMeasureResponse.Metrics, texts: [LaidOutText]) {
            self.font = font
            self.texts = texts
        }
    }

    /// POST /v1/text/layout: texts as paragraphs (lines, heights, a clamp with an ellipsis) at one width or several,
    /// as Chromium lays them out.
    public func textLayout(
        _ request: TextLayoutRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> TextLayoutResponse {
        try await send(request, requestID: requestID).value
    }
}
