import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import Onboarding
import SQLite

/// Turns changes to the database, by anyone (this server, a `memoapp`
/// command, another server), into events: `todo`, `memo`, `voice`, `timer`
/// with `{"action": "created"|"changed"|"removed", "id", "item"}`, and
/// `onboarding` with its state.
///
/// It knows each item by a fingerprint of the columns a change touches and
/// compares a fresh read with what it knew; `DataHomeWatcher` calls `scan`
/// whenever the database or its WAL is written. One scan reads one small row
/// per item, so its cost grows with the number of items (a personal
/// collection, not a service's).
final class ChangeFeed: @unchecked Sendable {
    let stream: EventStream
    private let services: ServerServices
    /// Called when timers changed, so the alarm recomputes its next wake-up.
    var onTimersChanged: (@Sendable () -> Void)?
    private var known: [Kind: [Int64: String]] = [:]
    private var onboarding: String?

    enum Kind: String, CaseIterable {
        case todo, memo, voice, timer

        /// `id` and a fingerprint of what a change of this item alters.
        var fingerprintSQL: String {
            switch self {
            case .todo: return "SELECT id, updated_at || '|' || coalesce(done_at, '') FROM todos"
            case .memo: return "SELECT id, updated_at || '|' || is_pinned FROM memos"
            case .voice:
                return "SELECT id, coalesce(updated_at, imported_at) || '|' || title || '|' || checksum FROM voice_memos"
            case .timer:
                return """
                    SELECT id, state || '|' || (SELECT count(*) FROM timer_spans s WHERE s.timer_id = t.id)
                        || '|' || (SELECT count(*) FROM timer_laps l WHERE l.timer_id = t.id) FROM timers t
                    """
            }
        }
    }

    init(services: ServerServices, stream: EventStream) {
        self.services = services
        self.stream = stream
    }

    /// Learns the current state without publishing anything: events are
    /// about changes after the server started.
    func prime() throws {
        try services.read { workspace in
            for kind in Kind.allCases { known[kind] = try fingerprints(kind, workspace.database()) }
            onboarding = try onboardingFingerprint(workspace.database())
        }
    }

    /// Compares the database with what was known and publishes the difference.
    func scan() throws {
        var timersChanged = false
        try services.read { workspace in
            let connection = try workspace.database()
            for kind in Kind.allCases {
                let now = try fingerprints(kind, connection)
                let before = known[kind] ?? [:]
                for (id, print) in now.sorted(by: { $0.key < $1.key }) where before[id] != print {
                    try publish(kind, action: before[id] == nil ? "created" : "changed", id: id, workspace)
                    if kind == .timer { timersChanged = true }
                }
                for id in before.keys.sorted() where now[id] == nil {
                    publish(kind, removed: id)
                    if kind == .timer { timersChanged = true }
                }
                known[kind] = now
            }
            let state = try onboardingFingerprint(connection)
            if state != onboarding {
                onboarding = state
                stream.publish(data: WireFormat.onboarding(try workspace.onboardingStore().state()).serialized,
                               event: "onboarding")
            }
        }
        if timersChanged { onTimersChanged?() }
    }

    // MARK: - Private

    private func fingerprints(_ kind: Kind, _ connection: Connection) throws -> [Int64: String] {
        var prints: [Int64: String] = [:]
        for (id, print) in try connection.query(kind.fingerprintSQL, map: { ($0.int64(0), $0.optionalString(1) ?? "") }) {
            prints[id] = print
        }
        return prints
    }

    private func onboardingFingerprint(_ connection: Connection) throws -> String {
        let state = try OnboardingStore(connection: connection).state()
        return "\(state.flow.currentPage)|\(state.isCompleted)"
    }

    private func publish(_ kind: Kind, action: String, id: Int64, _ workspace: Workspace) throws {
        let item: JSON
        do {
            item = try document(kind, id: id, workspace)
        } catch let error as MemoError where error.kind == .notFound {
            return
        }
        stream.publish(data: JSON.object([("action", .string(action)), ("id", .int(id)), ("item", item)]).serialized,
                       event: kind.rawValue)
    }

    private func publish(_ kind: Kind, removed id: Int64) {
        stream.publish(data: JSON.object([("action", .string("removed")), ("id", .int(id)), ("item", .null)]).serialized,
                       event: kind.rawValue)
    }

    /// The item's document, as its own route answers it.
    private func document(_ kind: Kind, id: Int64, _ workspace: Workspace) throws -> JSON {
        switch kind {
        case .todo:
            return MemoRoutes.encoder(services).json(try workspace.todoStore().todo(id: id))
        case .memo:
            return WireFormat.memo(try workspace.memoStore().memo(id: id))
        case .voice:
            let store = try workspace.voiceStore()
            return WireFormat.voiceMemo(try store.memo(id: id), in: store)
        case .timer:
            return WireFormat.timer(try workspace.timerStore().snapshot(ofTimer: id, persistingSettlement: false))
        }
    }
}
