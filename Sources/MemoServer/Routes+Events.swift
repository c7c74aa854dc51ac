import HTTPServer

/// `GET /api/v1/events`: Server-Sent Events (see `ChangeFeed`, `TimerAlarm`).
extension MemoRoutes {
    static func addEvents(to router: inout Router, _ feed: ChangeFeed) {
        router.route(.get, "/api/v1/events") { request in
            try feed.catchUp()
            return feed.stream.response(for: request, headers: ["X-Accel-Buffering": "no"])
        }
    }
}
