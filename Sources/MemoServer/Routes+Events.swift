import HTTPServer
import MemoAPI

/// `GET /api/v1/events`: Server-Sent Events (see `ChangeFeed`, `TimerAlarm`);
/// `GET /api/v1/onboarding/events`: the onboarding's alone, before the gate.
extension MemoRoutes {
    static func addEvents(to router: inout Router, _ feed: ChangeFeed) {
        router.route(.get, "/api/v1/events", RouteDescription(
            "Server-Sent Events: todo, memo, voice, timer, timer.finished, onboarding, resync",
            headers: [.init("Last-Event-ID", DocumentSchema.string, "resume after this event")],
            answers: [RouteDescription.Answer(200, "the stream", mediaType: "text/event-stream")])) { request in
            try feed.catchUp()
            // Owned by its credential, so that revoking it ends the stream.
            return feed.stream.response(for: request, headers: ["X-Accel-Buffering": "no"],
                                        owner: Access.credentialIdentity(request))
        }
        // Before the gate opens (an onboarding route): only `onboarding` events.
        router.route(.get, "/api/v1/onboarding/events", RouteDescription(
            "Server-Sent Events of the onboarding alone; open before the onboarding is completed",
            headers: [.init("Last-Event-ID", DocumentSchema.string, "resume after this event")],
            answers: [RouteDescription.Answer(200, "the stream", mediaType: "text/event-stream")])) { request in
            feed.onboardingStream.response(for: request, headers: ["X-Accel-Buffering": "no"],
                                           owner: Access.credentialIdentity(request))
        }
    }
}
