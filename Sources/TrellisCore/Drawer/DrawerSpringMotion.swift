// The C math library (exp, expm1, log, sin, cos), from whichever module provides it on this platform.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// Progress p(t) of a unit-mass damped oscillator from p(0), p′(0) towards 1.
///
/// With x = p − 1, ζ = dampingFraction, ω₀ = 2π / response, x₀ = p(0) − 1, v₀ = p′(0), B = v₀ + ζω₀x₀:
/// - underdamped (ζ < 1), ω_d = ω₀√(1 − ζ²): x(t) = e^(−ζω₀t) · (x₀ cos ω_d t + (B / ω_d) sin ω_d t)
/// - critically damped (ζ = 1): x(t) = e^(−ω₀t) · (x₀ + (v₀ + ω₀x₀) t)
/// - overdamped (ζ > 1), γ = ω₀√(ζ² − 1): x(t) = e^(−ζω₀t) · (x₀ cosh γt + (B / γ) sinh γt)
///   = C₁e^(r₁t) + C₂e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)), C₁,₂ = (x₀ ± B/γ) / 2
/// All three are x = x₀·C(t) + B·S(t) with C(0) = 1, S(0) = 0, S′ = C − ζω₀S, and then
/// x′(t) = v₀·C(t) − (ω₀²x₀ + ζω₀v₀)·S(t).
public struct DrawerSpringMotion: Sendable, Equatable, Hashable {
    /// Rule: the motion has settled once |1 − p| stays below 0.001.
    public static let settlingTolerance = 0.001

    /// The spring that drives the motion.
    public let spring: DrawerSpring
    /// p(0): 0 at rest in the old state.
    public let initialProgress: Double
    /// Progress per second.
    public let initialVelocity: Double

    /// A motion from p(0) with p′(0); at rest at 0 by default.
    public init(spring: DrawerSpring, initialProgress: Double = 0, initialVelocity: Double = 0) {
        self.spring = spring
        self.initialProgress = initialProgress
        self.initialVelocity = initialVelocity
    }

    /// Rule: with a start, p(0) = (start.x − fromX) / (toX − fromX) and p′(0) = start.velocity / (toX − fromX); without one, at rest at fromX.
    public init(spring: DrawerSpring, fromX: Double, toX: Double, start: DrawerMotionStart?) {
        precondition(toX != fromX, "a transition travels a non-zero distance")
        let travel = toX - fromX
        self.init(
            spring: spring,
            initialProgress: start.map { ($0.x - fromX) / travel } ?? 0,
            initialVelocity: start.map { $0.velocity / travel } ?? 0
        )
    }

    private var x0: Double { initialProgress - 1 }
    private var v0: Double { initialVelocity }
    private var w0: Double { spring.angularFrequency }
    private var zeta: Double { spring.dampingFraction }
    private var b: Double { v0 + zeta * w0 * x0 }

    /// The closed form p(t) above.
    public func progress(at t: Double) -> Double {
        if t == 0 { return initialProgress }
        let (c, s) = basis(t).cs
        return 1 + (x0 * c + b * s)
    }

    /// The basis C(t), S(t) of the three regimes, evaluated without cancellation near ζ = 1, and the exponentials
    /// they are made of (e^(−ζω₀t) or e^(−ω₀t); overdamped e^(r₁t) and e^(r₂t)).
    private func basis(_ t: Double) -> (cs: (c: Double, s: Double), e1: Double, e2: Double) {
        switch spring.regime {
        case .underdamped:
            let wd = spring.dampedAngularFrequency
            let decay = exp(-zeta * w0 * t)
            return ((decay * cos(wd * t), decay * sin(wd * t) / wd), decay, 0)
        case .criticallyDamped:
            let decay = exp(-w0 * t)
            return ((decay, t * decay), decay, 0)
        case .overdamped:
            let root = ((zeta - 1) * (zeta + 1)).squareRoot()
            let gamma = w0 * root
            let e1 = exp(-w0 / (zeta + root) * t)
            let e2 = exp(-w0 * (zeta + root) * t)
            let s = 2 * gamma * t > 1 ? (e1 - e2) / (2 * gamma) : e2 * expm1(2 * gamma * t) / (2 * gamma)
            return (((e1 + e2) / 2, s), e1, e2)
        }
    }

    /// How many monotone pieces settlingDuration walks back through before it settles for a bound.
    public static let maxSettlingPieces = 100_000

    /// |1 − p(t)| − 0.001, whose last zero is the settling time.
    private func excess(_ t: Double) -> Double {
        abs(progress(at: t) - 1) - Self.settlingTolerance
    }

