/// RFC 6901 JSON Pointers.
public enum JSONPointer {
    /// Escapes one reference token: "~" → "~0", "/" → "~1".
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    public static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }
}
