/// The ordered sections' open flags, with `mode` and `collapsible` as configuration.
///
/// Every action is O(1): in single mode the state is the one open section; in multiple mode each
/// section's flag counts only when it was set since the last expandAll or collapseAll, which set the
/// flag of every other section at once.
public struct SectionsState: Sendable {
    /// Multiple open sections, or an accordion.
    public let mode: SectionsMode
    /// Rule: `collapsible` is only consulted in single mode.
    public let collapsible: Bool
    /// The number of sections.
    public let count: Int
    /// Single mode: the open section.
    var open: Int?
    /// Multiple mode: a section's own flag, when its era is the current one; else `allOpen`.
    private var flags: [Bool]
    private var eras: [Int]
    private var era = 0
    private var allOpen = false

    /// Rule (single mode): at most one section is open; the API answers 422 otherwise, so here it is a precondition.
    public init(expanded: [Bool], mode: SectionsMode = .multiple, collapsible: Bool = true) {
        let open = expanded.indices.filter { expanded[$0] }
        precondition(mode == .multiple || open.count <= 1, "SectionsState: single mode allows at most one expanded section")
        self.mode = mode
        self.collapsible = collapsible
        count = expanded.count
        self.open = mode == .single ? open.first : nil
        flags = mode == .multiple ? expanded : []
        eras = mode == .multiple ? [Int](repeating: 0, count: expanded.count) : []
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

    /// Whether the section is open.
    public func isExpanded(_ index: Int) -> Bool {
        switch mode {
        case .single: open == index
        case .multiple: eras[index] == era ? flags[index] : allOpen
        }
    }

    /// Each section's open flag, in section order (O(count)).
    public var expanded: [Bool] { (0..<count).map(isExpanded) }

    /// The open sections in section order.
    public var expandedIndices: [Int] { (0..<count).filter(isExpanded) }

    /// Multiple mode: sets one section's flag.
    mutating func set(_ index: Int, _ value: Bool) {
        flags[index] = value
        eras[index] = era
    }

    /// Multiple mode: sets every section's flag.
    mutating func setAll(_ value: Bool) {
        allOpen = value
        era += 1
    }
}

extension SectionsState: Equatable, Hashable {
    public static func == (a: SectionsState, b: SectionsState) -> Bool {
        a.mode == b.mode && a.collapsible == b.collapsible && a.expanded == b.expanded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mode)
        hasher.combine(collapsible)
        hasher.combine(expanded)
    }
}
