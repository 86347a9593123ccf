import TrellisCore

/// The random part of a test request; tests add the options they exercise.
struct FlowRequestSample {
    var containerWidth: Double
    var items: [(width: Double, height: Double, breakBefore: Bool)]
    var horizontalSpacing: Double
    var verticalSpacing: Double
    var columnGap: Double
    var rowGap: Double

    func request(
        alignment: FlowAlignment = .leading,
        rowAlignment: FlowRowAlignment = .top,
        direction: FlowDirection = .ltr,
        maxRows: Int? = nil,
        overflowIndicator: Size? = nil,
        lineBreaking: FlowLineBreaking = .greedy,
        pixelScale: Double? = nil
    ) -> FlowInput {
        FlowInput(
            containerWidth: containerWidth,
            items: items.map { FlowItem(width: $0.width, height: $0.height, breakBefore: $0.breakBefore) },
            horizontalSpacing: horizontalSpacing,
            verticalSpacing: verticalSpacing,
            columnGap: columnGap,
            rowGap: rowGap,
            alignment: alignment,
            rowAlignment: rowAlignment,
            direction: direction,
            maxRows: maxRows,
            overflowIndicator: overflowIndicator,
            lineBreaking: lineBreaking,
            pixelScale: pixelScale
        )
    }
}
