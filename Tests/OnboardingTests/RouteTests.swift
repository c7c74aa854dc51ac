import Onboarding
import XCTest

final class RouteTests: XCTestCase {
    func testNotOnboardedGoesToTheOnboarding() {
        XCTAssertEqual(Route(isOnboardingCompleted: false), .onboarding)
    }

    func testOnboardedGoesToTheMainScreen() {
        XCTAssertEqual(Route(isOnboardingCompleted: true), .main)
    }

    func testTheRouteFollowsTheFlowThroughSkipAndReset() throws {
        let fresh = OnboardingFlow()
        XCTAssertEqual(Route(isOnboardingCompleted: fresh.isCompleted), .onboarding)
        let skipped = try fresh.applying(.skip)
        XCTAssertEqual(Route(isOnboardingCompleted: skipped.isCompleted), .main)
    }
}
