extension TrellisClient {
    /// A width and a height in points.
    public struct Size: Sendable, Equatable, Codable {
        public var width: Double
        public var height: Double

        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// A rectangle in container coordinates, y downwards.
    public struct Rect: Sendable, Equatable, Codable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// One chip to place: its own size (without padding), or a label measured in the request's `font`;
    /// an optional id echoed on its placement, and a forced break.
    public struct FlowItem: Sendable, Equatable, Codable {
        public var id: TrellisID?
        /// A sized item's width and height (nil for a label).
        public var width: Double?
        public var height: Double?
        /// A label: the item is its width + labelPadding's leading + trailing wide, the line height + top + bottom high.
        public var text: String?
        /// The item starts a new row.
        public var breakBefore: Bool?
        /// A label's outer width limit: a wider label is cut with an ellipsis, or wrapped to `maxLines` (default 1).
        public var maxWidth: Double?
        public var maxLines: Int?

        public init(id: TrellisID? = nil, width: Double, height: Double, breakBefore: Bool? = nil) {
            self.id = id
            self.width = width
            self.height = height
            self.breakBefore = breakBefore
        }

        /// A label chip (the request then needs `font`).
        public init(id: TrellisID? = nil, text: String, breakBefore: Bool? = nil, maxWidth: Double? = nil, maxLines: Int? = nil) {
            self.id = id
            self.text = text
            self.breakBefore = breakBefore
            self.maxWidth = maxWidth
            self.maxLines = maxLines
        }
    }

    /// Padding around each label (each default 0).
    public struct FlowLabelPadding: Sendable, Equatable, Codable {
        public var top: Double?
        public var leading: Double?
        public var bottom: Double?
        public var trailing: Double?

        public init(top: Double? = nil, leading: Double? = nil, bottom: Double? = nil, trailing: Double? = nil) {
            self.top = top
            self.leading = leading
            self.bottom = bottom
            self.trailing = trailing
        }
    }

    /// The "+N more" chip: its size, or its label (`{n}` is replaced by the hidden count; measured like a label item).
    public struct FlowOverflowChip: Sendable, Equatable, Codable {
        public var width: Double?
        public var height: Double?
        public var text: String?

        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }

        public init(label text: String) {
            self.text = text
        }
    }

    /// CSS justify-content for every row.
    public enum FlowAlignment: String, Sendable, Codable, CaseIterable {
        case leading, center, trailing, spaceBetween, spaceAround, spaceEvenly
    }

    /// CSS align-items within a row.
    public enum FlowRowAlignment: String, Sendable, Codable, CaseIterable {
        case top, center, bottom
    }

    /// rtl is the mirror image of the ltr layout.
    public enum FlowDirection: String, Sendable, Codable, CaseIterable {
        case ltr, rtl
    }

    /// greedy is CSS flex-wrap; balanced keeps the row count and makes the widest row as narrow as it can.
    public enum FlowLineBreaking: String, Sendable, Codable, CaseIterable {
        case greedy, balanced
    }

    /// The body of POST /v1/flow/layout; nil members take the service's defaults.
    public struct FlowLayoutRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = FlowLayoutResponse
        public static let path = "/v1/flow/layout"

        public var containerWidth: Double
        public var items: [FlowItem]
        /// Padding left and right of each item (default 0).
        public var horizontalSpacing: Double?
        /// Padding above and below each item (default 0).
        public var verticalSpacing: Double?
        public var columnGap: Double?
        public var rowGap: Double?
        public var alignment: FlowAlignment?
        public var rowAlignment: FlowRowAlignment?
        public var direction: FlowDirection?
        /// Only the first maxRows rows are laid out; the rest are hidden.
        public var maxRows: Int?
        /// A "+N more" chip (its size or its label) at the end of the last visible row; only with maxRows.
        public var overflowIndicator: FlowOverflowChip?
        public var lineBreaking: FlowLineBreaking?
        /// Snap every edge to the device-pixel grid of this scale.
        public var pixelScale: Double?
        /// The font labels are measured in (required when an item or the overflow chip has a label).
        public var font: TextFont?
        /// @font-face rules over stored fonts that `font.family` may name.
        public var fontFaces: [FontFaceRule]? = nil
        public var labelPadding: FlowLabelPadding?
        /// CSS white-space of every label (the chip's too): each is then laid out as a paragraph in that mode (a line
        /// feed it keeps ends a line; tabs and carriage returns are white space) and answers its `lines`; nil: each
        /// label is one line as `pre` (narrowed to more than one line: `pre-wrap`), control characters refused.
        public var whiteSpace: TextWhiteSpace? = nil
        /// CSS text-align of a label's lines in its chip (lines of a wrapped or multi-line label); nil is start.
        public var textAlign: TextAlign? = nil
        /// CSS tab-size of tabs kept by whiteSpace; nil is 8 spaces.
        public var tabSize: TextTabSize? = nil
        /// CSS letter-spacing and word-spacing of every label (they change its width); nil is normal (0).
        public var letterSpacing: TextSpacing? = nil
        public var wordSpacing: TextSpacing? = nil

