import HTTPServer

/// `GET /api/v1/events`: Server-Sent Events (see `ChangeFeed`, `TimerAlarm`).
extension MemoRoutes {
    static func addEvents(to router: inout Router, _ stream: EventStream) {
        router.route(.get, "/api/v1/events") { request in
            stream.response(for: request, headers: ["X-Accel-Buffering": "no"])
        }
    }
}
