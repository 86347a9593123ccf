extension TrellisClient {
    /// The actions that can change a drawer's presentation state.
    public enum DrawerAction: String, Sendable, Codable, CaseIterable {
        /// tapMask closes, and does nothing when closed.
        case toggle, open, close, tapMask
    }

    /// The logical edge the drawer slides in from.
    public enum DrawerEdge: String, Sendable, Codable, CaseIterable {
        case leading, trailing
    }

    /// In rtl the leading edge is the right side.
    public enum LayoutDirection: String, Sendable, Codable, CaseIterable {
        case ltr, rtl
    }

    /// Safe-area insets; nil sides are 0.
    public struct DrawerInsets: Sendable, Equatable, Codable {
        public var top: Double?
        public var leading: Double?
        public var bottom: Double?
        public var trailing: Double?

        public init(top: Double? = nil, leading: Double? = nil, bottom: Double? = nil, trailing: Double? = nil) {
            self.top = top
            self.leading = leading
            self.bottom = bottom
            self.trailing = trailing
        }
    }

    /// SwiftUI's spring, as response and dampingFraction or (iOS 17) duration and bounce.
    public struct DrawerSpring: Sendable, Equatable, Codable {
        public var response: Double?
        public var dampingFraction: Double?
        public var duration: Double?
        public var bounce: Double?

        public init(response: Double, dampingFraction: Double) {
            self.response = response
            self.dampingFraction = dampingFraction
        }

        public init(duration: Double, bounce: Double) {
            self.duration = duration
            self.bounce = bounce
        }
    }

    /// Where the panel is when the action lands mid-flight: its x and velocity (points per second).
    public struct DrawerMotionStart: Sendable, Equatable, Codable {
        public var x: Double
        public var velocity: Double

        public init(x: Double, velocity: Double) {
            self.x = x
            self.velocity = velocity
        }
    }

    /// The body of POST /v1/drawer/state: the state, an optional action and the layout; nil members take the defaults.
    public struct DrawerStateRequest: TrellisEndpointRequest, Equatable, Codable {
        public typealias Response = DrawerStateResponse
        public static let path = "/v1/drawer/state"

        /// The state now (default false).
        public var isPresented: Bool?
        /// nil renders the current state.
        public var action: DrawerAction?
        public var container: Size
        /// The content width (default 200).
        public var drawerWidth: Double?
        public var edge: DrawerEdge?
        public var layoutDirection: LayoutDirection?
        public var safeAreaInsets: DrawerInsets?
        /// The mask's opacity when presented (default 0.2).
        public var maskOpacity: Double?
        /// Default: response 0.55, dampingFraction 0.825.
        public var spring: DrawerSpring?
        /// Keyframes per second (default 60).
        public var frameRate: Double?
        /// Only with an action.
        public var from: DrawerMotionStart?

        public init(
            isPresented: Bool? = nil, action: DrawerAction? = nil, container: Size, drawerWidth: Double? = nil,
            edge: DrawerEdge? = nil, layoutDirection: LayoutDirection? = nil, safeAreaInsets: DrawerInsets? = nil,
            maskOpacity: Double? = nil, spring: DrawerSpring? = nil, frameRate: Double? = nil,
            from: DrawerMotionStart? = nil
        ) {
            self.isPresented = isPresented
            self.action = action
            self.container = container
            self.drawerWidth = drawerWidth
            self.edge = edge
            self.layoutDirection = layoutDirection
            self.safeAreaInsets = safeAreaInsets
            self.maskOpacity = maskOpacity
            self.spring = spring
            self.frameRate = frameRate
            self.from = from
        }
    }

    /// The answer of POST /v1/drawer/state: the final state's frames and, when it changed, the transition.
    public struct DrawerStateResponse: Sendable, Equatable, Codable {
        public struct Panel: Sendable, Equatable, Codable {
            public var frame: Rect
            /// The panel inset by the top and bottom insets and the inset on its edge; drawerWidth wide.
            public var contentFrame: Rect
            public var visible: Bool

            public init(frame: Rect, contentFrame: Rect, visible: Bool) {
                self.frame = frame
                self.contentFrame = contentFrame
                self.visible = visible
            }
        }

        public struct Mask: Sendable, Equatable, Codable {
            public var frame: Rect
            public var opacity: Double
            public var visible: Bool

            public init(frame: Rect, opacity: Double, visible: Bool) {
                self.frame = frame
                self.opacity = opacity
                self.visible = visible
            }
        }

        /// The motion from the old state to the new one: progress 0 is `panel.fromX`, 1 is `panel.toX`.
        public struct Transition: Sendable, Equatable, Codable {
            public struct PanelTravel: Sendable, Equatable, Codable {
                public var fromX: Double
                public var toX: Double

                public init(fromX: Double, toX: Double) {
                    self.fromX = fromX
                    self.toX = toX
                }
            }

            public struct MaskFade: Sendable, Equatable, Codable {
                public var fromOpacity: Double
                public var toOpacity: Double

                public init(fromOpacity: Double, toOpacity: Double) {
                    self.fromOpacity = fromOpacity
                    self.toOpacity = toOpacity
                }
            }

            public struct Spring: Sendable, Equatable, Codable {
                public var response: Double
                public var dampingFraction: Double
                public var stiffness: Double
                public var damping: Double
                /// Seconds until |1 − p(t)| stays below 0.001.
                public var settlingDuration: Double

                public init(
                    response: Double, dampingFraction: Double, stiffness: Double, damping: Double, settlingDuration: Double
                ) {
                    self.response = response
                    self.dampingFraction = dampingFraction
                    self.stiffness = stiffness
                    self.damping = damping
                    self.settlingDuration = settlingDuration
                }
            }

            /// The progress at time t (seconds).
            public struct Keyframe: Sendable, Equatable, Codable {
                public var t: Double
                public var progress: Double

                public init(t: Double, progress: Double) {
                    self.t = t
                    self.progress = progress
                }
            }

            /// A CSS transition: `transition: transform <duration> <easing>`.
            public struct CSS: Sendable, Equatable, Codable {
                /// e.g. `758ms`.
                public var duration: String
                /// A CSS `linear()` easing.
                public var easing: String

                public init(duration: String, easing: String) {
                    self.duration = duration
                    self.easing = easing
                }
            }

            public var panel: PanelTravel
            public var mask: MaskFade
            public var spring: Spring
            public var keyframes: [Keyframe]
            public var css: CSS

            public init(panel: PanelTravel, mask: MaskFade, spring: Spring, keyframes: [Keyframe], css: CSS) {
                self.panel = panel
                self.mask = mask
                self.spring = spring
                self.keyframes = keyframes
                self.css = css
            }
        }

        public var isPresented: Bool
        public var changed: Bool
        public var panel: Panel
        public var mask: Mask
        /// Present only when the action changed the state.
        public var transition: Transition?

        public init(isPresented: Bool, changed: Bool, panel: Panel, mask: Mask, transition: Transition? = nil) {
            self.isPresented = isPresented
            self.changed = changed
            self.panel = panel
            self.mask = mask
            self.transition = transition
        }
    }
}
