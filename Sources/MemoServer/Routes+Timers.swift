import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Timers

/// `/api/v1/timers`: the command line's `timer` commands as routes. Every
/// route runs on the writer: reading a timer that ended unobserved settles
/// it (writes its end), as `timer list` does.
extension MemoRoutes {
    static let timerWord = Localized(en: "timer", ko: "타이머")

    static func addTimers(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/timers", Describe.list(
            "Running and paused timers", "Timer", query: [.init("all", Describe.flag, "ended ones too")], paged: false
        )) { request in
            let includingEnded = try request.queryBool("all")
            let snapshots = try services.write { try $0.timerStore().snapshots(includingEnded: includingEnded) }
            return .json(.array(snapshots.map(WireFormat.timer)))
        }
        router.json(.post, "/api/v1/timers", Describe.create("Start a countdown (duration) or, without one, a stopwatch", "Timer",
                                       body: newTimerSchema)) { request, body in
            try services.idempotency.perform(request, body: body) {
                let document = try JSONBody.object(body, allowedKeys: Set(newTimerSchema.propertyNames))
                let duration = try timerDuration(document)
                let label = try TimerRecord.label(from: document.optionalString("label"))
                let todoID = try document.member("todo_id") == nil ? nil : try document.int("todo_id", in: 1...Int64.max)
                let snapshot = try services.apply(StartTimer(duration: duration, label: label, todoID: todoID),
                                                  for: request)
                var response = Items.response(WireFormat.timer(snapshot), for: request, status: 201)
                response.headers.set("Location", "/api/v1/timers/\(snapshot.timer.id)")
                return response
            }
        }
        router.route(.get, "/api/v1/timers/{id}", Describe.item("One timer", "Timer")) { request in
            let id = try request.itemID(.timer, services)
            let snapshot = try services.write { try $0.timerStore().snapshot(ofTimer: id) }
            return Items.response(WireFormat.timer(snapshot), for: request)
        }
        // Marks an ended timer seen: the main screen stops showing a finished
        // countdown (as `timer dismiss ID` does on the command line).
        router.action("/api/v1/timers/{id}/dismiss", services,
                      Describe.change("Mark an ended timer seen (it leaves the main screen)", "Timer")) { request in
            let id = try request.itemID(.timer, services)
            let snapshot = try services.apply(DismissTimers(ids: [id]), for: request, before: { workspace in
                try TimerStore.checkDismissible(try workspace.timerStore().snapshot(ofTimer: id))
                try checkTimerPrecondition(request, id: id, workspace)
            }, answer: { _, workspace in try workspace.timerStore().snapshot(ofTimer: id) })
            return Items.response(WireFormat.timer(snapshot), for: request)
        }
        router.route(.delete, "/api/v1/timers/{id}",
                     Describe.change("Cancel a timer (kept, cancelled)", "Timer", isPost: false)) { request in
            let id = try request.itemID(.timer, services)
            let snapshot = try services.apply(ActOnTimer(.cancel, id: id), for: request) {
                try checkTimerPrecondition(request, id: id, $0)
            }
            return Items.response(WireFormat.timer(snapshot), for: request)
        }
        for action in [TimerAction.pause, .resume, .lap, .stop] {
            router.action("/api/v1/timers/{id}/\(action.rawValue)", services,
                          Describe.change(timerActionSummaries[action.rawValue] ?? action.rawValue, "Timer")) { request in
                let id = try request.itemID(.timer, services)
                let snapshot = try services.apply(ActOnTimer(action, id: id), for: request) {
                    try checkTimerPrecondition(request, id: id, $0)
                }
                return Items.response(WireFormat.timer(snapshot), for: request)
            }
        }
    }

    /// Refuses a change whose `If-Match` names another revision of timer
    /// `id` than the stored one (412 with the current timer).
    static func checkTimerPrecondition(_ request: Request, id: Int64, _ workspace: Workspace) throws {
        guard request.headers["If-Match"] != nil else { return }
        try Items.checkPrecondition(request, current: WireFormat.timer(workspace.timerStore().snapshot(ofTimer: id)))
    }

    /// `duration`: seconds as a number, the command line's words (`25m`), or
    /// absent for a stopwatch.
    static func timerDuration(_ document: JSONReader) throws -> Double? {
        guard let value = try document.member("duration") else { return nil }
        if case .string(let words) = value.value { return try DurationParser.seconds(in: words) }
        let seconds = try value.double()
        // Durations are kept to the millisecond (every document rounds them
        // so): a shorter one would be stored as 0, which is refused.
        guard seconds.isFinite, seconds >= DurationParser.minimumSeconds, seconds <= DurationParser.maximumSeconds else {
            throw value.failure(en: "a duration is at least 0.001 and at most \(Int(DurationParser.maximumSeconds)) seconds",
                                ko: "길이는 0.001초 이상, \(Int(DurationParser.maximumSeconds))초 이하여야 합니다")
        }
        return seconds
    }
}

extension MemoRoutes {
    static let timerActionSummaries = ["pause": "Pause", "resume": "Resume", "lap": "Record a lap (a stopwatch)",
                                       "stop": "Stop a stopwatch"]

    static let newTimerSchema = DocumentSchema.object([
        ("duration", DocumentSchema.nullable(.object([("anyOf", .array([
            .object([("type", .string("number")), ("minimum", .double(DurationParser.minimumSeconds)),
                     ("maximum", .double(DurationParser.maximumSeconds))]),
            DocumentSchema.string,
        ]))]))),
        ("label", DocumentSchema.nullable(DocumentSchema.string)),
        ("todo_id", DocumentSchema.nullable(Describe.minimumInteger(1, maximum: Int(Int64.max)))),
    ], optional: ["duration", "label", "todo_id"])
}
