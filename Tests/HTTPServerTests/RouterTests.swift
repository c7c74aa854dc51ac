@testable import HTTPServer
import XCTest

final class RouterTests: XCTestCase {
    private func router() -> Router {
        var router = Router()
        router.route(.get, "/") { _ in .text("root") }
        router.route(.get, "/api/v1/todos") { _ in .text("list") }
        router.route(.get, "/api/v1/todos/{id}") { _ in .text("one") }
        router.route(.get, "/api/v1/todos/search") { _ in .text("search") }
        router.route(.delete, "/api/v1/todos/{id}") { _ in .text("delete") }
        router.route(.get, "/api/v1/{kind}/{id}/audio") { _ in .text("audio") }
        return router
    }

    private func pattern(_ resolution: Router.Resolution) -> String? {
        guard case .matched(let route, _) = resolution else { return nil }
        return route.pattern
    }

    func testNamedSegmentsCaptureAndLiteralsWin() {
        let router = router()
        XCTAssertEqual(pattern(router.resolve(.get, path: [])), "/")
        guard case .matched(let route, let parameters) = router.resolve(.get, path: ["api", "v1", "todos", "7"]) else {
            return XCTFail("no match")
        }
        XCTAssertEqual(route.pattern, "/api/v1/todos/{id}")
        XCTAssertEqual(parameters, ["id": "7"])
        XCTAssertEqual(pattern(router.resolve(.get, path: ["api", "v1", "todos", "search"])), "/api/v1/todos/search")
        // The path names the search, which has no DELETE: 405, as OpenAPI
        // matches a concrete path before a templated one (`/todos/{id}`
        // would have answered "no to-do with that id").
        guard case .methodNotAllowed(let searchAllows) = router.resolve(.delete, path: ["api", "v1", "todos", "search"]) else {
            return XCTFail("DELETE of the search matched a route")
        }
        XCTAssertEqual(searchAllows, [.get, .head])
        XCTAssertEqual(pattern(router.resolve(.head, path: ["api", "v1", "todos", "search"])), "/api/v1/todos/search")
        guard case .matched(_, let both) = router.resolve(.get, path: ["api", "v1", "voice", "3", "audio"]) else {
            return XCTFail("no match")
        }
        XCTAssertEqual(both, ["kind": "voice", "id": "3"])
    }

    func testUnknownPathsAre404AndKnownOnesWithAnotherMethod405() {
        let router = router()
        for path in [["api"], ["api", "v1", "todos", "7", "x"], ["api", "v1", "todos", ""], ["API", "v1", "todos"]] {
            guard case .notFound = router.resolve(.get, path: path) else { return XCTFail("\(path) matched") }
        }
        guard case .methodNotAllowed(let allowed) = router.resolve(.post, path: ["api", "v1", "todos", "7"]) else {
            return XCTFail("POST matched")
        }
        XCTAssertEqual(allowed, [.get, .delete, .head])
        guard case .methodNotAllowed(let onlyGet) = router.resolve(.put, path: []) else { return XCTFail("PUT matched") }
        XCTAssertEqual(onlyGet, [.get, .head])
    }

    func testHeadIsServedByGetUnlessItHasARouteOfItsOwn() {
        var router = router()
        guard case .matched(let route, _) = router.resolve(.head, path: ["api", "v1", "todos"]) else {
            return XCTFail("HEAD found no route")
        }
        XCTAssertEqual(route.method, .get)
        router.route(.head, "/api/v1/todos") { _ in .text("") }
        guard case .matched(let own, _) = router.resolve(.head, path: ["api", "v1", "todos"]) else {
            return XCTFail("HEAD found no route")
        }
        XCTAssertEqual(own.method, .head)
    }

    func testRouteBodyLimits() {
        var router = Router()
        router.route(.get, "/a") { _ in .text("") }
        router.collect(.post, "/a", bodyLimit: 1024) { _, _ in .text("") }
        XCTAssertEqual(router.routes.map(\.bodyLimit), [0, 1024])
    }
}
