import TrellisJSON
import TrellisCore

/// The body of `POST /v1/drawer/state`, read into the core's `DrawerInput`.
struct DrawerRequest {
    var input: DrawerInput

    /// Reads every member, recording each problem with its pointer; nil when there was any.
    static func read(_ json: JSONValue, _ problems: inout Problems) -> DrawerRequest? {
        guard json.expectObject(&problems) else { return nil }
        let before = problems.count
        let isPresented = json.optional("isPresented")?.boolean(&problems) ?? false
        let action = json.optional("action")?.oneOf(DrawerAction.self, &problems)
        let container = json.required("container", &problems).flatMap { readContainer($0, &problems) }
        let drawerWidth = json.optional("drawerWidth")?.number(&problems, .positive) ?? DrawerLayout.defaultDrawerWidth
        let edge = json.optional("edge")?.oneOf(DrawerEdge.self, &problems) ?? .leading
        let layoutDirection = json.optional("layoutDirection")?.oneOf(DrawerLayoutDirection.self, &problems) ?? .ltr
        let insets = json.optional("safeAreaInsets").flatMap { readInsets($0, &problems) } ?? .zero
        let maskOpacity = json.optional("maskOpacity")?.number(&problems, .closed(0, 1)) ?? DrawerLayout.defaultMaskOpacity
        let spring = json.optional("spring").flatMap { readSpring($0, &problems) } ?? .default
        let frameRate = json.optional("frameRate")?.number(&problems, .closed(1, 240)) ?? DrawerInput.defaultFrameRate
        let start = json.optional("from").flatMap { readStart($0, &problems) }
        // Decision: `from` without an action can never be used, so it is refused (with an action that changes nothing it is ignored).
        if let from = json.optional("from"), json.optional("action") == nil {
            problems.add(at: from, "is only used with an action that changes the state; send an action or leave out from")
        }
        // Geometry: the panel's width (drawerWidth plus its edge's inset) must be a finite number.
        let edgeInset = edge == .leading ? insets.leading : insets.trailing
        if !(drawerWidth + edgeInset).isFinite {
            problems.add(pointer: "/drawerWidth", "plus the safe-area inset on the drawer's edge must be a finite number")
        }
        guard problems.count == before, let container else { return nil }
        let layout = DrawerLayout(
            container: container, drawerWidth: drawerWidth, edge: edge, layoutDirection: layoutDirection,
            safeAreaInsets: insets, maskOpacity: maskOpacity)
        return DrawerRequest(input: DrawerInput(
            state: DrawerState(isPresented: isPresented), action: action, layout: layout, spring: spring,
            frameRate: frameRate, start: start))
    }

    /// `container`: width and height, finite ≥ 0.
    private static func readContainer(_ json: JSONValue, _ problems: inout Problems) -> Size? {
        guard json.expectObject(&problems) else { return nil }
        let width = json.required("width", &problems)?.number(&problems, .nonNegative)
        let height = json.required("height", &problems)?.number(&problems, .nonNegative)
        guard let width, let height else { return nil }
        return Size(width: width, height: height)
    }

    /// `safeAreaInsets`: each side finite ≥ 0, absent sides 0.
    private static func readInsets(_ json: JSONValue, _ problems: inout Problems) -> DrawerInsets? {
        guard json.expectObject(&problems) else { return nil }
        return DrawerInsets(
            top: json.optional("top")?.number(&problems, .nonNegative) ?? 0,
            leading: json.optional("leading")?.number(&problems, .nonNegative) ?? 0,
            bottom: json.optional("bottom")?.number(&problems, .nonNegative) ?? 0,
            trailing: json.optional("trailing")?.number(&problems, .nonNegative) ?? 0)
    }

    /// `spring`: `{response > 0, dampingFraction > 0}` or `{duration > 0, −1 < bounce < 1}`, never both.
    private static func readSpring(_ json: JSONValue, _ problems: inout Problems) -> DrawerSpring? {
        guard json.expectObject(&problems) else { return nil }
        let classic = json.optional("response") != nil || json.optional("dampingFraction") != nil
        let modern = json.optional("duration") != nil || json.optional("bounce") != nil
        switch (classic, modern) {
        case (true, false):
            let response = json.required("response", &problems)?.number(&problems, .positive)
            let dampingFraction = json.required("dampingFraction", &problems)?.number(&problems, .positive)
            guard let response, let dampingFraction else { return nil }
            return DrawerSpring(response: response, dampingFraction: dampingFraction)
        case (false, true):
            let duration = json.required("duration", &problems)?.number(&problems, .positive)
            let bounce = json.required("bounce", &problems)?.number(&problems, .exclusive(-1, 1))
            guard let duration, let bounce else { return nil }
            return DrawerSpring(duration: duration, bounce: bounce)
        case (true, true):
            problems.add(at: json, "must be either {response, dampingFraction} or {duration, bounce}, not both")
            _ = json.optional("response")?.number(&problems, .positive)
            _ = json.optional("dampingFraction")?.number(&problems, .positive)
            _ = json.optional("duration")?.number(&problems, .positive)
            _ = json.optional("bounce")?.number(&problems, .exclusive(-1, 1))
            return nil
        case (false, false):
            problems.add(at: json, "must be either {response, dampingFraction} or {duration, bounce}")
            return nil
        }
    }

    /// `from`: the panel's current x and velocity (points per second), both finite.
    private static func readStart(_ json: JSONValue, _ problems: inout Problems) -> DrawerMotionStart? {
        guard json.expectObject(&problems) else { return nil }
        let x = json.required("x", &problems)?.number(&problems)
        let velocity = json.required("velocity", &problems)?.number(&problems)
        guard let x, let velocity else { return nil }
        return DrawerMotionStart(x: x, velocity: velocity)
    }
}
