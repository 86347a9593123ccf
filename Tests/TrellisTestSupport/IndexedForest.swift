/// A tree laid out as the API layer hands it to the core: node index i has client id `ids[i]`,
/// parent index `parents[i]` (-1 for a root) and, in nested form, a children member when `hasChildrenMember[i]`.
public struct IndexedForest: Equatable, Sendable {
    public var ids: [Int]
    public var parents: [Int32]
    public var hasChildrenMember: [Bool]

    public init(ids: [Int], parents: [Int32], hasChildrenMember: [Bool]) {
        self.ids = ids
        self.parents = parents
        self.hasChildrenMember = hasChildrenMember
    }

    public func index(of id: Int) -> Int? { ids.firstIndex(of: id) }
}
