import HTTPServer

/// `GET /api/v1/events`: Server-Sent Events (see `ChangeFeed`, `TimerAlarm`);
/// `GET /api/v1/onboarding/events`: the onboarding's alone, before the gate.
extension MemoRoutes {
    static func addEvents(to router: inout Router, _ feed: ChangeFeed) {
        router.route(.get, "/api/v1/events") { request in
            try feed.catchUp()
            // Owned by its credential, so that revoking it ends the stream.
            return feed.stream.response(for: request, headers: ["X-Accel-Buffering": "no"],
                                        owner: Access.credentialIdentity(request))
        }
        // Before the gate opens (an onboarding route): only `onboarding` events.
        router.route(.get, "/api/v1/onboarding/events") { request in
            feed.onboardingStream.response(for: request, headers: ["X-Accel-Buffering": "no"],
                                           owner: Access.credentialIdentity(request))
        }
    }
}
