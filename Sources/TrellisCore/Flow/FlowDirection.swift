/// Inline direction: rtl is the mirror image of ltr.
public enum FlowDirection: Sendable, Equatable, CaseIterable {
    case ltr
    case rtl
}
