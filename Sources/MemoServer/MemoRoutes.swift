import HTTPServer
import MemoCore
import MemoKit
import WebApp

/// memoapp's API as a router: every route of docs/api.md (the web app's page
/// too), and the hook that
/// checks the Host, the credentials and the onboarding gate before any of them.
public enum MemoRoutes {
    static func make(_ services: ServerServices, feed: ChangeFeed, extraRoutes: (inout Router) -> Void = { _ in }) -> Router {
        var router = Router()
        let access = Access.hook(services)
        router.beforeEach = { request in
            if let answer = try access(request) { return answer }
            // After the credentials: a refusal before them would tell a
            // stranger which query items a path reads.
            try Access.checkQuery(request)
            return nil
        }
        router.around = { body in
            try services.withRequestReads {
                guard var response = try body() else { return nil }
                // The step a client undoes its own change by (`POST /api/v1/undo/{step}`).
                if let step = RequestReads.current?.undoStep { response.headers.set("Undo-Step", String(step)) }
                return response
            }
        }
        addHealth(to: &router)
        addSession(to: &router, services)
        addTokens(to: &router, services)
        addOnboarding(to: &router, services)
        addTodoBatch(to: &router, services)
        addTodos(to: &router, services)
        addDates(to: &router, services)
        addMemos(to: &router, services)
        addSearch(to: &router, services)
        addTimers(to: &router, services)
        addVoice(to: &router, services)
        addTransfer(to: &router, services)
        addUndo(to: &router, services)
        addSync(to: &router, services)
        addSyncBlobs(to: &router, services)
        addEvents(to: &router, feed)
        let document = OpenAPIDocument.Holder()
        addOpenAPI(to: &router, document)
        WebApp.addRoutes(to: &router)
        extraRoutes(&router)
        // From the routes as they are, the document's own among them.
        document.bytes = OpenAPIDocument.json(router.routes).serializedBytes
        return router
    }
}

extension MemoRoutes {
    /// The word for one item of `kind`, as errors name it.
    static func word(for kind: ChangeLog.Kind) -> Localized {
        switch kind {
        case .todo: return todoWord
        case .memo: return memoWord
        case .voice: return voiceWord
        case .timer: return timerWord
        }
    }
}
