import TrellisCore

/// Numerical reference for the spring: x″ = −k·x − c·x′ with x = p − 1, integrated by classical RK4.
struct SpringODE {
    let stiffness: Double
    let damping: Double

    init(_ spring: DrawerSpring) {
        stiffness = spring.stiffness
        damping = spring.damping
    }

    /// (t, p, p′) every `every` steps of size `step`, from t = 0 to `duration`.
    func trajectory(progress: Double, velocity: Double, step: Double, duration: Double, every: Int) -> [(t: Double, p: Double, v: Double)] {
        var x = progress - 1
        var v = velocity
        var out = [(t: 0.0, p: progress, v: velocity)]
        let steps = Int((duration / step).rounded())
        let acceleration = { (x: Double, v: Double) in -stiffness * x - damping * v }
        for i in 1...steps {
            let k1x = v, k1v = acceleration(x, v)
            let k2x = v + step / 2 * k1v, k2v = acceleration(x + step / 2 * k1x, v + step / 2 * k1v)
            let k3x = v + step / 2 * k2v, k3v = acceleration(x + step / 2 * k2x, v + step / 2 * k2v)
            let k4x = v + step * k3v, k4v = acceleration(x + step * k3x, v + step * k3v)
            x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            if i % every == 0 { out.append((t: Double(i) * step, p: 1 + x, v: v)) }
        }
        return out
    }
}
