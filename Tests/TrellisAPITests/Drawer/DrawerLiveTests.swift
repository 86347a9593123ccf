import Foundation
import XCTest

final class DrawerLiveTests: XCTestCase {
    func testTheSeedExampleThroughTheRealServer() throws {
        let server = try LiveServer()
        let response = try server.request("POST", "/v1/drawer/state", json: drawerSeedRequest)
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(exactJSON(response)["isPresented"] as? Bool, true)
        let transition = object(exactJSON(response)["transition"])
        XCTAssertEqual(object(transition["css"])["duration"] as? String, "758ms")
        XCTAssertEqual(number((transition["keyframes"] as? [[String: Any]])?.last?["progress"]), 1)
        XCTAssertEqual(response.body, postDrawer(drawerSeedRequest).body)

        let refused = try server.request("POST", "/v1/drawer/state", json: #"{"container": {"width": 390}}"#)
        XCTAssertEqual(refused.status, 422)
        XCTAssertEqual(problemPointers(refused), ["/container/height"])
    }
}
