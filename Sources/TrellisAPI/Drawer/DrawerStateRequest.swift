import TrellisJSON
import TrellisCore

/// The body of `POST /v1/drawer/state`, read straight into the core's input.
extension DrawerInput: FeatureRequest {
    /// The body's members.
    enum Member: Int, JSONMember {
        case isPresented, action, container, drawerWidth, edge, layoutDirection, safeAreaInsets, maskOpacity, spring, frameRate
        case from
        static let keys = JSONKeys(Member.self)
    }

    /// Reads every member, recording each problem with its pointer; nil when there was any.
    init?(reading json: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard json.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = json.fields(Member.self)
        let isPresented = members.optional(Member.isPresented)?.boolean(&problems) ?? false
        let action = members.optional(Member.action)?.oneOf(DrawerAction.self, &problems)
        let container = members.required(Member.container, &problems).flatMap { Self.readContainer($0, &problems) }
        let drawerWidth = members.optional(Member.drawerWidth)?.number(&problems, .positive) ?? DrawerLayout.defaultDrawerWidth
        let edge = members.optional(Member.edge)?.oneOf(DrawerEdge.self, &problems) ?? .leading
        let layoutDirection = members.optional(Member.layoutDirection)?.oneOf(DrawerLayoutDirection.self, &problems) ?? .ltr
        let insets = members.optional(Member.safeAreaInsets).flatMap { Self.readInsets($0, &problems) } ?? .zero
        let maskOpacity = members.optional(Member.maskOpacity)?.number(&problems, .closed(0, 1)) ?? DrawerLayout.defaultMaskOpacity
        let spring = members.optional(Member.spring).flatMap { Self.readSpring($0, &problems) } ?? .default
        let frameRate = members.optional(Member.frameRate)?.number(&problems, .closed(1, 240)) ?? DrawerInput.defaultFrameRate
        let from = members.optional(Member.from)
        let start = from.flatMap { Self.readStart($0, &problems) }
        // Decision: `from` without an action can never be used, so it is refused (with an action that changes nothing it is ignored).
        if let from, members.optional(Member.action) == nil {
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
        self.init(
            state: DrawerState(isPresented: isPresented), action: action, layout: layout, spring: spring,
            frameRate: frameRate, start: start)
    }

    /// `container`'s members.
    enum SizeMember: Int, JSONMember {
        case width, height
        static let keys = JSONKeys(SizeMember.self)
    }

    /// `container`: width and height, finite ≥ 0.
    private static func readContainer(_ json: JSONValue, _ problems: inout Problems) -> Size? {
        guard json.expectObject(&problems) else { return nil }
        let members = json.fields(SizeMember.self)
        let width = members.required(SizeMember.width, &problems)?.number(&problems, .nonNegative)
        let height = members.required(SizeMember.height, &problems)?.number(&problems, .nonNegative)
        guard let width, let height else { return nil }
        return Size(width: width, height: height)
    }

    /// `safeAreaInsets`' members.
    enum InsetsMember: Int, JSONMember {
        case top, leading, bottom, trailing
        static let keys = JSONKeys(InsetsMember.self)
    }

    /// `safeAreaInsets`: each side finite ≥ 0, absent sides 0.
    private static func readInsets(_ json: JSONValue, _ problems: inout Problems) -> DrawerInsets? {
        guard json.expectObject(&problems) else { return nil }
        let members = json.fields(InsetsMember.self)
        return DrawerInsets(
            top: members.optional(InsetsMember.top)?.number(&problems, .nonNegative) ?? 0,
            leading: members.optional(InsetsMember.leading)?.number(&problems, .nonNegative) ?? 0,
            bottom: members.optional(InsetsMember.bottom)?.number(&problems, .nonNegative) ?? 0,
            trailing: members.optional(InsetsMember.trailing)?.number(&problems, .nonNegative) ?? 0)
    }

    /// `spring`'s members.
    enum SpringMember: Int, JSONMember {
        case response, dampingFraction, duration, bounce
        static let keys = JSONKeys(SpringMember.self)
    }

    /// `spring`: `{response > 0, dampingFraction > 0}` or `{duration > 0, −1 < bounce < 1}`, never both.
    private static func readSpring(_ json: JSONValue, _ problems: inout Problems) -> DrawerSpring? {
        guard json.expectObject(&problems) else { return nil }
        let members = json.fields(SpringMember.self)
        let classic = members.optional(SpringMember.response) != nil || members.optional(SpringMember.dampingFraction) != nil
        let modern = members.optional(SpringMember.duration) != nil || members.optional(SpringMember.bounce) != nil
        switch (classic, modern) {
        case (true, false):
            let response = members.required(SpringMember.response, &problems)?.number(&problems, .positive)
            let dampingFraction = members.required(SpringMember.dampingFraction, &problems)?.number(&problems, .positive)
            guard let response, let dampingFraction else { return nil }
            return DrawerSpring(response: response, dampingFraction: dampingFraction)
        case (false, true):
            let duration = members.required(SpringMember.duration, &problems)?.number(&problems, .positive)
            let bounce = members.required(SpringMember.bounce, &problems)?.number(&problems, .exclusive(-1, 1))
            guard let duration, let bounce else { return nil }
            return DrawerSpring(duration: duration, bounce: bounce)
        case (true, true):
            problems.add(at: json, "must be either {response, dampingFraction} or {duration, bounce}, not both")
            _ = members.optional(SpringMember.response)?.number(&problems, .positive)
            _ = members.optional(SpringMember.dampingFraction)?.number(&problems, .positive)
            _ = members.optional(SpringMember.duration)?.number(&problems, .positive)
            _ = members.optional(SpringMember.bounce)?.number(&problems, .exclusive(-1, 1))
            return nil
        case (false, false):
            problems.add(at: json, "must be either {response, dampingFraction} or {duration, bounce}")
            return nil
        }
    }

    /// `from`'s members.
    enum StartMember: Int, JSONMember {
        case x, velocity
        static let keys = JSONKeys(StartMember.self)
    }

    /// `from`: the panel's current x and velocity (points per second), both finite.
    private static func readStart(_ json: JSONValue, _ problems: inout Problems) -> DrawerMotionStart? {
        guard json.expectObject(&problems) else { return nil }
        let members = json.fields(StartMember.self)
        let x = members.required(StartMember.x, &problems)?.number(&problems)
        let velocity = members.required(StartMember.velocity, &problems)?.number(&problems)
        guard let x, let velocity else { return nil }
        return DrawerMotionStart(x: x, velocity: velocity)
    }
}
