extension TrellisClient {
    /// The problem type of a 422 whose request names, in `list`, a list the service does not keep (never kept, forgotten
    /// for newer lists, kept by another replica, lost in a restart): its one error's pointer is `/list`. Send the rows
    /// again, with `keep`.
    public static let listNotKept = "tag:trellis,2026:list-not-kept"

    /// Paragraph properties, as `POST /v1/text/layout` takes them (nil: the list's, or CSS's initial value).
    public struct ParagraphProperties: Sendable, Equatable, Codable {
        public var whiteSpace: String?
        public var wordBreak: String?
        public var overflowWrap: String?
        public var maxLines: Int?
        public var textOverflow: String?
        /// CSS line-height: px, a multiple of the font size, a percentage or normal.
        public var lineHeight: TextLineHeight?
        /// CSS text-wrap-style (`wrap`, `balance`, `pretty`, `stable`).
        public var textWrap: String?

        public init(
            whiteSpace: String? = nil, wordBreak: String? = nil, overflowWrap: String? = nil, maxLines: Int? = nil,
            textOverflow: String? = nil, lineHeight: TextLineHeight? = nil
        ) {
            self.whiteSpace = whiteSpace
            self.wordBreak = wordBreak
            self.overflowWrap = overflowWrap
            self.maxLines = maxLines
            self.textOverflow = textOverflow
            self.lineHeight = lineHeight
        }
    }

    /// A paragraph of a list's row: its text, with its own paragraph properties or the list's.
    public struct ListParagraph: Sendable, Equatable, Codable, ExpressibleByStringLiteral {
        public var text: String
        /// nil: the list's properties (sent as a plain string).
        public var properties: ParagraphProperties?

        public init(_ text: String, properties: ParagraphProperties? = nil) {
            self.text = text
            self.properties = properties
        }

        public init(stringLiteral value: String) { self.init(value) }

