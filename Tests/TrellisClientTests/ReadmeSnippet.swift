import Foundation
import TrellisClient
import TrellisCore

// The non-SwiftUI part of docs/clients.md's "## Swift" snippet, verbatim between the markers (ReadmeSnippetTests checks it).
// README: begin
func chipsFromService(
    _ client: TrellisClient, _ tags: [(id: String, width: Double)], containerWidth: Double
) async throws(TrellisClientError) -> TrellisClient.FlowLayoutResponse {
    try await client.flowLayout(.init(
        containerWidth: containerWidth,
        items: tags.map { .init(id: .string($0.id), width: $0.width, height: 36) },
        horizontalSpacing: 4, verticalSpacing: 4))
}

func chipsOnDevice(_ tags: [(id: String, width: Double)], containerWidth: Double) -> FlowOutput {
    FlowLayout.compute(FlowInput(
        containerWidth: containerWidth,
        items: tags.map { FlowItem(width: $0.width, height: 36) },
        horizontalSpacing: 4, verticalSpacing: 4))
}
// README: end
