/// Where rows break: greedy (CSS flex-wrap) or balanced (like CSS text-wrap: balance).
public enum FlowLineBreaking: Sendable, Equatable, CaseIterable {
    case greedy
    case balanced
}
