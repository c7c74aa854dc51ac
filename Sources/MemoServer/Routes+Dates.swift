import HTTPServer
import MemoAPI
import MemoCore
import Notes

/// `GET /api/v1/dates/parse`: what a due date's words mean now, read by the
/// parser the to-do routes read `due` and `remind` with, so that a client
/// (the web page, which cannot run it) shows "Fri 18 Dec, 18:00" under the
/// field before saving, and the same refusal the save would get.
extension MemoRoutes {
    /// The longest words read, in Unicode scalars (JSON Schema's
    /// `maxLength`): far more than any date, and a refusal quoting them
    /// stays short.
    static let dateTextLimit = 200

    static func addDates(to router: inout Router, _ services: ServerServices) {
        router.route(.get, "/api/v1/dates/parse", RouteDescription(
            "What a due date's words mean now (nothing is stored): the to-do's due for them and a warning",
            query: [.init("text", .object([("type", .string("string")), ("minLength", .int(1)),
                                            ("maxLength", .int(dateTextLimit))]),
                          "the words a to-do's due takes (tomorrow 18:00, 오늘 밤, end of month)", required: true)],
            answers: [Describe.json(200, "the moment; warning: far in the past or the future, in the request's language",
                                    DocumentSchema.ref("ParsedDue"))])) { request in
            guard let text = request.queryValue("text"), (1...dateTextLimit).contains(text.unicodeScalars.count) else {
                throw MemoError(.usage, en: "'text' must be 1 to \(dateTextLimit) characters",
                                ko: "'text'는 1자에서 \(dateTextLimit)자 사이여야 합니다")
            }
            let calendar = SystemLocalCalendar()
            let dates = DueDateParser(now: services.clock.now(), calendar: calendar)
            let due = try dates.parse(text)
            return .json(WireFormat.parsedDue(due, calendar: calendar,
                                              warning: dates.warning(for: due)?.text(in: request.language)))
        }
    }
}
