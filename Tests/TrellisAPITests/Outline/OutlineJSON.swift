import TrellisTestSupport

/// Request bodies for the outline endpoints, built from the shared random trees and as chains.
enum OutlineJSON {
    /// Nested form of a forest; `id` renders an id as JSON. Recursive: only for small test trees.
    static func nested(_ roots: [RefNode], id: (Int) -> String, idKey: String = "id", childrenKey: String = "children") -> String {
        func node(_ n: RefNode) -> String {
            let children = n.children.map { ",\"\(childrenKey)\":[" + $0.map(node).joined(separator: ",") + "]" } ?? ""
            return "{\"\(idKey)\":\(id(n.id)),\"label\":\"x\"" + children + "}"
        }
        return "[" + roots.map(node).joined(separator: ",") + "]"
    }

    /// Flat form of an indexed forest, in its array order; roots alternate between a null and an absent parent.
    static func flat(_ forest: IndexedForest, id: (Int) -> String, idKey: String = "id", parentKey: String = "parent") -> String {
        let nodes = forest.ids.indices.map { i in
            let parent = Int(forest.parents[i])
            let parentMember = parent >= 0 ? ",\"\(parentKey)\":\(id(forest.ids[parent]))" : (i % 2 == 0 ? ",\"\(parentKey)\":null" : "")
            return "{\"\(idKey)\":\(id(forest.ids[i]))" + parentMember + "}"
        }
        return "[" + nodes.joined(separator: ",") + "]"
    }

    /// A flat-form body holding a chain of `count` nodes "n0"…, then `extra` members.
    /// Node i's parent is "n(i+1)", so every parent follows its child.
    static func flatChain(count: Int, _ extra: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 40)
        bytes += Array(#"{"parentKey":"parent","nodes":["#.utf8)
        for i in 0..<count {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(#"{"id":"n"#.utf8) + Array(String(i).utf8)
            bytes += i == count - 1 ? Array(#"","parent":null}"#.utf8) : Array(#"","parent":"n"#.utf8) + Array(String(i + 1).utf8) + [34, 125]
        }
        bytes += Array(("]," + extra + "}").utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A nested-form body holding a chain of `levels` nodes with integer ids 0… (the deepest a leaf), then `extra` members.
    static func nestedChain(levels: Int, _ extra: String) -> String {
        var text = #"{"nodes":["#
        for k in 0..<levels - 1 { text += #"{"id":\#(k),"children":["# }
        text += #"{"id":\#(levels - 1)}"#
        text += String(repeating: "]}", count: levels - 1)
        return text + "]," + extra + "}"
    }
}
