/// SwiftUI's spring, given as response and dampingFraction, on a unit mass.
public struct DrawerSpring: Sendable, Equatable, Hashable {
    /// `.spring()` as declared in the iOS 13–16 SDKs the seed targets (response 0.55, dampingFraction 0.825); the default.
    public static let `default` = DrawerSpring(response: 0.55, dampingFraction: 0.825)

    /// Seconds for one undamped oscillation.
    public let response: Double
    /// ζ: below 1 bounces, 1 is critically damped, above 1 is overdamped.
    public let dampingFraction: Double

    /// SwiftUI's `.spring(response:dampingFraction:)`.
    public init(response: Double, dampingFraction: Double) {
        self.response = response
        self.dampingFraction = dampingFraction
    }

    /// Rule: response = duration; dampingFraction = 1 − bounce if bounce ≥ 0, else 1 / (1 + bounce).
    public init(duration: Double, bounce: Double) {
        self.init(response: duration, dampingFraction: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce))
    }

    /// The undamped angular frequency ω₀ = 2π / response.
    public var angularFrequency: Double {
        2 * Double.pi / response
    }

    /// The damped angular frequency ω_d = ω₀·√(1 − ζ²) of an underdamped spring (NaN otherwise).
    public var dampedAngularFrequency: Double {
        angularFrequency * ((1 - dampingFraction) * (1 + dampingFraction)).squareRoot()
    }

    /// The spring constant for a unit mass: stiffness = (2π / response)².
    public var stiffness: Double {
        angularFrequency * angularFrequency
    }

    /// The damping coefficient for a unit mass: damping = 4π · dampingFraction / response (= 2ζω₀).
    public var damping: Double {
        4 * Double.pi * dampingFraction / response
    }

    /// Underdamped, critically damped or overdamped, by dampingFraction.
    public var regime: DrawerDampingRegime {
        if dampingFraction < 1 { return .underdamped }
        if dampingFraction == 1 { return .criticallyDamped }
        return .overdamped
    }
}
