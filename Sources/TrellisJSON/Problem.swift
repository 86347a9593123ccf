/// One thing wrong with a request body, at a JSON Pointer into it.
public struct Problem: Equatable, Sendable {
    public var pointer: String
    public var detail: String

    public init(pointer: String, detail: String) {
        self.pointer = pointer
        self.detail = detail
    }
}
