/// A CSS `font-family` list: comma-separated names, each quoted ('…' or "…") or a run of unquoted
/// words (whitespace between them collapses to one space); unquoted `sans-serif`, `serif`,
/// `monospace` and `system-ui` are generic names.
public enum FontFamilyList {
    public enum Entry: Equatable, Sendable {
        case name(String)
        case generic(GenericFamily)
    }

    public enum GenericFamily: Equatable, Sendable, CaseIterable {
        case sansSerif, serif, monospace, systemUI

        /// Rule: the family each one means unless the server is started with another (the DejaVu families;
        /// system-ui is DejaVu Sans).
        public var defaultFamily: String {
            switch self {
            case .sansSerif, .systemUI: "DejaVu Sans"
            case .serif: "DejaVu Serif"
            case .monospace: "DejaVu Sans Mono"
            }
        }
    }

    /// Why a list cannot be read.
    public enum Mistake: Error, Equatable, Sendable {
        case emptyName
        case unclosedQuote
        case textAfterQuote
    }

    /// The entries in order; a mistake when an entry is empty or a quote is not closed where it should be.
    public static func parse(_ text: String) -> Result<[Entry], Mistake> {
        var entries: [Entry] = []
        var scalars = text.unicodeScalars[...]
        while true {
            skipSpace(&scalars)
            guard let first = scalars.first else { return .failure(.emptyName) }
            if first == "\"" || first == "'" {
                scalars.removeFirst()
                var name = String.UnicodeScalarView()
                var closed = false
                while let scalar = scalars.popFirst() {
                    if scalar == first { closed = true; break }
                    if scalar == "\\", let escaped = scalars.popFirst() { name.append(escaped); continue }
                    name.append(scalar)
                }
                guard closed else { return .failure(.unclosedQuote) }
                guard !name.isEmpty else { return .failure(.emptyName) }
                entries.append(.name(String(name)))
                skipSpace(&scalars)
                guard scalars.isEmpty || scalars.first == "," else { return .failure(.textAfterQuote) }
            } else {
                var words: [String] = []
                var word = String.UnicodeScalarView()
                while let scalar = scalars.first, scalar != "," {
                    scalars.removeFirst()
                    if scalar == "\"" || scalar == "'" { return .failure(.textAfterQuote) }
                    if isSpace(scalar) {
                        if !word.isEmpty { words.append(String(word)); word = String.UnicodeScalarView() }
                    } else {
                        word.append(scalar)
                    }
                }
                if !word.isEmpty { words.append(String(word)) }
                guard !words.isEmpty else { return .failure(.emptyName) }
                let name = words.joined(separator: " ")
                if words.count == 1, let generic = GenericFamily.allCases.first(where: { $0.cssName == asciiLowercased(name) }) {
                    entries.append(.generic(generic))
                } else {
                    entries.append(.name(name))
                }
            }
            guard scalars.popFirst() != nil else { return .success(entries) }
        }
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
    }

    static func skipSpace(_ scalars: inout Substring.UnicodeScalarView) {
        while let scalar = scalars.first, isSpace(scalar) { scalars.removeFirst() }
    }

    static func asciiUppercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// Rule: family names match case-insensitively (ASCII case, as CSS compares them).
    public static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

extension FontFamilyList.GenericFamily {
    /// The keyword as CSS spells it.
    public var cssName: String {
        switch self {
        case .sansSerif: "sans-serif"
        case .serif: "serif"
        case .monospace: "monospace"
        case .systemUI: "system-ui"
        }
    }
}
