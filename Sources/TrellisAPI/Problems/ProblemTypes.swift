/// The problem types (RFC 9457 §3.1.1) besides about:blank that answers carry; docs/fonts.md and openapi.yaml
/// name them. They are tag URIs (RFC 4151): identifiers, not addresses to fetch.
public enum ProblemTypes {
    /// A request's `fontFaces` names a font that is not stored here (evicted, stored on another replica, lost in a
    /// restart): each such problem's pointer is at `/fontFaces/k/src`; upload the font and send the request again.
    public static let fontNotStored = "tag:trellis,2026:font-not-stored"

    /// A list layout request's `list` names a list that is not kept here (never kept, forgotten as newer lists came,
    /// kept by another replica or before a restart): the problem's pointer is at `/list`; send the rows again.
    public static let listNotKept = "tag:trellis,2026:list-not-kept"
}
