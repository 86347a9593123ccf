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
}
