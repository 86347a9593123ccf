/// Issue 5, request: the ordered sections' open flags, with `mode` and `collapsible` as configuration.
public struct SectionsState: Sendable, Equatable, Hashable {
    public let mode: SectionsMode
    /// Issue 5, `collapsible`: only consulted in single mode.
    public let collapsible: Bool
    public internal(set) var expanded: [Bool]

    /// Issue 5, single mode: more than one open section is a 422 in the API, so here a precondition.
    public init(expanded: [Bool], mode: SectionsMode = .multiple, collapsible: Bool = true) {
        precondition(
            mode == .multiple || expanded.lazy.filter { $0 }.count <= 1,
            "SectionsState: single mode allows at most one expanded section"
        )
        self.mode = mode
        self.collapsible = collapsible
        self.expanded = expanded
    }

    /// Issue 5, `expanded`: ids the API has mapped to indices; order and repetition do not matter.
    public init(count: Int, expanded indices: [Int] = [], mode: SectionsMode = .multiple, collapsible: Bool = true) {
        precondition(count >= 0, "SectionsState: negative section count")
        var flags = [Bool](repeating: false, count: count)
        for index in indices {
            precondition(flags.indices.contains(index), "SectionsState: expanded index \(index) out of 0..<\(count)")
            flags[index] = true
        }
        self.init(expanded: flags, mode: mode, collapsible: collapsible)
    }

    public var count: Int { expanded.count }

    /// Issue 5, response `expanded`: the open sections in section order.
    public var expandedIndices: [Int] { expanded.indices.filter { expanded[$0] } }
}
