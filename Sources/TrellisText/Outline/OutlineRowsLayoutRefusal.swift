import TrellisCore

/// Why an outline's rows with wrapped labels are not laid out.
public enum OutlineRowsLayoutRefusal: Error, Sendable, Equatable {
    /// The search's: labels too long to be searched.
    case search(OutlineSearchRefusal)
    /// A label that cannot be laid out.
    case label(OutlineLabelRefusal)
}
