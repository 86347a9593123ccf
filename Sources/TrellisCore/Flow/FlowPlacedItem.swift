/// A visible item: its position in the request, its row, and its own rectangle (inside its padding).
public struct FlowPlacedItem: Sendable, Equatable {
    public var index: Int
    public var row: Int
    public var rect: Rect

    public init(index: Int, row: Int, rect: Rect) {
        self.index = index
        self.row = row
        self.rect = rect
    }
}
