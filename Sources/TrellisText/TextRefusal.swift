import CHarfBuzzShim

/// Why a text cannot be measured.
public enum TextRefusal: Error, Equatable, Sendable {
    /// Rule: a control character or an explicit bidi embedding or isolate, at
    /// this scalar offset.
    case forbidden(scalar: UInt32, offset: Int)
    /// Rule: grapheme clusters (their scalars) that no face of the list shapes without .notdef.
    case uncovered([[UInt32]])
    /// Rule: a grapheme cluster of more scalars than TextMeasurer.maxClusterScalars,
    /// starting at this scalar offset.
    case clusterTooLong(offset: Int, scalars: Int)
    /// The caller's WorkMeter said stop (its deadline passed).
    case stopped
    /// Memory ran out in HarfBuzz or ICU.
    case outOfMemory
}
