import CSimdJSON

/// RFC 6901 JSON Pointers.
public enum JSONPointer {
    /// Escapes one reference token: "~" → "~0", "/" → "~1" (one pass over the bytes).
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(token.utf8.count + 8)
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "~"): escaped += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): escaped += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    public static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }

    /// The pointers to the values at ascending tape indices, found in one forward walk from the
    /// root that skips every subtree holding none of them (no recursion: a stack of open containers).
    static func pointers(to targets: [Int], in document: tjson_document, root: Int = 1) -> [String] {
        var steps = 0
        return pointers(to: targets, in: document, root: root, steps: &steps)
    }

    /// The same, counting the tape entries the walk stepped over (tests check it stays one walk).
    static func pointers(to targets: [Int], in document: tjson_document, root: Int = 1, steps: inout Int) -> [String] {
        struct Frame {
            let index: Int
            let end: Int
            let isArray: Bool
            /// The child the walk stands at (an element, or a member's key) and its position.
            var cursor: Int
            var position = 0
        }
        func frame(_ index: Int) -> Frame? {
            let type = tjson_type_at(document, index)
            guard type == TJSON_ARRAY || type == TJSON_OBJECT else { return nil }
            return Frame(index: index, end: tjson_after(document, index), isArray: type == TJSON_ARRAY, cursor: index + 1)
        }
        var frames: [Frame] = frame(root).map { [$0] } ?? []
        // tokens[k] leads from frames[k] to frames[k + 1].
        var tokens: [String] = []
        func spelled(_ last: String? = nil) -> String {
            var text = ""
            for token in tokens { text += "/" + token }
            if let last { text += "/" + last }
            return text
        }
        var result: [String] = []
        result.reserveCapacity(targets.count)
        for target in targets {
            while let top = frames.last, !(target >= top.index && target < top.end) {
                frames.removeLast()
                if !tokens.isEmpty { tokens.removeLast() }
            }
            var pointer = ""
            descend: while var top = frames.last {
                if target == top.index { pointer = spelled(); break }
                // The last tape entry of a container is its end marker.
                while top.cursor < top.end - 1 {
                    let child = top.isArray ? top.cursor : top.cursor + 1
                    let next = tjson_after(document, child)
                    steps += 1
                    guard target >= top.cursor && target < next else {
                        top.cursor = next
                        top.position += 1
                        continue
                    }
                    frames[frames.count - 1] = top
                    let token = top.isArray
                        ? String(top.position)
                        : JSONValue(document: document, index: top.cursor).withStringBytes {
                            escape(String(decoding: $0, as: UTF8.self))
                        }
                    if target != child, let inner = frame(child) {
                        tokens.append(token)
                        frames.append(inner)
                        continue descend
                    }
                    pointer = spelled(token)
                    break descend
                }
                frames[frames.count - 1] = top
                pointer = spelled()
                break
            }
            result.append(pointer)
        }
        return result
    }
}
