/// The buffers one label's scan writes, kept between labels: while collecting, each scalar's UTF-16 start and
/// whether it is a combining mark, the occurrences as differences per scalar (`coverage` counts those covering a
/// scalar, `crossing` those covering it and the one before), and three rings indexed by folded position: the terms
/// to open again there (two words, when the slot's stamp is that position), and the label scalar of each of the
/// last positions. Raw buffers, so that the scan's writes are plain stores; a search writes only a scratch it
/// alone holds (a copy of a search makes its own), which is what makes it a value.
final class OutlineSearchScratch: @unchecked Sendable {
    // @unchecked: only the one search that holds it uniquely writes it (OutlineSearch.scan checks).
    private(set) var labelCapacity = 0
    private(set) var coverage: UnsafeMutablePointer<Int32>
    private(set) var crossing: UnsafeMutablePointer<Int32>
    private(set) var utf16Starts: UnsafeMutablePointer<UInt32>
    private(set) var marks: UnsafeMutablePointer<Bool>
    let slots: Int
    let ring: UnsafeMutablePointer<UInt64>
    let ringStamp: UnsafeMutablePointer<Int>
    let origins: UnsafeMutablePointer<UInt32>

    /// Rings of `slots` positions (a power of two above the longest term).
    init(slots: Int) {
        self.slots = slots
        ring = .allocate(capacity: 2 * slots)
        ring.initialize(repeating: 0, count: 2 * slots)
        ringStamp = .allocate(capacity: slots)
        ringStamp.initialize(repeating: -1, count: slots)
        origins = .allocate(capacity: slots)
        origins.initialize(repeating: 0, count: slots)
        coverage = .allocate(capacity: 2)
        crossing = .allocate(capacity: 2)
        utf16Starts = .allocate(capacity: 1)
        marks = .allocate(capacity: 1)
    }

    /// Room for a label of `bytes` (at most as many scalars), the differences cleared.
    func prepare(labelBytes bytes: Int) {
        if bytes > labelCapacity {
            let capacity = max(bytes, 2 * labelCapacity)
            coverage.deallocate()
            crossing.deallocate()
            utf16Starts.deallocate()
            marks.deallocate()
            coverage = .allocate(capacity: capacity + 2)
            crossing = .allocate(capacity: capacity + 2)
            utf16Starts = .allocate(capacity: capacity + 1)
            marks = .allocate(capacity: capacity + 1)
            labelCapacity = capacity
        }
        coverage.initialize(repeating: 0, count: bytes + 2)
        crossing.initialize(repeating: 0, count: bytes + 2)
    }

    deinit {
        ring.deallocate()
        ringStamp.deallocate()
        origins.deallocate()
        coverage.deallocate()
        crossing.deallocate()
        utf16Starts.deallocate()
        marks.deallocate()
    }
}
