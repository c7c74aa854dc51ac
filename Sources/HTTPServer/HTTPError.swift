import MemoCore

/// A failure with the HTTP status it should be answered with: what the
/// server itself refuses (400, 404, 405, 413, 431, 503) and what a handler may
/// throw. `ServerConfiguration.errorResponse` turns it, or any other error a
/// handler throws, into the response the client gets.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var message: Localized
    /// Fields the response must carry, e.g. `Allow` on a 405.
    public var headers: Headers

    public init(status: Int, message: Localized, headers: Headers = [:]) {
        precondition((400...599).contains(status), "an HTTPError's status is 4xx or 5xx, not \(status)")
        self.status = status
        self.message = message
        self.headers = headers
    }

    public init(status: Int, en: String, ko: String, headers: Headers = [:]) {
        self.init(status: status, message: Localized(en: en, ko: ko), headers: headers)
    }

    public var description: String { "\(status): \(message.en)" }

    /// The response a server gives when the app sets no `errorResponse`:
    /// the status and the English message as plain text; any error that is
    /// not an HTTPError is a 500 that does not show its details.
    public static func plainResponse(for error: any Error, request: Request?) -> Response {
        let failure = error as? HTTPError ?? .internalError
        var response = Response.text(failure.message.en + "\n", status: failure.status)
        for field in failure.headers { response.headers.set(field.name, field.value) }
        return response
    }

    static let internalError = HTTPError(status: 500, en: "Internal server error", ko: "서버 내부 오류")
}
