import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Onboarding

/// `GET /api/v1/health` and the onboarding routes, which run before the
/// onboarding is completed (the gate lets them through, see `Access`).
extension MemoRoutes {
    static func addHealth(to router: inout Router) {
        router.route(.get, "/api/v1/health") { _ in
            .json(.object([("status", .string("ok")), ("version", .string(Version.current))]))
        }
    }

    static func addOnboarding(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/onboarding") { request in
            let state = try services.read { try $0.onboardingStore().state() }
            return onboardingResponse(state, request)
        }
        let moves: [(String, OnboardingAction)] = [("next", .next), ("prev", .previous), ("skip", .skip), ("start", .start)]
        for (name, action) in moves {
            router.action("/api/v1/onboarding/\(name)", services) { request in
                let state = try services.write { workspace in
                    try workspace.onboardingStore().apply(action, at: workspace.clock.now())
                }
                return onboardingResponse(state, request)
            }
        }
        router.action("/api/v1/onboarding/reset", services) { request in
            let state = try services.write { try $0.onboardingStore().reset() }
            return onboardingResponse(state, request)
        }
        router.collect(.put, "/api/v1/onboarding/page", bodyLimit: JSONBody.limit) { request, body in
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
