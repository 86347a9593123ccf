/// Why a search over an outline's labels gives no answer.
public enum OutlineSearchRefusal: Error, Sendable, Equatable {
    /// Rule: a searched label has at most `OutlineSearch.maxLabelBytes` bytes; these nodes' labels have more (in
    /// node order).
    case labelsTooLong([Int])
    /// The caller's WorkMeter said stop (its deadline passed).
    case stopped
}
