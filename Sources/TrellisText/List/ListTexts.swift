/// A list's paragraphs' texts, in order, as their UTF-8 bytes: a request's paragraphs are copied in from where the
/// parsed body keeps them, and a `String` is made only for a paragraph that is shaped (one the shaping cache keeps is
/// looked up by its bytes). Valid UTF-8 as `String` makes it: the API's texts are simdjson's, validated; `init(_:)`
/// takes Strings' own. The bytes are kept in blocks of at least 64 KiB, each text inside one, so that no text is
/// copied again as more come (one growing array copied them all at each doubling).
public struct ListTexts: Sendable {
    private var blocks: [[UInt8]] = []
    private var spans: [Span] = []
    static let blockBytes = 1 << 16

    private struct Span {
        var block: Int
        var start: Int
        var end: Int
    }

    public init() {}

    public init(_ texts: [String]) {
        for var text in texts { text.withUTF8 { append(utf8: UnsafeRawBufferPointer($0)) } }
    }

    /// Room for `count` texts' places (their bytes take blocks as they come).
    public mutating func reserveCapacity(_ count: Int) { spans.reserveCapacity(count) }

    /// Appends a text: `utf8`, its valid UTF-8 bytes.
    public mutating func append(utf8: UnsafeRawBufferPointer) {
        if blocks.isEmpty || utf8.count > room {
            var block: [UInt8] = []
            block.reserveCapacity(max(Self.blockBytes, utf8.count))
            room = block.capacity
            used = 0
            blocks.append(block)
        }
        let last = blocks.count - 1
        blocks[last].append(contentsOf: utf8.assumingMemoryBound(to: UInt8.self))
        spans.append(Span(block: last, start: used, end: used + utf8.count))
        used += utf8.count
        room -= utf8.count
    }

    /// The last block's bytes and the room left in it.
    private var used = 0
    private var room = 0

    public var count: Int { spans.count }

    /// The memory the texts hold: their blocks' room and their places.
    public var byteCapacity: Int { blocks.reduce(24 * spans.capacity) { $0 + $1.capacity } }

    /// Text `index`'s length in UTF-8 bytes.
    func byteCount(_ index: Int) -> Int { spans[index].end - spans[index].start }

    /// Text `index`'s bytes, valid inside `body`.
    func withUTF8<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let span = spans[index]
        return blocks[span.block].withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[span.start..<span.end])) }
    }

    /// Text `index` as a String.
    public subscript(index: Int) -> String {
        withUTF8(index) { String(decoding: $0, as: UTF8.self) }
    }
}
