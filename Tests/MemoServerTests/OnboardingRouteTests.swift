import Foundation
import TestSupport
import XCTest

/// The onboarding routes: never gated, the same stored state as `memoapp onboard`.
final class OnboardingRouteTests: XCTestCase {
    func testTheStateComesWithTheFourPagesInTheRequestsLanguage() throws {
        let server = try APITestServer()
        let english = server.curl("GET", "/api/v1/onboarding")
        XCTAssertEqual(english.status, 200)
        XCTAssertEqual(english.object["current_page"] as? Int, 1)
        XCTAssertEqual(english.object["completed"] as? Bool, false)
        let pages = english.object["pages"] as? [[String: Any]] ?? []
        XCTAssertEqual(pages.count, 4)
        let korean = server.curl("GET", "/api/v1/onboarding", headers: ["Accept-Language: ko-KR,ko;q=0.9,en;q=0.8"])
        let byQuery = server.curl("GET", "/api/v1/onboarding?lang=ko", headers: ["Accept-Language: en"])
        let koreanTitle = (korean.object["pages"] as? [[String: Any]])?.first?["title"] as? String
        XCTAssertEqual(koreanTitle, (byQuery.object["pages"] as? [[String: Any]])?.first?["title"] as? String)
        XCTAssertNotEqual(koreanTitle, pages.first?["title"] as? String)
    }

    func testNextPrevPageStartAndReset() throws {
        let server = try APITestServer()
        XCTAssertEqual(server.curl("POST", "/api/v1/onboarding/next").object["current_page"] as? Int, 2)
        XCTAssertEqual(server.curl("POST", "/api/v1/onboarding/prev").object["current_page"] as? Int, 1)
        let early = server.curl("POST", "/api/v1/onboarding/start")
        XCTAssertEqual(early.status, 409)
        XCTAssertEqual(early.errorCode, "invalid_state")
        XCTAssertEqual(server.curl("PUT", "/api/v1/onboarding/page", json: #"{"page": 4}"#).object["current_page"] as? Int, 4)
        let outOfRange = server.curl("PUT", "/api/v1/onboarding/page", json: #"{"page": 5}"#)
        XCTAssertEqual(outOfRange.status, 422)
        XCTAssertEqual(outOfRange.errorCode, "bad_input")
        XCTAssertEqual(server.curl("PUT", "/api/v1/onboarding/page", json: #"{"pg": 2}"#).status, 422)
        let started = server.curl("POST", "/api/v1/onboarding/start")
        XCTAssertEqual(started.status, 200)
        XCTAssertEqual(started.object["completed"] as? Bool, true)
        XCTAssertEqual(server.curl("POST", "/api/v1/onboarding/reset").object["completed"] as? Bool, false)
    }

    func testTheCommandLineSeesTheSameState() throws {
        let server = try APITestServer()
        server.onboard()
        let memoapp = Memoapp(home: server.home.path)
        let status = memoapp.run("--json", "onboard", "status")
        XCTAssertEqual(status.object()["completed"] as? Bool, true)
        XCTAssertEqual(memoapp.run("onboard", "reset").status, 0)
        XCTAssertEqual(server.curl("GET", "/api/v1/onboarding").object["completed"] as? Bool, false)
    }
}
