/// Why a descriptor's text is not its CSS syntax: what it must be.
public struct FontSyntaxMistake: Error, Equatable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
