import TrellisJSON

/// Reads nodes' labels from the tape for the row heights, on demand: a label that is not a string is none (an empty
/// row); one longer than `OutlineLimits.maxLabelBytes` is not laid out and is remembered as a problem.
final class OutlineLabelReader {
    let input: OutlineTreeInput
    let key: JSONKeys
    /// Nodes whose labels are too long, in the order they were read.
    private(set) var tooLong: [Int] = []

    init(_ input: OutlineTreeInput, key: JSONKeys) {
        self.input = input
        self.key = key
    }

    /// The node's label member, whatever it is.
    func value(of node: Int) -> JSONValue? {
        input.document.value(at: Int(input.positions[node])).fields(key)[0]
    }

    /// Rule: a node's label is its label member when a string (absent, null or anything else: none); a label
    /// has at most `OutlineLimits.maxLabelBytes` bytes of UTF-8.
    func label(of node: Int) -> String? {
        guard let value = value(of: node), value.kind == .string else { return nil }
        guard value.withStringBytes({ $0.count }) <= OutlineLimits.maxLabelBytes else {
            tooLong.append(node)
            return nil
        }
        return value.string
    }
}
