/// A samples file or recipe that cannot be read or expanded, said in one sentence.
public struct SampleError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
