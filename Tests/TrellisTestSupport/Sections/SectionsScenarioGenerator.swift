/// Random valid sections toggle requests (ones the API accepts with 200), reproducible from a seed,
/// for the core's randomized test and the endpoint's.
public struct SectionsScenarioGenerator: Sendable {
    /// Distinct ids, none canonically equivalent to another (Swift's String == would merge those).
    public static let idPool: [String] = [
        "食べ物", "飲み物", "デザート", "前菜", "🍰", "Ünïcödé", "a", "b", "sec 9", "x\u{1F1EF}\u{1F1F5}y",
    ]

    private var rng: SplitMix64
    public var maxSections = 6
    public var maxActions = 24

    public init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    public mutating func next() -> SectionsScenario {
        let count = Int.random(in: 0...maxSections, using: &rng)
        let sections = Array(Self.idPool.shuffled(using: &rng).prefix(count))
        let mode: SectionsScenario.Model.Mode = Bool.random(using: &rng) ? .multiple : .single
        let collapsible = Int.random(in: 0..<3, using: &rng) != 0

        var expanded: [String]
        switch mode {
        case .multiple:
            expanded = sections.filter { _ in Bool.random(using: &rng) }.shuffled(using: &rng)
        case .single:
            expanded = sections.isEmpty || Bool.random(using: &rng) ? [] : [sections.randomElement(using: &rng)!]
        }

        let length = Int.random(in: 0...maxActions, using: &rng)
        let actions = (0..<length).map { _ in randomAction(sections: sections, mode: mode) }
        return SectionsScenario(sections: sections, expanded: expanded, mode: mode, collapsible: collapsible, actions: actions)
    }

    private mutating func randomAction(sections: [String], mode: SectionsScenario.Model.Mode) -> SectionsScenario.Model.Action {
        var kinds = ["collapseAll"]
        if mode == .multiple {
            kinds.append("expandAll")
        }
        if !sections.isEmpty {
            // Weighted towards the per-section actions, toggle most of all.
            kinds += ["toggle", "toggle", "toggle", "expand", "expand", "collapse", "collapse"]
        }
        switch kinds.randomElement(using: &rng)! {
        case "toggle": return .toggle(sections.randomElement(using: &rng)!)
        case "expand": return .expand(sections.randomElement(using: &rng)!)
        case "collapse": return .collapse(sections.randomElement(using: &rng)!)
        case "expandAll": return .expandAll
        default: return .collapseAll
        }
    }
}
