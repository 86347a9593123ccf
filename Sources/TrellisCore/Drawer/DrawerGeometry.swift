/// The frames to draw for one state: the panel, its content and the mask.
public struct DrawerGeometry: Sendable, Equatable, Hashable {
    /// The panel: full container height, drawerWidth plus its edge's inset wide.
    public var panelFrame: Rect
    /// The panel inset by the top and bottom insets and its edge's inset; drawerWidth wide.
    public var contentFrame: Rect
    /// True when presented.
    public var panelVisible: Bool
    /// The mask: the whole container.
    public var maskFrame: Rect
    /// The mask's opacity in this state (0 when closed).
    public var maskOpacity: Double
    /// True when presented.
    public var maskVisible: Bool

    /// Frames as DrawerLayout.geometry(isPresented:) makes them.
    public init(
        panelFrame: Rect,
        contentFrame: Rect,
        panelVisible: Bool,
        maskFrame: Rect,
        maskOpacity: Double,
        maskVisible: Bool
    ) {
        self.panelFrame = panelFrame
        self.contentFrame = contentFrame
        self.panelVisible = panelVisible
        self.maskFrame = maskFrame
        self.maskOpacity = maskOpacity
        self.maskVisible = maskVisible
    }
}
