import MemoCore

/// The sync protocol's documents (docs/sync.md), written and read by the
/// same code on the hub and on a device: one wire format.
public enum SyncDocuments {
    /// The most changes one push may carry, and one pull page at most.
    public static let maximumChanges = 2_000
    /// The pull page a device asks for.
    public static let defaultPage = 1_000

    /// One item's state as a pull delivers it: compacted to the newest of
    /// each field, with each field's stamp.
    struct Pulled {
        let kind: SyncedKind
        let uid: String
        let seq: Int64
        let values: SyncedKind.Values?
        let clocks: [String: Int64]
    }

    /// One change a device pushes.
    struct Pushed {
        let kind: SyncedKind
        let uid: String
        /// The device's number for the change: increasing, applied once.
        let change: Int64
        /// nil for a removal.
        let values: SyncedKind.Values?
        /// The fields the device changed since it last synced the item.
        let changed: [String]
        /// The stamp of each field sent: the changed ones', and with a full
        /// copy (`changed` a subset) every field's as last synced.
        let clocks: [String: Int64]
        /// The memo text and tags the device last synced (its merge base).
        let baseText: String?
        let baseTags: [String]?
    }

    static func json(_ pulled: Pulled) -> JSON {
        var members: [(String, JSON)] = [("kind", .string(pulled.kind.kind.rawValue)), ("uid", .string(pulled.uid)),
                                         ("seq", .int(pulled.seq)), ("removed", .bool(pulled.values == nil))]
        if let values = pulled.values { members.append(("values", pulled.kind.json(values))) }
        members.append(("clocks", SyncRecord.encodeClocks(pulled.clocks)))
        return .object(members)
    }

    static func pulled(_ reader: JSONReader) throws -> Pulled {
        try reader.refuseMembers(except: ["kind", "uid", "seq", "removed", "values", "clocks"])
        let kind = try syncedKind(reader)
        let removed = try reader.bool("removed")
        // The hub's own values: it bounded them when they were pushed, and a
        // memo written on it may be longer than a push carries.
        let values = removed ? nil : try kind.values(from: try reader.required("values"), isOwnRecord: true)
        return Pulled(kind: kind, uid: try uid(reader), seq: try reader.int("seq"), values: values,
                      clocks: try SyncRecord.decodeClocks(try reader.required("clocks")))
    }

    static func json(_ pushed: Pushed) -> JSON {
        var members: [(String, JSON)] = [("kind", .string(pushed.kind.kind.rawValue)), ("uid", .string(pushed.uid)),
                                         ("change", .int(pushed.change)), ("removed", .bool(pushed.values == nil))]
        if let values = pushed.values { members.append(("values", pushed.kind.json(values))) }
        members.append(("changed", .strings(pushed.changed)))
        members.append(("clocks", SyncRecord.encodeClocks(pushed.clocks)))
        if pushed.baseText != nil || pushed.baseTags != nil {
            var base: [(String, JSON)] = []
            if let text = pushed.baseText { base.append(("text", .string(text))) }
            if let tags = pushed.baseTags { base.append(("tags", .strings(tags))) }
            members.append(("base", .object(base)))
        }
        return .object(members)
    }

    static func pushed(_ reader: JSONReader) throws -> Pushed {
        try reader.refuseMembers(except: ["kind", "uid", "change", "removed", "values", "changed", "clocks", "base"])
        let kind = try syncedKind(reader)
        let removed = try reader.bool("removed")
        let values = removed ? nil : try kind.values(from: try reader.required("values"))
        let changed = try reader.required("changed").elements().map { try $0.string() }
        let clocks = try SyncRecord.decodeClocks(try reader.required("clocks"))
        for field in changed + Array(clocks.keys) where field != removedClock && !kind.fieldNames.contains(field) {
            throw MemoError(.badInput, en: "a \(kind.kind.rawValue) has no field \(field)",
                            ko: "\(kind.kind.rawValue)에는 \(field) 필드가 없습니다")
        }
        let change = try reader.int("change")
        guard change >= 1 else {
            throw MemoError(.badInput, en: "a change's number starts at 1", ko: "변경 번호는 1부터입니다")
        }
        var baseText: String?, baseTags: [String]?
        if let base = try reader.member("base") {
            try base.refuseMembers(except: ["text", "tags"])
            baseText = try base.optionalString("text")
            baseTags = try base.member("tags").map { try Tags.normalized(try $0.elements().map { try $0.string() }) }
        }
        return Pushed(kind: kind, uid: try uid(reader), change: change, values: values, changed: changed, clocks: clocks,
                      baseText: baseText, baseTags: baseTags)
    }

    private static func syncedKind(_ reader: JSONReader) throws -> SyncedKind {
        let name = try reader.string("kind")
        guard let kind = SyncedKind.named(name) else {
            throw MemoError(.badInput, en: "sync carries to-dos, memos and timers, not \(name)",
                            ko: "동기화는 할 일, 메모, 타이머를 옮깁니다(\(name)은 아님)")
        }
        return kind
    }

    private static func uid(_ reader: JSONReader) throws -> String {
        let uid = try reader.string("uid").lowercased()
        guard UUID4.isWellFormed(uid) else {
            throw MemoError(.badInput, en: "a uid is a UUID", ko: "uid는 UUID입니다")
        }
        return uid
    }
}

extension JSONReader {
    /// The member `key`, which must be present.
    public func required(_ key: String) throws -> JSONReader {
        guard let member = try member(key) else {
            throw MemoError(.badInput, en: "\(key) is missing", ko: "\(key) 항목이 없습니다")
        }
        return member
    }

    /// Refuses an object with a member not in `allowed`, as every body of
    /// the API is refused.
    public func refuseMembers(except allowed: Set<String>) throws {
        for (key, _) in try members() where !allowed.contains(key) {
            throw MemoError(.badInput, en: "unknown member \(key)", ko: "알 수 없는 항목 \(key)")
        }
    }
}
