/// The rows of a search: the tree, the selection (a node index, or nil when absent or not found), the search and
/// the window (`offset` ≥ 0; `limit` ≥ 0 or nil for all). The labels are read as the rows are computed.
@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
public struct OutlineRowsSearchInput: Sendable {
    public var tree: OutlineTree
    public var selection: Int?
    public var search: OutlineSearch
    public var offset: Int
    public var limit: Int?

    public init(tree: OutlineTree, selection: Int?, search: OutlineSearch, offset: Int = 0, limit: Int? = nil) {
        precondition(offset >= 0 && (limit ?? 0) >= 0, "offset and limit are validated by the API layer")
        self.tree = tree
        self.selection = selection
        self.search = search
        self.offset = offset
        self.limit = limit
    }
}
