import TrellisCore
import XCTest

final class DrawerResolverTests: XCTestCase {
    private let layout = DrawerLayout(container: Size(width: 390, height: 844), safeAreaInsets: DrawerInsets(top: 47, leading: 0, bottom: 34, trailing: 0))

    private func resolve(_ input: DrawerInput) -> DrawerOutput {
        try! DrawerResolver.compute(input).get()
    }

    func testWithoutAnActionTheCurrentStateIsRenderedWithoutATransition() {
        let result = resolve(DrawerInput(state: DrawerState(isPresented: true), layout: layout))
        XCTAssertEqual(result.state, DrawerState(isPresented: true))
        XCTAssertFalse(result.changed)
        XCTAssertEqual(result.geometry, layout.geometry(isPresented: true))
        XCTAssertNil(result.transition)
    }

    func testAnActionThatChangesNothingHasNoTransitionEvenWithFrom() {
        for (state, action) in [(false, DrawerAction.close), (false, .tapMask), (true, .open)] {
            let result = resolve(DrawerInput(state: DrawerState(isPresented: state), action: action, layout: layout, start: DrawerMotionStart(x: -50, velocity: 10)))
            XCTAssertFalse(result.changed)
            XCTAssertEqual(result.state.isPresented, state)
            XCTAssertNil(result.transition)
        }
    }

    func testToggleOpenDescribesTheTransition() {
        let result = resolve(DrawerInput(action: .toggle, layout: layout))
        XCTAssertTrue(result.changed)
        XCTAssertEqual(result.geometry, layout.geometry(isPresented: true))
        let transition = try! XCTUnwrap(result.transition)
        XCTAssertEqual(transition.panelFromX, -200)
        XCTAssertEqual(transition.panelToX, 0)
        XCTAssertEqual(transition.maskFromOpacity, 0)
        XCTAssertEqual(transition.maskToOpacity, 0.2)
        XCTAssertEqual(transition.motion, DrawerSpringMotion(spring: .default))
        // Keyframes run to the settling time, the easing over it rounded up to whole milliseconds.
        let settling = transition.motion.settlingDuration()
        XCTAssertEqual(transition.settlingDuration, settling)
        XCTAssertEqual(transition.easingDuration, (settling * 1000).rounded(.up) / 1000)
        XCTAssertEqual(transition.keyframes, transition.motion.keyframes(frameRate: 60, settlingDuration: settling))
        XCTAssertEqual(
            transition.easingStops,
            DrawerLinearEasing.stops(for: transition.motion, duration: transition.easingDuration, maxError: DrawerLinearEasing.defaultMaxError)
        )
    }

    /// Rule: a motion past the limits refuses the step, but only when the state changes; blamed on
    /// the start only when the same spring from rest is within them.
    func testAMotionPastTheLimitsRefusesOnlyAChange() {
        let ringing = DrawerSpring(response: 0.55, dampingFraction: 1e-30)
        XCTAssertEqual(
            DrawerResolver.compute(DrawerInput(action: .toggle, layout: layout, spring: ringing)),
            .failure(.motion(.settlesTooLate, blameStart: false)))
        XCTAssertNoThrow(try DrawerResolver.compute(DrawerInput(action: .close, layout: layout, spring: ringing)).get())
        XCTAssertEqual(
            DrawerResolver.compute(DrawerInput(action: .toggle, layout: layout, start: DrawerMotionStart(x: -200, velocity: 1e300))),
            .failure(.motion(.nonFinite, blameStart: true)))
    }

    func testATravelLostInFloatingPointIsRefused() {
        let wide = DrawerLayout(container: Size(width: 1e300, height: 844), edge: .trailing)
        XCTAssertEqual(DrawerResolver.compute(DrawerInput(action: .toggle, layout: wide)), .failure(.travelNotRepresentable))
    }

    func testTapMaskClosingFromMidFlightKeepsPositionAndVelocity() {
        let result = resolve(
            DrawerInput(state: DrawerState(isPresented: true), action: .tapMask, layout: layout, frameRate: 120, start: DrawerMotionStart(x: -50, velocity: -1000))
        )
        let transition = try! XCTUnwrap(result.transition)
        XCTAssertEqual(result.state, DrawerState(isPresented: false))
        XCTAssertEqual(transition.panelFromX, 0)
        XCTAssertEqual(transition.panelToX, -200)
        XCTAssertEqual(transition.maskFromOpacity, 0.2)
        XCTAssertEqual(transition.maskToOpacity, 0)
        XCTAssertEqual(transition.motion.initialProgress, 0.25)
        XCTAssertEqual(transition.motion.initialVelocity, 5)
        XCTAssertEqual(transition.keyframes.first, DrawerKeyframe(t: 0, progress: 0.25))
        XCTAssertEqual(transition.keyframes[1].t, 1.0 / 120)
    }
}
