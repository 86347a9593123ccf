import Synchronization

/// Why a family list names no faces: it is not a CSS list, or it names families that are not loaded.
public enum FamilyListProblem: Error, Equatable, Sendable {
    case mistake(FontFamilyList.Mistake)
    case unknown(UnknownFamilies)
}