        public init(
            containerWidth: Double, items: [FlowItem], horizontalSpacing: Double? = nil, verticalSpacing: Double? = nil,
            columnGap: Double? = nil, rowGap: Double? = nil, alignment: FlowAlignment? = nil,
            rowAlignment: FlowRowAlignment? = nil, direction: FlowDirection? = nil, maxRows: Int? = nil,
            overflowIndicator: FlowOverflowChip? = nil, lineBreaking: FlowLineBreaking? = nil, pixelScale: Double? = nil,
            font: TextFont? = nil, labelPadding: FlowLabelPadding? = nil
        ) {
            self.font = font
            self.labelPadding = labelPadding
            self.containerWidth = containerWidth
            self.items = items
            self.horizontalSpacing = horizontalSpacing
            self.verticalSpacing = verticalSpacing
            self.columnGap = columnGap
            self.rowGap = rowGap
            self.alignment = alignment
            self.rowAlignment = rowAlignment
            self.direction = direction
            self.maxRows = maxRows
            self.overflowIndicator = overflowIndicator
            self.lineBreaking = lineBreaking
            self.pixelScale = pixelScale
        }
    }

    /// The answer of POST /v1/flow/layout.
    public struct FlowLayoutResponse: Sendable, Equatable, Codable {
        /// A visible item's own rectangle (inside its padding), its request index and its row.
        public struct PlacedItem: Sendable, Equatable, Codable {
            public var id: TrellisID?
            /// The item's position in the request.
            public var index: Int
            public var row: Int
            public var x: Double
            public var y: Double
            public var width: Double
            public var height: Double
            /// A label laid out as a paragraph (with maxWidth, or with the request's whiteSpace): its lines (from the
            /// chip's content box), its line count, whether it was cut, and its ellipsis when one is drawn.
            public var lines: [TextLayoutResponse.Line]? = nil
            public var lineCount: Int?
            public var truncated: Bool?
            public var ellipsis: TextLayoutResponse.Ellipsis? = nil

            public init(
                id: TrellisID? = nil, index: Int, row: Int, x: Double, y: Double, width: Double, height: Double,
                lineCount: Int? = nil, truncated: Bool? = nil
            ) {
                self.lineCount = lineCount
                self.truncated = truncated
                self.id = id
                self.index = index
                self.row = row
                self.x = x
                self.y = y
                self.width = width
                self.height = height
            }
        }

        /// A row: its top, height (tallest cell), used width, first item index and visible item count.
        public struct Row: Sendable, Equatable, Codable {
            public var y: Double
            public var height: Double
            public var width: Double
            public var start: Int
            public var count: Int

            public init(y: Double, height: Double, width: Double, start: Int, count: Int) {
                self.y = y
                self.height = height
                self.width = width
                self.start = start
                self.count = count
            }
        }

        /// The "+N more" chip's own rectangle and N, the number of hidden items.
        public struct OverflowIndicator: Sendable, Equatable, Codable {
            public var x: Double
            public var y: Double
            public var width: Double
            public var height: Double
            public var count: Int
            /// A chip given as text with the request's whiteSpace: its label's lines for the count it shows.
            public var lines: [TextLayoutResponse.Line]? = nil
            public var lineCount: Int? = nil
            public var truncated: Bool? = nil
            public var ellipsis: TextLayoutResponse.Ellipsis? = nil

            public init(x: Double, y: Double, width: Double, height: Double, count: Int) {
                self.x = x
                self.y = y
                self.width = width
                self.height = height
                self.count = count
            }
        }

        /// The visible items in request order.
        public var items: [PlacedItem]
        public var rows: [Row]
        /// containerWidth and the total height.
        public var size: Size
        /// Items hidden by maxRows.
        public var hiddenCount: Int
        /// Present only when requested (with maxRows) and items are hidden.
        public var overflowIndicator: OverflowIndicator?

        public init(
            items: [PlacedItem], rows: [Row], size: Size, hiddenCount: Int, overflowIndicator: OverflowIndicator? = nil
        ) {
            self.items = items
            self.rows = rows
            self.size = size
            self.hiddenCount = hiddenCount
            self.overflowIndicator = overflowIndicator
        }
    }
}
