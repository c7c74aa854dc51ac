import MemoCore

/// The error document every front end answers a failure with:
/// `{"error": {"code": "not_found", "message": "…"}}`. `code` is the kind's
/// stable English word; `message` is in the language of the request.
public enum ErrorEnvelope {
    public static func json(code: String, message: String) -> JSON {
        .object([("error", error(code: code, message: message))])
    }

    /// The inner `{"code", "message"}`, for reports that list a failure per
    /// item (a batch import names each file's).
    public static func error(code: String, message: String) -> JSON {
        .object([("code", .string(code)), ("message", .string(message))])
    }
}
