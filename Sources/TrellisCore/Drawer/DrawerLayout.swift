/// The validated layout inputs of a drawer and the frames they give.
public struct DrawerLayout: Sendable, Equatable, Hashable {
    /// Rule: drawerWidth defaults to the seed's `.frame(width: 200)`.
    public static let defaultDrawerWidth = 200.0
    /// Rule: maskOpacity defaults to the seed's `MaskView` `.opacity(0.2)`.
    public static let defaultMaskOpacity = 0.2

    /// The container's size in points.
    public var container: Size
    /// The content width; the panel adds the safe-area inset on its edge.
    public var drawerWidth: Double
    /// The logical edge the panel slides in from.
    public var edge: DrawerEdge
    /// Decides which side the leading edge is.
    public var layoutDirection: DrawerLayoutDirection
    /// The container's safe-area insets.
    public var safeAreaInsets: DrawerInsets
    /// The mask's opacity when presented.
    public var maskOpacity: Double

    /// Defaults: the seed's 200 pt drawer on the leading edge, left to right, no insets, mask opacity 0.2.
    public init(
        container: Size,
        drawerWidth: Double = DrawerLayout.defaultDrawerWidth,
        edge: DrawerEdge = .leading,
        layoutDirection: DrawerLayoutDirection = .ltr,
        safeAreaInsets: DrawerInsets = .zero,
        maskOpacity: Double = DrawerLayout.defaultMaskOpacity
    ) {
        self.container = container
        self.drawerWidth = drawerWidth
        self.edge = edge
        self.layoutDirection = layoutDirection
        self.safeAreaInsets = safeAreaInsets
        self.maskOpacity = maskOpacity
    }

    /// Rule: leading is the left side in ltr, the right side in rtl.
    public var isOnLeftSide: Bool {
        (edge == .leading) == (layoutDirection == .ltr)
    }

    /// The safe-area inset on the drawer's own edge.
    public var edgeInset: Double {
        edge == .leading ? safeAreaInsets.leading : safeAreaInsets.trailing
    }

    /// Rule: the panel is drawerWidth wide plus the inset on its edge.
    public var panelWidth: Double {
        drawerWidth + edgeInset
    }

    /// Rule: the panel lies against its edge when presented, just outside it (moved by its full width) when closed.
    public func panelX(isPresented: Bool) -> Double {
        switch (isOnLeftSide, isPresented) {
        case (true, true): return 0
        case (true, false): return -panelWidth
        case (false, true): return container.width - panelWidth
        case (false, false): return container.width
        }
    }

    /// Rule: the panel has the full container height, ignoring the top and bottom safe area.
    public func panelFrame(isPresented: Bool) -> Rect {
        Rect(x: panelX(isPresented: isPresented), y: 0, width: panelWidth, height: container.height)
    }

    /// Rule: the content is the panel inset by top, bottom and its edge-side inset only (not the seed's inner-side padding).
    public func contentFrame(isPresented: Bool) -> Rect {
        let panel = panelFrame(isPresented: isPresented)
        let height = max(0, container.height - safeAreaInsets.top - safeAreaInsets.bottom)
        let x = isOnLeftSide ? panel.x + edgeInset : panel.x
        return Rect(x: x, y: safeAreaInsets.top, width: drawerWidth, height: height)
    }

    /// Rule: the mask covers the whole container.
    public var maskFrame: Rect {
        Rect(x: 0, y: 0, width: container.width, height: container.height)
    }

    /// Rule: the mask shows maskOpacity when presented, 0 when closed.
    public func maskOpacity(isPresented: Bool) -> Double {
        isPresented ? maskOpacity : 0
    }

    /// The panel, content and mask frames for one state.
    public func geometry(isPresented: Bool) -> DrawerGeometry {
        DrawerGeometry(
            panelFrame: panelFrame(isPresented: isPresented),
            contentFrame: contentFrame(isPresented: isPresented),
            panelVisible: isPresented,
            maskFrame: maskFrame,
            maskOpacity: maskOpacity(isPresented: isPresented),
            maskVisible: isPresented
        )
    }
}
