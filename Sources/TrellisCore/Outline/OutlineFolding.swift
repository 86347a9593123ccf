// The Swift standard library's own Unicode tables: canonical decomposition and full case folding
// (CaseFolding.txt statuses C and F) are reachable only through its `_Unicode` SPI.
@_spi(_Unicode) import Swift
import Synchronization

/// How every Unicode scalar folds for a search, made once per block of 256 scalars the first time a label
/// has one of them, and kept: one table for searches that fold case and one for those that don't, shared by
/// every search (a block is immutable once made, so lookups take no lock). Each scalar's entry gives its folded
/// scalars with their marks flagged (diacritics are removed at lookup, per search), so a search costs a table
/// lookup per label scalar however many different scalars its labels hold. At most 4,352 blocks a table, of
/// 2 KiB and their folds; blocks where every scalar folds to itself and is no mark (most of Unicode) take no memory.
@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
public final class OutlineFolding: @unchecked Sendable {
    // @unchecked: a block's slot is written once, by a compare-exchange that publishes a block no one writes again.
    static let blockCount = 0x110000 >> 8
    /// A block whose scalars all fold to themselves and are no marks.
    static let identityBlock: UInt = 1

    /// Per table (0: case folded, 1: case-sensitive), the address of each made block (0: not made yet).
    private let slots: UnsafeMutablePointer<Atomic<UInt>>

    /// An empty table; blocks are made as searches need them.
    public init() {
        slots = .allocate(capacity: 2 * Self.blockCount)
        for i in 0..<(2 * Self.blockCount) { (slots + i).initialize(to: Atomic<UInt>(0)) }
    }

