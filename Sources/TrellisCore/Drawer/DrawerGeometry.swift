/// Issue 6 "Response 200 › panel, mask": the frames to draw for one state.
public struct DrawerGeometry: Sendable, Equatable, Hashable {
    public var panelFrame: DrawerRect
    public var contentFrame: DrawerRect
    public var panelVisible: Bool
    public var maskFrame: DrawerRect
    public var maskOpacity: Double
    public var maskVisible: Bool

    public init(
        panelFrame: DrawerRect,
        contentFrame: DrawerRect,
        panelVisible: Bool,
        maskFrame: DrawerRect,
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
