/// The motion from the old state to the new one; present only when the action changed the state.
public struct DrawerTransition: Sendable, Equatable, Hashable {
    /// The panel's x at rest in the old state and in the new one; progress 0 is fromX, 1 is toX.
    public var panelFromX: Double
    public var panelToX: Double
    /// The mask opacity in the old state and in the new one, interpolated by the same progress.
    public var maskFromOpacity: Double
    public var maskToOpacity: Double
    /// The spring motion; `progress(at:)` gives p(t).
    public var motion: DrawerSpringMotion
    /// Seconds until |1 − p(t)| stays below 0.001.
    public var settlingDuration: Double
    /// The span the easing is fitted over: the settling duration rounded up to whole milliseconds.
    public var easingDuration: Double
    /// p(t) sampled at the input's frame rate.
    public var keyframes: [DrawerKeyframe]
    /// The CSS linear() easing's stops over easingDuration.
    public var easingStops: [DrawerEasingStop]

    /// A transition as DrawerResolver makes it.
    public init(
        panelFromX: Double,
        panelToX: Double,
        maskFromOpacity: Double,
        maskToOpacity: Double,
        motion: DrawerSpringMotion,
        settlingDuration: Double,
        easingDuration: Double,
        keyframes: [DrawerKeyframe],
        easingStops: [DrawerEasingStop]
    ) {
        self.panelFromX = panelFromX
        self.panelToX = panelToX
        self.maskFromOpacity = maskFromOpacity
        self.maskToOpacity = maskToOpacity
        self.motion = motion
        self.settlingDuration = settlingDuration
        self.easingDuration = easingDuration
        self.keyframes = keyframes
        self.easingStops = easingStops
    }
}