    deinit {
        for i in 0..<(2 * Self.blockCount) {
            let address = slots[i].load(ordering: .relaxed)
            if address > Self.identityBlock { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
        }
        slots.deinitialize(count: 2 * Self.blockCount)
        slots.deallocate()
    }

    // Entry: bit 63 made; bit 62 the scalar itself is a combining mark (Mn, Mc, Me); bit 61 it folds to itself
    // (then bit 60: it is Mn, removable), else bits 16–23 the folded length and bits 0–15 where its folded
    // scalars start in the block's tail. A folded scalar: its value, bit 30 Mn (removable), bit 29 a combining mark.
    static let made: UInt64 = 1 << 63
    static let selfIsMark: UInt64 = 1 << 62
    static let identity: UInt64 = 1 << 61
    static let identityIsNonspacing: UInt64 = 1 << 60
    static let nonspacing: UInt32 = 1 << 30
    static let combining: UInt32 = 1 << 29
    static let valueMask: UInt32 = (1 << 21) - 1

    /// A scalar's fold: its entry, and where its folded scalars are when it does not fold to itself.
    struct Folded {
        let entry: UInt64
        let tail: UnsafePointer<UInt32>?

        var isMark: Bool { entry & OutlineFolding.selfIsMark != 0 }
        var isIdentity: Bool { entry & OutlineFolding.identity != 0 }
        var count: Int { isIdentity ? 1 : Int((entry >> 16) & 0xFF) }

        /// The i-th folded scalar with its flags.
        func scalar(_ i: Int, of c: UInt32) -> UInt32 {
            if isIdentity {
                return c | (entry & OutlineFolding.identityIsNonspacing != 0 ? OutlineFolding.nonspacing | OutlineFolding.combining : 0)
                    | (entry & OutlineFolding.selfIsMark != 0 ? OutlineFolding.combining : 0)
            }
            return tail.map { $0[Int(entry & 0xFFFF) + i] } ?? c
        }
    }

    /// How `c` folds, its block made on first use.
    @inline(__always)
    func fold(_ c: Unicode.Scalar, caseSensitive: Bool) -> Folded {
        let slot = slots + (caseSensitive ? Self.blockCount : 0) + Int(c.value >> 8)
        var address = slot.pointee.load(ordering: .acquiring)
        if address == 0 { address = make(slot, block: Int(c.value >> 8), caseSensitive: caseSensitive) }
        if address == Self.identityBlock { return Folded(entry: Self.made | Self.identity, tail: nil) }
        let entries = UnsafePointer<UInt64>(bitPattern: address).unsafelyUnwrapped
        return Folded(entry: entries[Int(c.value & 0xFF)], tail: UnsafeRawPointer(entries + 256).assumingMemoryBound(to: UInt32.self))
    }

    /// Folds the block's 256 scalars and publishes them (another thread may have published the same block first).
    private func make(_ slot: UnsafeMutablePointer<Atomic<UInt>>, block: Int, caseSensitive: Bool) -> UInt {
        var entries = [UInt64](repeating: 0, count: 256)
        var tail: [UInt32] = []
        var scratch: [Unicode.Scalar] = []
        var plain = true
        for low in 0..<256 {
            guard let c = Unicode.Scalar(UInt32(block << 8 | low)) else {
                entries[low] = Self.made | Self.identity
                continue
            }
            let start = tail.count
            var ownCategory: Unicode.GeneralCategory?
            Self.fold(c, caseSensitive: caseSensitive, diacriticSensitive: true, scratch: &scratch) { d, category in
                if d == c { ownCategory = category }
                tail.append(d.value | (category == .nonspacingMark ? Self.nonspacing : 0) | (Self.isCombiningMark(category) ? Self.combining : 0))
            }
            let isMark = Self.isCombiningMark(ownCategory ?? c.properties.generalCategory)
            let mark = isMark ? Self.selfIsMark : 0
            if tail.count == start + 1 && tail[start] & Self.valueMask == c.value {
                let nonspacing = tail[start] & Self.nonspacing != 0
                tail.removeLast()
                entries[low] = Self.made | Self.identity | mark | (nonspacing ? Self.identityIsNonspacing : 0)
                if isMark { plain = false }
            } else {
                entries[low] = Self.made | mark | UInt64(tail.count - start) << 16 | UInt64(start)
                plain = false
            }
        }
        var address = Self.identityBlock
        if !plain {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: 256 * 8 + max(1, tail.count) * 4, alignment: 8)
            memory.initializeMemory(as: UInt64.self, from: entries, count: 256)
            (memory + 256 * 8).initializeMemory(as: UInt32.self, from: tail, count: tail.count)
            address = UInt(bitPattern: memory)
        }
        let (exchanged, original) = slot.pointee.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing)
        if exchanged { return address }
        if address > Self.identityBlock { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
        return original
    }

    // MARK: The folding rule

    /// Rule: c becomes NFD(c); unless case-sensitive, then full case folding (C and F) and NFD again;
    /// unless diacritic-sensitive, then every scalar of general category Mn is removed.
    /// `emit` gets each folded scalar with its general category. Scalars the case folding leaves
    /// unchanged (Changes_When_Casefolded false) skip it, and so the second NFD: both would give them back.
    static func fold(
        _ c: Unicode.Scalar, caseSensitive: Bool, diacriticSensitive: Bool, scratch: inout [Unicode.Scalar],
        _ emit: (Unicode.Scalar, Unicode.GeneralCategory) -> Void
    ) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: String(c)._nfd)
        if !caseSensitive && scratch.contains(where: { $0.properties.changesWhenCaseFolded }) {
            var cased = String.UnicodeScalarView()
            for d in scratch { cased.append(contentsOf: d.properties._caseFolded.unicodeScalars) }
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: String(cased)._nfd)
        }
        for d in scratch {
            let category = d.properties.generalCategory
            if diacriticSensitive || category != .nonspacingMark { emit(d, category) }
        }
    }

    /// The folded scalars of c, appended to `out`.
    static func fold(_ c: Unicode.Scalar, caseSensitive: Bool, diacriticSensitive: Bool, into out: inout [Unicode.Scalar]) {
        var scratch: [Unicode.Scalar] = []
        fold(c, caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive, scratch: &scratch) { d, _ in out.append(d) }
    }

    /// A combining mark: general category Mn, Mc or Me.
    static func isCombiningMark(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
