/// A flex line during layout: a run of items and its used main size (cells and gaps).
struct FlowLine: Sendable, Equatable {
    var start: Int
    var count: Int
    var width: Double
}
