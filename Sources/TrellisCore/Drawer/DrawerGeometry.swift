/// The frames to draw for one state: the panel, its content and the mask.
public struct DrawerGeometry: Sendable, Equatable, Hashable {
    public var panelFrame: Rect
    public var contentFrame: Rect
    public var panelVisible: Bool
    public var maskFrame: Rect
    public var maskOpacity: Double
    public var maskVisible: Bool

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
