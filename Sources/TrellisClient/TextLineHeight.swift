extension TrellisClient {
    /// CSS line-height in each form the service takes: `normal` (the fonts' own line), a length in px (sent as a JSON
    /// number), a number times the font size (sent as `"1.5"`) or a percentage of the font size (sent as `"150%"`).
    /// A float or integer literal is px.
    public enum TextLineHeight: Sendable, Equatable, Codable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
        case normal
        case px(Double)
        case multiple(Double)
        case percent(Double)

        public init(floatLiteral value: Double) { self = .px(value) }
        public init(integerLiteral value: Int) { self = .px(Double(value)) }

        /// Reads each form the service takes: a JSON number (px), or a string "normal", "1.5", "150%" or "24px".
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let px = try? container.decode(Double.self) {
                self = .px(px)
                return
            }
            let text = try container.decode(String.self)
            let lowered = text.lowercased()
            if lowered == "normal" {
                self = .normal
            } else if lowered.hasSuffix("px"), let px = Double(text.dropLast(2)) {
                self = .px(px)
            } else if lowered.hasSuffix("%"), let percent = Double(text.dropLast()) {
                self = .percent(percent)
            } else if let multiple = Double(text) {
                self = .multiple(multiple)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a line height: \(text)")
            }
        }

        /// Rule: px is a JSON number; the other forms are strings as CSS writes them.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .normal: try container.encode("normal")
            case .px(let px): try container.encode(px)
            case .multiple(let multiple): try container.encode("\(multiple)")
            case .percent(let percent): try container.encode("\(percent)%")
            }
        }
    }
}