    /// Rule: the settling duration is the first time from which |1 − p(t)| < 0.001 forever.
    ///
    /// An envelope |x(t)| ≤ g(t) gives an upper bracket T⁺; the zeros of x and x′ (closed form) split [0, T⁺]
    /// into pieces on which |x| is monotone; walking back from T⁺, the first piece whose left end is outside
    /// the band holds the last crossing, located by bisection. 0 when p never leaves the band. Past
    /// `maxSettlingPieces` pieces (a spring that rings that many half-periods) the walk stops and returns
    /// the time it reached, an upper bound from which p stays in the band: no input loops forever.
    public func settlingDuration() -> Double {
        let tolerance = Self.settlingTolerance
        if x0 == 0 && v0 == 0 { return 0 }
        var right = envelopeBound(level: tolerance)
        if !(right > 0) || !right.isFinite { return right.isFinite ? 0 : .greatestFiniteMagnitude }
        for _ in 0..<Self.maxSettlingPieces where right > 0 {
            let left = previousBreakpoint(before: right)
            if excess(left) >= 0 {
                return lastCrossing(between: left, and: right)
            }
            right = left
        }
        return right
    }

    /// Bisection on excess with excess(lo) ≥ 0 ≥ excess(hi); returns the end inside the band.
    private func lastCrossing(between lo: Double, and hi: Double) -> Double {
        var lo = lo
        var hi = hi
        if excess(hi) >= 0 { return hi }
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if mid <= lo || mid >= hi { break }
            if excess(mid) >= 0 { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// A time after which the envelope keeps |x| ≤ level: the upper end of the settling bracket.
    ///
    /// |C| ≤ e^(−λt) and |S| ≤ t·e^(−λt) (λ = ζω₀, or −r₁ when overdamped) give g = (|x₀| + |B|t)e^(−λt);
    /// underdamped also |x| ≤ √(x₀² + (B/ω_d)²)·e^(−ζω₀t), overdamped also |x| ≤ (|x₀| + |B|/2γ)·e^(r₁t).
    private func envelopeBound(level: Double) -> Double {
        switch spring.regime {
        case .underdamped:
            let rate = zeta * w0
            let wd = spring.dampedAngularFrequency
            let amplitude = (x0 * x0 + (b / wd) * (b / wd)).squareRoot()
            return min(
                Self.decayTime(amplitude: amplitude, slope: 0, rate: rate, level: level),
                Self.decayTime(amplitude: abs(x0), slope: abs(b), rate: rate, level: level)
            )
        case .criticallyDamped:
            return Self.decayTime(amplitude: abs(x0), slope: abs(b), rate: w0, level: level)
        case .overdamped:
            let root = ((zeta - 1) * (zeta + 1)).squareRoot()
            let gamma = w0 * root
            let rate = w0 / (zeta + root)
            return min(
                Self.decayTime(amplitude: abs(x0) + abs(b) / (2 * gamma), slope: 0, rate: rate, level: level),
                Self.decayTime(amplitude: abs(x0), slope: abs(b), rate: rate, level: level)
            )
        }
    }

    /// The earliest T ≥ 0 with (amplitude + slope·t)·e^(−rate·t) ≤ level for all t ≥ T.
    private static func decayTime(amplitude: Double, slope: Double, rate: Double, level: Double) -> Double {
        if slope == 0 {
            return amplitude <= level ? 0 : log(amplitude / level) / rate
        }
        let g = { (t: Double) in (amplitude + slope * t) * exp(-rate * t) }
        let peak = max(0, 1 / rate - amplitude / slope)
        if g(peak) <= level { return 0 }
        var lo = peak
        var width = 1 / rate
        while g(peak + width) > level {
            lo = peak + width
            width *= 2
        }
        var hi = peak + width
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if mid <= lo || mid >= hi { break }
            if g(mid) > level { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// The latest zero of x or x′ strictly before `time` (less a sliver), or 0: |x| is monotone between them.
    private func previousBreakpoint(before time: Double) -> Double {
        let displacementZero = previousZero(before: time, a: x0, b: b)
        let velocityZero = previousZero(before: time, a: v0, b: -(w0 * w0 * x0 + zeta * w0 * v0))
        return max(0, displacementZero ?? 0, velocityZero ?? 0)
    }

    /// The latest t in (0, time) with a·C(t) + b·S(t) = 0, i.e. S/C = −a/b: tan(ω_d t)/ω_d, t, or tanh(γt)/γ.
    private func previousZero(before time: Double, a: Double, b: Double) -> Double? {
        if a == 0 && b == 0 { return nil }
        let ratio = -a / b
        switch spring.regime {
        case .underdamped:
            let wd = spring.dampedAngularFrequency
            let period = Double.pi / wd
            let phase = b == 0 ? Double.pi / 2 : atan(ratio * wd)
            let sliver = 1e-9 * period
            var n = ((time * wd - phase) / Double.pi).rounded(.down)
            var candidate = (phase + n * Double.pi) / wd
            // At most two steps back; past 2^53 half-periods a step no longer moves the candidate.
            for _ in 0..<3 where candidate > time - sliver {
                n -= 1
                candidate = (phase + n * Double.pi) / wd
            }
            return candidate > 0 && candidate < time ? candidate : nil
        case .criticallyDamped:
            guard b != 0, ratio > 0, ratio < time * (1 - 1e-9) else { return nil }
            return ratio
        case .overdamped:
            let gamma = w0 * ((zeta - 1) * (zeta + 1)).squareRoot()
            guard b != 0, ratio > 0, ratio * gamma < 1 else { return nil }
            let candidate = atanh(ratio * gamma) / gamma
            return candidate < time * (1 - 1e-9) ? candidate : nil
        }
    }

    /// Rule: keyframes sample p at frameRate from t = 0 through the first frame at or after the settling duration, which reports exactly 1.
    public func keyframes(frameRate: Double) -> [DrawerKeyframe] {
        keyframes(frameRate: frameRate, settlingDuration: settlingDuration())
    }

    public func keyframes(frameRate: Double, settlingDuration: Double) -> [DrawerKeyframe] {
        let last = Self.lastFrame(frameRate: frameRate, settlingDuration: settlingDuration)
        return (0...last).map { frame in
            let t = Double(frame) / frameRate
            return DrawerKeyframe(t: t, progress: frame == last ? 1 : progress(at: t))
        }
    }

    /// The first frame at or after the settling duration: keyframes are frames 0 through it.
    public static func lastFrame(frameRate: Double, settlingDuration: Double) -> Int {
        var last = Int((settlingDuration * frameRate).rounded(.up))
        while last > 0 && Double(last - 1) / frameRate >= settlingDuration { last -= 1 }
        while Double(last) / frameRate < settlingDuration { last += 1 }
        return last
    }

    /// Rule: a bound on |p″(s)| for every s ≥ t, never increasing with t: the least of two.
    /// - The energy E = (x′² + k x²)/2 never increases (E′ = −c x′²), and |x″| ≤ c|x′| + k|x| ≤ √(2E)(c + √k), so
    ///   √(2E(t))(c + √k) bounds every later |x″|.
    /// - The regime's envelope, each term decaying:
    ///   underdamped, x = A e^(−ζω₀t) cos(ω_d t − φ), A = √(x₀² + (B/ω_d)²): |x″| ≤ ω₀²·A·e^(−ζω₀t);
    ///   critically damped, x″ = e^(−ω₀t)(ω₀²(x₀ + Bt) − 2ω₀B): |x″| ≤ (ω₀²|x₀| + 2ω₀|B| + ω₀²|B|t)e^(−ω₀t);
    ///   overdamped, x″ = C₁r₁²e^(r₁t) + C₂r₂²e^(r₂t): |x″| ≤ |C₁|r₁²e^(r₁t) + |C₂|r₂²e^(r₂t).
    /// The energy bound is the tighter near ζ = 1, where the envelopes' constants grow without bound; the envelope
    /// elsewhere (an overdamped spring's energy bound overstates its slow decay's curvature by about 8ζ³).
    public func curvatureBound(from t: Double) -> Double {
        sample(at: t).curvatureBound
    }

    /// p(t) and curvatureBound(from: t), from one evaluation of the basis.
    func sample(at t: Double) -> (progress: Double, curvatureBound: Double) {
        // At t = 0 the basis is (1, 0) in every regime, even where its constants overflow.
        var (c, s, e1, e2) = (1.0, 0.0, 1.0, 1.0)
        if t != 0 { ((c, s), e1, e2) = basis(t) }
        let x = x0 * c + b * s
        let velocity = v0 * c - (w0 * w0 * x0 + zeta * w0 * v0) * s
        let k = spring.stiffness
        let energy = (velocity * velocity + k * x * x).squareRoot() * (spring.damping + k.squareRoot())
        let envelope: Double
        switch spring.regime {
        case .underdamped:
            let wd = spring.dampedAngularFrequency
            envelope = w0 * w0 * (x0 * x0 + (b / wd) * (b / wd)).squareRoot() * e1
        case .criticallyDamped:
            envelope = (w0 * w0 * abs(x0) + 2 * w0 * abs(b) + w0 * w0 * abs(b) * t) * e1
        case .overdamped:
            let root = ((zeta - 1) * (zeta + 1)).squareRoot()
            let gamma = w0 * root
            let r1 = w0 / (zeta + root), r2 = w0 * (zeta + root)
            let c1 = abs(x0 + b / gamma) / 2, c2 = abs(x0 - b / gamma) / 2
            envelope = c1 * r1 * r1 * e1 + c2 * r2 * r2 * e2
        }
        // An envelope whose constants overflow (NaN or infinite) leaves the energy bound.
        let bound = envelope < energy ? envelope : energy
        return (t == 0 ? initialProgress : 1 + x, bound)
    }
}
