import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Onboarding

/// The one place that decides, for any error, the HTTP status and the error
/// envelope the client gets (the same `{"error": {"code", "message"}}` as
/// the command line's --json), in the request's language.
enum ErrorResponses {
    /// The status for each kind of failure (docs/api.md, "Conventions").
    static func status(for kind: ErrorKind) -> Int {
        switch kind {
        case .usage: return 400
        case .unauthorized: return 401
        case .onboardingRequired: return 403
        case .notFound, .noInput: return 404
        case .invalidState, .duplicate: return 409
        case .tooLarge: return 413
        case .badInput: return 422
        case .storage, .unavailable: return 503
        case .internalFailure, .interrupted: return 500
        }
    }

    /// The error code for a refusal the HTTP layer makes itself (a path no
    /// route has, a method a path does not take, a head too large).
    static func code(forStatus status: Int) -> String {
        switch status {
        case 401: return ErrorKind.unauthorized.code
        case 403: return ErrorKind.onboardingRequired.code
        case 404: return ErrorKind.notFound.code
        case 405: return "method_not_allowed"
        case 409: return ErrorKind.invalidState.code
        case 413, 414, 431: return ErrorKind.tooLarge.code
        case 416: return "range_not_satisfiable"
        case 417: return "expectation_failed"
        case 421: return "misdirected_request"
        case 422: return ErrorKind.badInput.code
        case 501: return "not_implemented"
        case 500..<600 where status != 503: return ErrorKind.internalFailure.code
        case 503: return "unavailable"
        default: return ErrorKind.usage.code
        }
    }

    /// The response for `error` (anything a handler or the hook throws, or
    /// the server's own refusals).
    static func response(for error: any Error, request: Request?) -> Response {
        let language = request?.language ?? .en
        if let refusal = error as? APIRefusal {
            return envelope(status: refusal.status, code: refusal.code, message: refusal.message.text(in: language))
        }
        if let failure = error as? HTTPError {
            var response = envelope(status: failure.status, code: code(forStatus: failure.status),
                                    message: failure.message.text(in: language))
            for field in failure.headers { response.headers.set(field.name, field.value) }
            return response
        }
        let failure = Failure(error)
        let hint = failure.hint.flatMap(hintText(for:))?.text(in: language) ?? ""
        return envelope(status: status(for: failure.kind), code: code(for: failure),
                        message: failure.message.text(in: language) + hint)
    }

    /// The kind's word, but for the refusals sync's devices act on, whose
    /// hint is the code they look for (docs/sync.md).
    static func code(for failure: Failure) -> String {
        switch failure.hint {
        case .syncEpochChanged?, .syncOutOfOrder?: return failure.hint!.rawValue
        default: return failure.kind.code
        }
    }

    static func envelope(status: Int, code: String, message: String) -> Response {
        .json(ErrorEnvelope.json(code: code, message: message), status: status)
    }

    /// The API's words for a way past a failure (the command line names its
    /// commands instead).
    static func hintText(for hint: MemoError.Hint) -> Localized? {
        switch hint {
        case .completeOnboarding:
            return Localized(en: " (POST /api/v1/onboarding/skip, or finish the pages)",
                             ko: " (POST /api/v1/onboarding/skip 또는 페이지를 끝까지 넘기세요)")
        case .skipOnboarding:
            return Localized(en: " (POST /api/v1/onboarding/skip finishes from any page)",
                             ko: " (POST /api/v1/onboarding/skip은 어느 페이지에서나 마칩니다)")
        default:
            return nil
        }
    }
}

extension Request {
    /// The language of the answer: `?lang=ko|en`, else the first of Korean
    /// or English that `Accept-Language` names, else English.
    var language: Language {
        if let explicit = queryValue("lang"), let language = Language(rawValue: explicit) { return language }
        if let accepted = headers["Accept-Language"] {
            for range in accepted.split(separator: ",") {
                let tag = range.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() } ?? ""
                if tag.hasPrefix("ko") { return .ko }
                if tag.hasPrefix("en") { return .en }
            }
        }
        return .en
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let blanks = Set(set)
        let start = firstIndex { !blanks.contains($0) } ?? endIndex
        let end = lastIndex { !blanks.contains($0) }.map { index(after: $0) } ?? start
        return String(self[start..<Swift.max(start, end)])
    }
}

extension Response {
    /// A JSON document as the body.
    static func json(_ document: JSON, status: Int = 200) -> Response {
        .bytes(document.serializedBytes, status: status, contentType: "application/json")
    }
}

/// A refusal of the API's own with a code no error kind has (`csrf`).
struct APIRefusal: Error {
    let status: Int
    let code: String
    let message: Localized
}
