extension TrellisClient {
    /// A font to measure in: a CSS font-family list of families from GET /v1/fonts (or sans-serif,
    /// serif, monospace, system-ui) or declared in the request's `fontFaces`, a size in CSS px, a weight (1–1000), a
    /// style, and the element's font-stretch, font-feature-settings, font-variation-settings and
    /// font-optical-sizing in CSS syntax.
    public struct TextFont: Sendable, Equatable, Codable {
        public var family: String
        public var size: Double
        public var weight: Int?
        public var style: TextFontStyle?
        /// A keyword (`condensed`) or a percentage (`87.5%`).
        public var stretch: String?
        /// `"liga" 0, "tnum"`.
        public var featureSettings: String?
        /// `"wght" 450, "slnt" -5`.
        public var variationSettings: String?
        /// `auto` or `none`.
        public var opticalSizing: String?

        public init(
            family: String, size: Double, weight: Int? = nil, style: TextFontStyle? = nil, stretch: String? = nil,
            featureSettings: String? = nil, variationSettings: String? = nil, opticalSizing: String? = nil
        ) {
            self.family = family
            self.size = size
            self.weight = weight
            self.style = style
            self.stretch = stretch
            self.featureSettings = featureSettings
            self.variationSettings = variationSettings
            self.opticalSizing = opticalSizing
        }
    }

    /// CSS font-style; oblique is matched as italic.
    public enum TextFontStyle: String, Sendable, Codable, CaseIterable {
        case normal, italic, oblique
    }

    /// The body of POST /v1/text/measure: at most 10,000 texts of at most 1,000 Unicode scalars each.
    public struct TextMeasureRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = TextMeasureResponse
        public static let path = "/v1/text/measure"

        public var font: TextFont
        /// @font-face rules over stored fonts that `font.family` may name.
        public var fontFaces: [FontFaceRule]?
        public var texts: [String]
        /// CSS letter-spacing and word-spacing, which widen (or narrow) each text as in a paragraph; nil is normal (0).
        public var letterSpacing: TextSpacing? = nil
        public var wordSpacing: TextSpacing? = nil

        public init(font: TextFont, fontFaces: [FontFaceRule]? = nil, texts: [String]) {
            self.font = font
            self.fontFaces = fontFaces
            self.texts = texts
        }
    }

    /// The answer of POST /v1/text/measure, in CSS px.
    public struct TextMeasureResponse: Sendable, Equatable, Codable {
        /// The primary face's line: lineHeight = ascent + descent + lineGap.
        public struct Metrics: Sendable, Equatable, Codable {
            public var size: Double
            public var ascent: Double
            public var descent: Double
            public var lineGap: Double
            public var lineHeight: Double

            public init(size: Double, ascent: Double, descent: Double, lineGap: Double, lineHeight: Double) {
                self.size = size
                self.ascent = ascent
                self.descent = descent
                self.lineGap = lineGap
                self.lineHeight = lineHeight
            }
        }

        public struct Measurement: Sendable, Equatable, Codable {
            public var width: Double
            public var height: Double

            public init(width: Double, height: Double) {
                self.width = width
                self.height = height
            }
        }

        public var font: Metrics
        /// One per text, in order.
        public var texts: [Measurement]

        public init(font: Metrics, texts: [Measurement]) {
            self.font = font
            self.texts = texts
        }
    }

    /// POST /v1/text/measure: the widths and line height of texts in one font, as Chromium lays them out.
    public func textMeasure(
        _ request: TextMeasureRequest, requestID: String? = nil
    ) async throws(TrellisClientError) -> TextMeasureResponse {
        try await send(request, requestID: requestID).value
    }
}
