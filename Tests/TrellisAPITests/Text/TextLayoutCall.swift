import Foundation
import TrellisAPI
import TrellisTestSupport
import XCTest

/// The lines of one text that POST /v1/text/layout answers in `family` at 16 px, with `members` after the font and
/// the text (each starting with a comma, e.g. `,"width":200`), the text written as a JSON string; a status other
/// than 200 fails the calling test.
func layoutLines(
    _ service: TrellisService, _ text: String, _ members: String, family: String = "DejaVu Sans",
    file: StaticString = #filePath, line: UInt = #line
) -> [[String: Any]] {
    let quoted = (try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]))
        .flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
    let response = call(
        service, "POST", "/v1/text/layout",
        json: #"{"font":{"family":"\#(family)","size":16},"texts":\#(quoted)\#(members)}"#)
    XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
    let texts = response.json["texts"] as? [[String: Any]] ?? []
    return texts.first?["lines"] as? [[String: Any]] ?? []
}
