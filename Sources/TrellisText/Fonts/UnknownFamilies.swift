import Synchronization

/// Family names in a request that no loaded face has.
public struct UnknownFamilies: Error, Equatable, Sendable {
    public var names: [String]
}
