import MemoCore

/// The JSON Schema (draft 2020-12, as OpenAPI 3.1 has it) of each document
/// the encoders beside this file write, stated once, here: the API's
/// document (`/api/v1/openapi.json`) names them, and MemoServerTests'
/// `DocumentSchemaTests` holds each to the real documents the server
/// answers (same members, each of its type), so a member added to an
/// encoder and not here fails a test. Every member is required unless
/// named optional (a member present only for some items: a stopwatch's
/// `laps`); no member outside the list may appear.
public enum DocumentSchema {
    // MARK: - Pieces

    public static let integer = type("integer")
    public static let number = type("number")
    public static let string = type("string")
    public static let boolean = type("boolean")
    /// RFC 3339 UTC with milliseconds.
    public static let time = JSON.object([("type", .string("string")), ("format", .string("date-time"))])
    public static let uid = JSON.object([("type", .string("string")), ("format", .string("uuid"))])

    public static func type(_ name: String) -> JSON { .object([("type", .string(name))]) }

    /// `schema` or null.
    public static func nullable(_ schema: JSON) -> JSON {
        guard case .object(var members) = schema, let index = members.firstIndex(where: { $0.0 == "type" }),
              case .string(let name) = members[index].1 else {
            return .object([("anyOf", .array([schema, type("null")]))])
        }
        members[index].1 = .strings([name, "null"])
        // An enumeration must list null too, or null is still refused.
        if let choices = members.firstIndex(where: { $0.0 == "enum" }), case .array(let values) = members[choices].1 {
            members[choices].1 = .array(values + [.null])
        }
        return .object(members)
    }

    public static func array(_ items: JSON) -> JSON { .object([("type", .string("array")), ("items", items)]) }
    public static func choice(_ values: [String]) -> JSON {
        .object([("type", .string("string")), ("enum", .strings(values))])
    }
    public static func ref(_ name: String) -> JSON { .object([("$ref", .string("#/components/schemas/" + name))]) }

    /// An object of exactly these members, all required but `optional`.
    public static func object(_ members: [(String, JSON)], optional: Set<String> = []) -> JSON {
        .object([
            ("type", .string("object")),
            ("required", .strings(members.map(\.0).filter { !optional.contains($0) })),
            ("properties", .object(members)),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// A change's body: any of these members, at least one (`{}` changes
    /// nothing and is refused, 422).
    public static func changes(_ members: [(String, JSON)]) -> JSON {
        .object([
            ("type", .string("object")),
            ("properties", .object(members)),
            ("additionalProperties", .bool(false)),
            ("minProperties", .int(1)),
        ])
    }

    // MARK: - The documents

    static let todoMembers: [(String, JSON)] = [
        ("id", integer), ("uid", uid), ("rev", integer), ("title", string), ("note", nullable(string)),
        ("priority", nullable(choice(["low", "medium", "high"]))), ("tags", array(string)),
        ("due_at", nullable(time)), ("due_local", nullable(string)), ("due_has_time", boolean),
        ("remind_at", nullable(time)), ("is_done", boolean), ("is_overdue", boolean), ("is_due_today", boolean),
        ("done_at", nullable(time)), ("created_at", time), ("updated_at", time),
        ("repeat", nullable(object([("every", integer), ("unit", choice(["day", "week", "month", "year", "weekday"])),
                                    ("from", choice(["due", "done"]))]))),
    ]

    static let memoHead: [(String, JSON)] = [("id", integer), ("uid", uid), ("rev", integer), ("title", nullable(string))]
    static let memoTail: [(String, JSON)] = [("tags", array(string)), ("is_pinned", boolean),
                                             ("conflict_of", nullable(uid)), ("created_at", time), ("updated_at", time)]

    /// A voice memo over HTTP: `voiceMemo(_:file:)` without `file` (the
    /// server's path is nobody's business; `/audio` serves the sound).
    static let voiceMembers: [(String, JSON)] = [
        ("id", integer), ("uid", uid), ("rev", integer), ("title", string), ("original_name", string),
        ("container", string), ("encoding", string), ("sample_rate", integer), ("channels", integer),
        ("frames", integer), ("duration", number), ("size", integer), ("peak_level", number),
        ("peak_dbfs", nullable(number)), ("checksum", string), ("imported_at", time), ("updated_at", time),
        ("tags", array(string)),
    ]

    static let lap = object([("number", integer), ("elapsed", number), ("split", number), ("estimated", boolean),
                             ("recorded_at", time)])

    /// Every named schema, in the order a document lists them.
    public static let all: [(String, JSON)] = [
        ("Error", object([("error", object([("code", string), ("message", string)]))])),
        ("Todo", object(todoMembers)),
        ("TodoDetail", object(todoMembers + [("time_spent_seconds", number)])),
        ("Memo", object(memoHead + [("text", string)] + memoTail)),
        ("MemoSummary", object(memoHead + [("preview", string)] + memoTail)),
        ("VoiceMemo", object(voiceMembers)),
        ("Timer", object([
            ("id", integer), ("uid", uid), ("rev", integer), ("kind", choice(["countdown", "stopwatch"])),
            ("label", nullable(string)), ("state", choice(["running", "paused", "finished", "cancelled", "stopped"])),
            ("duration", nullable(number)), ("elapsed", number), ("remaining", nullable(number)), ("estimated", boolean),
            ("created_at", time), ("ends_at", nullable(time)), ("ended_at", nullable(time)),
            ("todo_id", nullable(integer)), ("seen_at", nullable(time)), ("updated_at", time), ("laps", array(lap)),
        ], optional: ["laps"])),
        ("SearchHit", object([
            ("kind", choice(["todo", "memo", "voice"])), ("id", integer), ("uid", nullable(string)),
            ("title", nullable(string)), ("field", nullable(string)), ("match_start", nullable(integer)),
            ("match_length", nullable(integer)), ("snippet", string), ("score", number), ("is_done", boolean),
            ("is_pinned", boolean), ("duration", number), ("updated_at", time),
        ], optional: ["score", "is_done", "is_pinned", "duration"])),
        ("UndoStep", object([("id", integer), ("description", string), ("origin", choice(["cli", "api", "web"])),
                             ("created_at", time)])),
        ("Onboarding", object([
            ("current_page", integer), ("page_count", integer), ("completed", boolean),
            ("completed_at", nullable(time)),
            ("pages", array(object([("index", integer), ("title", string), ("subtitle", string)]))),
        ])),
        ("ApiToken", object([("name", string), ("created_at", time), ("last_used_at", nullable(time)),
                             ("expires_at", nullable(time))])),
        ("CreatedToken", object([("name", string), ("token", string), ("created_at", time), ("expires_at", nullable(time))])),
        ("ParsedDue", object([("due_at", time), ("due_local", string), ("due_has_time", boolean),
                              ("warning", nullable(string))])),
        ("DeviceCode", object([("code", string), ("name", string), ("expires_at", time),
                               ("token_lifetime", nullable(number))])),
    ]

    /// What a removal answers: the removed items as they were.
    public static func removed(_ item: String) -> JSON {
        object([("removed", array(ref(item)))])
    }
}

extension JSON {
    /// An object schema's `properties` names, in order (a body's known keys).
    public var propertyNames: [String] {
        guard case .object(let members) = self,
              case .object(let properties)? = members.first(where: { $0.0 == "properties" })?.1 else { return [] }
        return properties.map(\.0)
    }
}
