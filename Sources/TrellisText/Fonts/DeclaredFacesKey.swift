/// What a request's declared faces resolve from: its `@font-face` rules as the caller spells them (bytes that
/// determine the rules exactly: the same bytes read as the same rules over the same stored fonts), its font-family
/// list and the element's font properties. `FontStore` keeps the faces such a key resolved to.
public struct DeclaredFacesKey: Hashable, Sendable {
    public var declaration: [UInt8]
    public var family: String
    public var properties: FontProperties

    public init(declaration: [UInt8], family: String, properties: FontProperties) {
        self.declaration = declaration
        self.family = family
        self.properties = properties
    }

    /// The declaration and the family hashed as runs of bytes (byte by byte, or as a String, hashing them would cost
    /// more than reading them did).
    public func hash(into hasher: inout Hasher) {
        declaration.withUnsafeBytes { hasher.combine(bytes: $0) }
        var family = family
        family.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(properties)
    }

    public static func == (a: DeclaredFacesKey, b: DeclaredFacesKey) -> Bool {
        a.declaration.count == b.declaration.count
            && a.declaration.withUnsafeBytes { x in b.declaration.withUnsafeBytes { y in x.elementsEqual(y) } }
            && a.family == b.family && a.properties == b.properties
    }
}
