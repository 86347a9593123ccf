// The C math library (hypot, log), from whichever module provides it on this platform.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// Limits: a transition must settle within 60 s, its CSS easing must fit 100,000 samples, and its
/// keyframes and samples together must fit the work any one request may ask for.
public enum DrawerLimits {
    public static let maxSettlingDuration = 60.0
    public static let maxEasingSamples = DrawerLinearEasing.sampleCountLimit
    /// Rule: keyframes plus easing samples allowed for a request, whatever its size: a normal drawer request costs
    /// the same at any size, so a larger body buys no more work. The default spring at 60 frames/s needs about 1,000;
    /// the heaviest transitions within this cost about 2 × the default spring's whole request.
    public static let maxWork = 6_000

    /// Rule: the keyframes at `frameRate` (one per frame up to the settling time, both ends
    /// included) plus the CSS easing's samples over its duration.
    public static func work(of motion: DrawerSpringMotion, frameRate: Double, settling: Double) -> Int {
        let frames = (settling * frameRate).rounded(.up) + 2
        let samples = Double(DrawerLinearEasing.sampleCount(for: motion, duration: easingDuration(settling: settling)))
        let total = frames + samples
        return total < Double(Int.max) ? Int(total) : .max
    }

    /// The motion's settling duration, or the limit it breaks; the core's root finder runs only once the motion is known to be bounded.
    public static func settlingDuration(of motion: DrawerSpringMotion) -> Result<Double, DrawerLimitViolation> {
        let spring = motion.spring
        let finite = [spring.stiffness, spring.damping, motion.initialProgress, motion.initialVelocity, motion.curvatureBound]
        guard finite.allSatisfy(\.isFinite) else { return .failure(.nonFinite) }
        let step = easingStep(motion)
        // Settling: still outside the ±0.001 band at 60 s means it settles later.
        guard abs(motion.progress(at: maxSettlingDuration) - 1) < DrawerSpringMotion.settlingTolerance else {
            return .failure(.settlesTooLate)
        }
        if spring.regime == .underdamped {
            let earliest = underdampedSettlingLowerBound(motion)
            guard earliest <= maxSettlingDuration else { return .failure(.settlesTooLate) }
            guard earliest / step <= Double(maxEasingSamples) else { return .failure(.tooManySamples) }
        }
        let duration = motion.settlingDuration()
        guard duration <= maxSettlingDuration else { return .failure(.settlesTooLate) }
        guard (easingDuration(settling: duration) / step).rounded(.up) <= Double(maxEasingSamples) else {
            return .failure(.tooManySamples)
        }
        return .success(duration)
    }

    /// Underdamped: |x(t)| = A·e^(−ζω₀t)·|cos(ω_d t − φ)| meets its envelope every π/ω_d, so it settles after T_envelope − π/ω_d.
    static func underdampedSettlingLowerBound(_ motion: DrawerSpringMotion) -> Double {
        let zeta = motion.spring.dampingFraction
        let w0 = motion.spring.angularFrequency
        let wd = motion.spring.dampedAngularFrequency
        let x0 = motion.initialProgress - 1
        let b = motion.initialVelocity + zeta * w0 * x0
        let amplitude = hypot(x0, b / wd)
        let tolerance = DrawerSpringMotion.settlingTolerance
        guard amplitude > tolerance else { return 0 }
        let bound = log(amplitude / tolerance) / (zeta * w0) - Double.pi / wd
        return bound.isNaN ? .infinity : max(0, bound)
    }

    /// Rule: the CSS easing spans the settling duration rounded up to whole milliseconds, in seconds.
    public static func easingDuration(settling: Double) -> Double {
        (settling * 1000).rounded(.up) / 1000
    }

    /// DrawerLinearEasing's sample step: min(1 ms, √(8 · (maxError / 20) / max|p″|)).
    static func easingStep(_ motion: DrawerSpringMotion) -> Double {
        let curvature = max(motion.curvatureBound, .leastNormalMagnitude)
        return min(DrawerLinearEasing.maximumStep, (8 * (DrawerLinearEasing.defaultMaxError / 20) / curvature).squareRoot())
    }
}
