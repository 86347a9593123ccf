/// A visible item: its position in the request, its row, and its own rectangle (inside its padding).
public struct FlowPlacedItem: Sendable, Equatable {
    /// The item's position in the request.
    public var index: Int
    /// The row it is placed in.
    public var row: Int
    /// Its own rectangle (inside its padding), y downwards.
    public var rect: Rect

    /// A placement as FlowLayout.compute makes it.
    public init(index: Int, row: Int, rect: Rect) {
        self.index = index
        self.row = row
        self.rect = rect
    }
}