        private enum Key: String, CodingKey { case text }

        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self.init(text)
            } else {
                let text = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .text)
                self.init(text, properties: try ParagraphProperties(from: decoder))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            guard let properties else {
                var container = encoder.singleValueContainer()
                try container.encode(text)
                return
            }
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(text, forKey: .text)
            try properties.encode(to: encoder)
        }
    }

    /// A row's padding, inside the row, in CSS px.
    public struct ListPadding: Sendable, Equatable, Codable {
        public var top: Double?
        public var bottom: Double?
        public var leading: Double?
        public var trailing: Double?

        public init(top: Double? = nil, bottom: Double? = nil, leading: Double? = nil, trailing: Double? = nil) {
            self.top = top
            self.bottom = bottom
            self.leading = leading
            self.trailing = trailing
        }
    }

    /// A row of a list: its paragraphs, padding, the height drawn below its text, and its least height.
    public struct ListRow: Sendable, Equatable, Codable {
        /// Names the row for an anchor.
        public var key: TrellisID?
        public var texts: [ListParagraph]?
        public var padding: ListPadding?
        public var extraHeight: Double?
        public var minHeight: Double?

        public init(
            key: TrellisID? = nil, texts: [ListParagraph]? = nil, padding: ListPadding? = nil, extraHeight: Double? = nil,
            minHeight: Double? = nil
        ) {
            self.key = key
            self.texts = texts
            self.padding = padding
            self.extraHeight = extraHeight
            self.minHeight = minHeight
        }
    }

    /// Where the list is scrolled: the viewport's top and height, and rows to render beyond it on each side.
    public struct ListScroll: Sendable, Equatable, Codable {
        public var offset: Double?
        public var viewportHeight: Double
        public var overscan: Int?

        public init(offset: Double? = nil, viewportHeight: Double, overscan: Int? = nil) {
            self.offset = offset
            self.viewportHeight = viewportHeight
            self.overscan = overscan
        }
    }

    /// The row at the viewport's top and how far the viewport's top is below that row's top.
    public struct ListAnchor: Sendable, Equatable, Codable {
        public var key: TrellisID
        public var offset: Double?

        public init(key: TrellisID, offset: Double? = nil) {
            self.key = key
            self.offset = offset
        }
    }

    /// The body of POST /v1/list/layout: rows of paragraphs in one font, at one width or 1–16 widths.
    public struct ListLayoutRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = ListLayoutResponse
        public static let path = "/v1/list/layout"

        public var font: TextFont
        /// @font-face rules over stored fonts that `font.family` may name.
        public var fontFaces: [FontFaceRule]?
        public var rows: [ListRow]
        /// Exactly one of width and widths.
        public var width: Double?
        public var widths: [Double]?
        public var paragraphGap: Double?
        public var gap: Double?
        public var scroll: ListScroll?
        public var anchor: ListAnchor?
        /// Every paragraph's properties, unless it gives its own.
        public var properties: ParagraphProperties
        /// true: the service keeps the list once laid out (its rows, paragraphs and their shaping), and the answer's
        /// `list` names it for `KeptListLayoutRequest`.
        public var keep: Bool?

        public init(
            font: TextFont, rows: [ListRow], width: Double? = nil, widths: [Double]? = nil, paragraphGap: Double? = nil,
            gap: Double? = nil, scroll: ListScroll? = nil, anchor: ListAnchor? = nil, properties: ParagraphProperties = .init(),
            fontFaces: [FontFaceRule]? = nil, keep: Bool? = nil
        ) {
            self.font = font
            self.fontFaces = fontFaces
            self.rows = rows
            self.width = width
            self.widths = widths
            self.paragraphGap = paragraphGap
            self.gap = gap
            self.scroll = scroll
            self.anchor = anchor
            self.properties = properties
            self.keep = keep
        }

        private enum Key: String, CodingKey { case font, fontFaces, rows, width, widths, paragraphGap, gap, scroll, anchor, keep }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            font = try container.decode(TextFont.self, forKey: .font)
            fontFaces = try container.decodeIfPresent([FontFaceRule].self, forKey: .fontFaces)
            rows = try container.decode([ListRow].self, forKey: .rows)
            width = try container.decodeIfPresent(Double.self, forKey: .width)
            widths = try container.decodeIfPresent([Double].self, forKey: .widths)
            paragraphGap = try container.decodeIfPresent(Double.self, forKey: .paragraphGap)
            gap = try container.decodeIfPresent(Double.self, forKey: .gap)
            scroll = try container.decodeIfPresent(ListScroll.self, forKey: .scroll)
            anchor = try container.decodeIfPresent(ListAnchor.self, forKey: .anchor)
            keep = try container.decodeIfPresent(Bool.self, forKey: .keep)
            properties = try ParagraphProperties(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(font, forKey: .font)
            try container.encodeIfPresent(fontFaces, forKey: .fontFaces)
            try container.encode(rows, forKey: .rows)
            try container.encodeIfPresent(width, forKey: .width)
            try container.encodeIfPresent(widths, forKey: .widths)
            try container.encodeIfPresent(paragraphGap, forKey: .paragraphGap)
            try container.encodeIfPresent(gap, forKey: .gap)
            try container.encodeIfPresent(scroll, forKey: .scroll)
            try container.encodeIfPresent(anchor, forKey: .anchor)
            try container.encodeIfPresent(keep, forKey: .keep)
            try properties.encode(to: encoder)
        }
    }

    /// The body of POST /v1/list/layout naming a list kept before (`keep`) instead of sending its rows: the kept list at
    /// one width or 1–16 widths, answered as the rows sent again would be. Its font, rows, gaps and paragraph properties
    /// are the kept list's; an id the service does not keep is a problem of type `listNotKept`.
    public struct KeptListLayoutRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = ListLayoutResponse
        public static let path = "/v1/list/layout"

        /// The id the answer to a request with `keep` named.
        public var list: String
        /// Exactly one of width and widths.
        public var width: Double?
        public var widths: [Double]?
        public var scroll: ListScroll?
        /// The anchor's key is one of the kept rows' keys.
        public var anchor: ListAnchor?

        public init(list: String, width: Double? = nil, widths: [Double]? = nil, scroll: ListScroll? = nil, anchor: ListAnchor? = nil) {
            self.list = list
            self.width = width
            self.widths = widths
            self.scroll = scroll
            self.anchor = anchor
        }
    }

    /// The answer of POST /v1/list/layout: one layout per width, in order.
    public struct ListLayoutResponse: Sendable, Equatable, Codable {
        /// The rows to render, start to end exclusive.
        public struct Window: Sendable, Equatable, Codable {
            public var start: Int
            public var end: Int

            public init(start: Int, end: Int) {
                self.start = start
                self.end = end
            }
        }

        /// Where to scroll so that the anchor's row stays where it was on screen.
        public struct AnchorPosition: Sendable, Equatable, Codable {
            public var index: Int
            public var scrollOffset: Double

            public init(index: Int, scrollOffset: Double) {
                self.index = index
                self.scrollOffset = scrollOffset
            }
        }

        /// The list at one width: per row (in row order) its height, top, lines and truncation.
        public struct Layout: Sendable, Equatable, Codable {
            public var width: Double
            public var heights: [Double]
            public var offsets: [Double]
            public var total: Double
            public var lineCounts: [Int]
            public var truncated: [Bool]
            /// With a scroll position.
            public var window: Window?
            /// With an anchor: nil when the request had none or no row has its key.
            public var anchor: AnchorPosition?

            public init(
                width: Double, heights: [Double], offsets: [Double], total: Double, lineCounts: [Int], truncated: [Bool],
                window: Window? = nil, anchor: AnchorPosition? = nil
            ) {
                self.width = width
                self.heights = heights
                self.offsets = offsets
                self.total = total
                self.lineCounts = lineCounts
                self.truncated = truncated
                self.window = window
                self.anchor = anchor
            }
        }

        public var layouts: [Layout]
        /// The kept list's id, for `KeptListLayoutRequest`: with `keep` or a kept list named; nil when the request had
        /// neither, or when the service could not keep the list (too large for its store, or out of memory).
        public var list: String?

        public init(layouts: [Layout], list: String? = nil) {
            self.layouts = layouts
            self.list = list
        }
    }

    /// POST /v1/list/layout: every row's height and offset in a virtualized list of text rows, at each width.
    public func listLayout(
        _ request: ListLayoutRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> ListLayoutResponse {
        try await send(request, requestID: requestID).value
    }

    /// POST /v1/list/layout naming a kept list: its rows laid out again at other widths, scrolled or anchored, without
    /// sending them; a `.problem` of type `listNotKept` when the service no longer keeps it (send the rows again with
    /// `keep`).
    public func listLayout(
        _ request: KeptListLayoutRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> ListLayoutResponse {
        try await send(request, requestID: requestID).value
    }
}
