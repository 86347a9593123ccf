/// A named instance of a variable face (fvar): its subfamily name and its coordinate on each axis, in the
/// order of the face's axes.
public struct NamedInstance: Equatable, Sendable {
    public var name: String
    public var coordinates: [Double]

    public init(name: String, coordinates: [Double]) {
        self.name = name
        self.coordinates = coordinates
    }
}
