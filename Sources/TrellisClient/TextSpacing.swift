extension TrellisClient {
    /// CSS hyphens (`auto` is not offered).
    public enum TextHyphens: String, Sendable, Codable, CaseIterable {
        case manual, none
    }

    /// CSS letter-spacing and word-spacing: a length in px, or in em (times the font size); negative narrows.
    public enum TextSpacing: Sendable, Equatable, Codable {
        case px(Double)
        case em(Double)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let px = try? container.decode(Double.self) {
                self = .px(px)
                return
            }
            let text = try container.decode(String.self)
            let lowered = text.lowercased()
            if lowered == "normal" {
                self = .px(0)
            } else if lowered.hasSuffix("px"), let px = Double(text.dropLast(2)) {
                self = .px(px)
            } else if lowered.hasSuffix("em"), let em = Double(text.dropLast(2)) {
                self = .em(em)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a spacing: \(text)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .px(let px): try container.encode(px)
            case .em(let em): try container.encode("\(em)em")
            }
        }
    }
}
