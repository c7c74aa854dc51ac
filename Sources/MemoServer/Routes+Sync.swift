import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import SQLite

/// `/api/v1/sync/changes`: the hub's side of sync (docs/sync.md). Each
/// credential is a device; a pull pages through what changed after a
/// cursor, a push brings a device's changes, merged by the rules there.
extension MemoRoutes {
    /// The most bytes one push may have: a thousand changes of memos with
    /// long texts, and their merge bases.
    static let syncPushLimit: UInt64 = 8 << 20
    /// Items the hub publishes in one write transaction.
    static let publishedPerTransaction = 20_000

    static func addSync(to router: inout Router, _ services: ServerServices) {
        // Both directions are slow routes (see HandlerPool): a new device's
        // pull reads up to thousands of changes, a push applies a thousand.
        router.route(.get, "/api/v1/sync/changes", syncPullDescription, slow: true) { request in
            let after = try request.queryInt64("after") ?? 0
            let limit = try request.queryInt("limit", in: 1...SyncDocuments.maximumChanges) ?? SyncDocuments.defaultPage
            let epoch = request.queryValue("epoch")
            try publish(services, epoch: epoch)
            let counting = try request.queryBool("count")
            let page = try services.read { try SyncHub($0).pull(after: after, limit: limit, counting: counting) }
            // A new device's pages are megabytes of JSON that shrinks to a
            // fifth or less: gzipped for a client that asks.
            return try Response.json(page).compressed(for: request)
        }
        router.collect(.post, "/api/v1/sync/changes", bodyLimit: syncPushLimit, syncPushDescription,
                       slow: true) { request, body in
            try JSONBody.reading {
                let document = try JSONBody.object(body, allowedKeys: ["epoch", "device", "from", "changes"])
                let epoch = try document.member("epoch").flatMap { $0.isNull ? nil : try $0.string() }
                let device = try document.string("device")
                guard (1...64).contains(device.utf8.count), device.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                    throw MemoError(.badInput, en: "a device names itself with 1 to 64 visible ASCII characters",
                                    ko: "기기 이름은 보이는 ASCII 문자 1~64자입니다")
                }
                let owner = Access.credentialIdentity(request) ?? "-"
                try publish(services, epoch: epoch)
                let result = try services.write { workspace in
                    let hub = try SyncHub(workspace)
                    try hub.check(epoch: epoch)
                    do {
                        return try hub.push(document, device: owner + " " + device)
                    } catch let error as SQLiteError where error.isConstraintViolation {
                        // A value a table's CHECK refuses (a priority of 7):
                        // the device's fault, and nothing of it was kept.
                        throw MemoError(.badInput, en: "a change holds a value memoapp cannot keep: \(error.message)",
                                        ko: "변경에 memoapp이 보관할 수 없는 값이 있습니다: \(error.message)")
                    }
                }
                return .json(result.json)
            }
        }
    }

    /// Publishes the hub's own changes, a bounded number a transaction, so
    /// that the first sync of a large home does not hold every writer back
    /// for as long as it takes (a push then publishes the few left inside
    /// its own transaction).
    static func publish(_ services: ServerServices, epoch: String?) throws {
        while try !services.write({ workspace in
            let hub = try SyncHub(workspace)
            try hub.check(epoch: epoch)
            return try hub.publishLocalChanges(limit: publishedPerTransaction)
        }) {}
    }

    static let syncPullDescription: RouteDescription = {
        var about = RouteDescription("Changes after a cursor, each item once as it is now (docs/sync.md)", query: [
            .init("after", Describe.minimumInteger(0, maximum: Int(Int64.max)), "the cursor of the previous page (0: from the start)"),
            .init("limit", Describe.minimumInteger(1, maximum: SyncDocuments.maximumChanges), "changes per page (default 1000)"),
            .init("epoch", DocumentSchema.string, "the hub's epoch the device knows (409 when it is another)"),
            .init("count", Describe.flag, "also answer `remaining`: the items after this page (for a progress bar)"),
        ], answers: [
            Describe.json(200, "a page of changes", DocumentSchema.object([
                ("epoch", DocumentSchema.string), ("cursor", DocumentSchema.integer), ("more", DocumentSchema.boolean),
                ("changes", DocumentSchema.array(.object([("type", .string("object"))]))), ("remaining", DocumentSchema.integer),
            ], optional: ["remaining"])),
            Describe.json(409, "another epoch: take a fresh copy", DocumentSchema.ref("Error")),
        ])
        return about
    }()

    static let syncPushDescription: RouteDescription = {
        let body = JSON.object([
            ("type", .string("object")),
            ("required", .strings(["device", "from", "changes"])),
            ("properties", .object([
                ("epoch", DocumentSchema.nullable(DocumentSchema.string)),
                ("device", .object([("type", .string("string")), ("minLength", .int(1)), ("maxLength", .int(64)),
                                    ("pattern", .string("^[!-~]+$"))])),
                ("from", Describe.minimumInteger(0, maximum: Int(Int64.max))),
                ("changes", .object([("type", .string("array")), ("maxItems", .int(SyncDocuments.maximumChanges)),
                                     ("items", .object([("type", .string("object"))]))])),
            ])),
            ("additionalProperties", .bool(false)),
        ])
        return RouteDescription("Push a device's changes, each applied once and merged (docs/sync.md)",
                                body: RouteDescription.Body("application/json", body), answers: [
            Describe.json(200, "what was applied", DocumentSchema.object([
                ("through", DocumentSchema.integer), ("applied", DocumentSchema.integer), ("skipped", DocumentSchema.integer),
                ("kept", DocumentSchema.array(DocumentSchema.uid)),
                ("conflicts", DocumentSchema.array(DocumentSchema.object([("uid", DocumentSchema.uid),
                                                                          ("copy", DocumentSchema.uid)]))),
            ])),
            Describe.json(409, "another epoch, or changes out of order: the message names the one expected",
                          DocumentSchema.ref("Error")),
            Describe.json(413, "more than 2,000 changes or 8 MiB", DocumentSchema.ref("Error")),
            Describe.json(422, "a change that is not one of these objects, or a value it cannot take",
                          DocumentSchema.ref("Error")),
        ])
    }()
}

extension Request {
    /// The query item `name` as a whole number from 0, or nil when absent.
    func queryInt64(_ name: String) throws -> Int64? {
        guard let text = queryValue(name) else { return nil }
        guard text.utf8.count <= 19, let value = Int64(text), value >= 0 else {
            throw MemoError(.usage, en: "'\(name)' must be a whole number from 0", ko: "'\(name)' 값은 0 이상의 정수여야 합니다")
        }
        return value
    }
}
