import TrellisJSON

/// A value's spelling in requests and answers: the API alone names the core's enums. Each feature's names live in
/// its folder (`<Feature>WireNames.swift`); this is the shared mechanism.
protocol WireNamed: CaseIterable {
    var wireName: String { get }
}

extension JSONValue {
    /// One of an enumeration's wire names.
    func oneOf<E: WireNamed>(_ type: E.Type, _ problems: inout Problems) -> E? {
        guard let text = string, let value = E.allCases.first(where: { $0.wireName == text }) else {
            problems.add(at: self, "must be one of " + E.allCases.map { "\"\($0.wireName)\"" }.joined(separator: ", "))
            return nil
        }
        return value
    }
}
