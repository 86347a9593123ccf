/// A visible item: its position in the request, its row, and its own rectangle (inside its padding).
/// 40 bytes: positions and rows are kept in 32 bits (a request has at most a few million items).
public struct FlowPlacedItem: Sendable, Equatable {
    private var storedIndex: Int32
    private var storedRow: Int32
    /// Its own rectangle (inside its padding), y downwards.
    public var rect: Rect

    /// The item's position in the request.
    public var index: Int {
        get { Int(storedIndex) }
        set { storedIndex = Int32(truncatingIfNeeded: newValue) }
    }

    /// The row it is placed in.
    public var row: Int {
        get { Int(storedRow) }
        set { storedRow = Int32(truncatingIfNeeded: newValue) }
    }

    /// A placement as FlowLayout.compute makes it.
    public init(index: Int, row: Int, rect: Rect) {
        storedIndex = Int32(truncatingIfNeeded: index)
        storedRow = Int32(truncatingIfNeeded: row)
        self.rect = rect
    }
}
