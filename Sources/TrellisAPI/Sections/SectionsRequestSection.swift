import TrellisJSON

/// `sections[i]`: the id, and the items echoed while the section is open.
struct SectionsRequestSection {
    /// The id as sent (a valid ClientID on the request's document).
    let id: JSONValue
    /// The `items` array as sent; nil when absent or null.
    let items: JSONValue?

    /// `itemCount`: always the full count.
    var itemCount: Int { items?.count ?? 0 }
}
