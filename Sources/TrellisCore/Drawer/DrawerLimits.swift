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

/// Limits: a transition must settle within 60 s, and its keyframes and CSS easing samples together must fit the
/// work any one request may ask for.
public enum DrawerLimits {
    public static let maxSettlingDuration = 60.0
    /// Rule: keyframes plus easing samples allowed for a request, whatever its size.
    ///
    /// A drawer request is a few hundred bytes and its cost does not grow with its bytes, so its cost per byte is its
    /// cost per request, and a larger body buys no more. The answer bound (16 × the body + 1 MiB) would not bound it:
    /// it lets 200 bytes ask for 60 s of keyframes at 240 frames/s (14,401 of them, 690 KB), each about 150 ns to
    /// compute, format and send, about 13 × the default spring's whole request. Here a keyframe or an easing sample is
    /// one step (a sample costs about 90 ns), and the heaviest transitions within 2,500 steps cost 2 to 2.6 × the
    /// default spring's whole request (which takes about 160 steps; in the service alone, without the connection's
    /// fixed cost, 5 to 6.5 ×). The easing's samples follow its bends, not its duration, so
    /// this admits every spring of response up to 1.5 s and dampingFraction 0.2 to 2.5 (bounce 0.8 to −0.6), from
    /// rest, at every frame rate up to 240 (at most 2,241 steps); at 60 frames/s, dampingFraction 0.07 to 12. A
    /// motion refused for its start is planned once more from rest, to blame the start or the spring: a refusal
    /// costs at most twice this.
    public static let maxWork = 2_500

    /// Rule: the keyframes at `frameRate`: one per frame from 0 through the first frame at or after the settling time.
    public static func keyframeCount(frameRate: Double, settling: Double) -> Int {
        // Past what the frames of any limit could count, the exact frame is not needed.
        guard settling * frameRate < Double(Int32.max) else { return .max }
        return DrawerSpringMotion.lastFrame(frameRate: frameRate, settlingDuration: settling) + 1
    }

    /// The motion's settling duration, or the limit it breaks; the core's root finder runs only once the motion is known to be bounded.
    public static func settlingDuration(of motion: DrawerSpringMotion) -> Result<Double, DrawerLimitViolation> {
        let spring = motion.spring
        let finite = [spring.stiffness, spring.damping, motion.initialProgress, motion.initialVelocity, motion.curvatureBound(from: 0)]
        guard finite.allSatisfy(\.isFinite) else { return .failure(.nonFinite) }
        // Settling: still outside the ±0.001 band at 60 s means it settles later.
        guard abs(motion.progress(at: maxSettlingDuration) - 1) < DrawerSpringMotion.settlingTolerance else {
            return .failure(.settlesTooLate)
        }
        if spring.regime == .underdamped {
            guard underdampedSettlingLowerBound(motion) <= maxSettlingDuration else { return .failure(.settlesTooLate) }
        }
        let duration = motion.settlingDuration()
        guard duration <= maxSettlingDuration else { return .failure(.settlesTooLate) }
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
}
