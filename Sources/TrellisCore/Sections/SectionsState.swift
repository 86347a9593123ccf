/// The ordered sections' open flags, with `mode` and `collapsible` as configuration.
public struct SectionsState: Sendable, Equatable, Hashable {
    /// Multiple open sections, or an accordion.
    public let mode: SectionsMode
    /// Rule: `collapsible` is only consulted in single mode.
    public let collapsible: Bool
    /// Each section's open flag, in section order.
    public internal(set) var expanded: [Bool]

    /// Rule (single mode): at most one section is open; the API answers 422 otherwise, so here it is a precondition.
    public init(expanded: [Bool], mode: SectionsMode = .multiple, collapsible: Bool = true) {
        precondition(
            mode == .multiple || expanded.lazy.filter { $0 }.count <= 1,
            "SectionsState: single mode allows at most one expanded section"
        )
        self.mode = mode
        self.collapsible = collapsible
        self.expanded = expanded
    }

    /// Rule: `expanded` lists section indices (the API maps ids to them); order and repetition do not matter.
    public init(count: Int, expanded indices: [Int] = [], mode: SectionsMode = .multiple, collapsible: Bool = true) {
        precondition(count >= 0, "SectionsState: negative section count")
        var flags = [Bool](repeating: false, count: count)
        for index in indices {
            precondition(flags.indices.contains(index), "SectionsState: expanded index \(index) out of 0..<\(count)")
            flags[index] = true
        }
        self.init(expanded: flags, mode: mode, collapsible: collapsible)
    }

    /// The number of sections.
    public var count: Int { expanded.count }

    /// The open sections in section order.
    public var expandedIndices: [Int] { expanded.indices.filter { expanded[$0] } }
}
