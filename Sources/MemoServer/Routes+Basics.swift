import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Onboarding

/// `GET /api/v1/health` and the onboarding routes, which run before the
/// onboarding is completed (the gate lets them through, see `Access`).
extension MemoRoutes {
    static func addHealth(to router: inout Router) {
        router.route(.get, "/api/v1/health", RouteDescription(
            "Is it up; the version", answers: [Describe.json(200, "up", DocumentSchema.object([
                ("status", DocumentSchema.choice(["ok"])), ("version", DocumentSchema.string)]))],
            isPublic: true), quick: true) { _ in
            // Quick: answered on the polling thread that read it, whatever
            // the handler threads are doing (issue 29, finding 5).
            .json(.object([("status", .string("ok")), ("version", .string(Version.current))]))
        }
    }

    static func addOnboarding(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/onboarding", RouteDescription(
            "The onboarding state and its four pages in the request's language",
            headers: [Describe.ifNoneMatch],
            answers: [Describe.json(200, "the state", DocumentSchema.ref("Onboarding"), headers: [Describe.etag]),
                      RouteDescription.Answer(304, "not modified", headers: [Describe.etag])])) { request in
            let state = try services.read { try $0.onboardingStore().state() }
            return onboardingResponse(state, request)
        }
        let moves: [(String, OnboardingAction, String)] = [
            ("next", .next, "The next page"), ("prev", .previous, "The previous page"), ("skip", .skip, "Finish now"),
            ("start", .start, "Finish, from the last page (else 409)"),
        ]
        for (name, action, summary) in moves {
            router.action("/api/v1/onboarding/\(name)", services,
                          Describe.action(summary, DocumentSchema.ref("Onboarding"),
                                          conflicts: "not on the last page (start), or a retry while the first runs")) { request in
                let state = try services.write { workspace in
                    try workspace.onboardingStore().apply(action, at: workspace.clock.now())
                }
                return onboardingResponse(state, request)
            }
        }
        router.action("/api/v1/onboarding/reset", services,
                      Describe.action("Back to page 1, not completed", DocumentSchema.ref("Onboarding"))) { request in
            let state = try services.write { try $0.onboardingStore().reset() }
            return onboardingResponse(state, request)
        }
        router.json(.put, "/api/v1/onboarding/page", RouteDescription(
            "Go to page N",
            body: RouteDescription.Body("application/json", DocumentSchema.object([
                ("page", Describe.minimumInteger(1, maximum: OnboardingPage.all.count))])),
            answers: [Describe.json(200, "the state", DocumentSchema.ref("Onboarding")),
                      Describe.json(422, "a body that is not {\"page\": N} with N a page", DocumentSchema.ref("Error"))]
        )) { request, body in
            let document = try JSONBody.object(body, allowedKeys: ["page"])
            let page = try document.int("page")
            let count = OnboardingPage.all.count
            guard (1...Int64(count)).contains(page) else {
                throw document.failure(at: "page", en: "the page must be 1 to \(count), not \(page)",
                                       ko: "페이지는 1에서 \(count) 사이여야 합니다(\(page))")
            }
            let state = try services.write { workspace in
                try workspace.onboardingStore().apply(.goTo(Int(page)), at: workspace.clock.now())
            }
            return onboardingResponse(state, request)
        }
    }

    /// The state, as `memoapp onboard --json` shows it, with the four pages
    /// in the request's language.
    static func onboardingResponse(_ state: OnboardingState, _ request: Request) -> Response {
        var document = WireFormat.onboarding(state)
        if case .object(var pairs) = document {
            pairs.append(("pages", .array(OnboardingPage.all.map { WireFormat.onboardingPage($0, in: request.language) })))
            document = .object(pairs)
        }
        return Items.response(document, for: request)
    }
}
