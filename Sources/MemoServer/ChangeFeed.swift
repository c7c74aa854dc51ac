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
/// whenever the database or its WAL is written, while anyone is subscribed.
/// One scan reads one small row per item, so its cost grows with the number
/// of items (a personal collection, not a service's).
final class ChangeFeed: @unchecked Sendable {
    let stream: EventStream
    /// Only `onboarding` events, for a client still on the onboarding: the
    /// main stream is behind the gate, and without this a page would not
    /// learn that the onboarding was completed elsewhere (`memoapp onboard`).
    /// While only it has subscribers, a scan reads the one onboarding row.
    let onboardingStream: EventStream
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
        onboardingStream = EventStream(stream.configuration)
    }

    /// Learns the current state without publishing anything: events are
    /// about changes after the server started.
    func prime() throws {
        try mutex.locked { try learn() }
    }

    /// Compares the database with what was known and publishes the
    /// difference. While no one is subscribed it only notes that what it
    /// knows is stale (a scan reads a row per item: not worth it for no one),
    /// and tells the timer alarm to look, since countdowns end regardless.
    func scan() throws {
        let timersChanged = try mutex.locked { () throws -> Bool in
            guard stream.subscriberCount > 0 else {
                isStale = true
                if onboardingStream.subscriberCount > 0 {
                    try services.read { try publishOnboardingIfChanged($0, $0.database()) }
                }
                return true
            }
            if isStale { return try relearn() }
            return try compare()
        }
        if timersChanged { onTimersChanged?() }
    }

    /// Before a client subscribes: what was missed while no one listened
    /// cannot be told item by item, so the state is learnt anew and a
    /// `resync` event tells a client resuming with `Last-Event-ID` to fetch
    /// everything again (a new client fetches anyway).
    func catchUp() throws {
        let relearnt = try mutex.locked { () throws -> Bool in isStale ? try relearn() : false }
        if relearnt { onTimersChanged?() }
    }

    private let mutex = Monitor()
    private var isStale = false

    private func relearn() throws -> Bool {
        try learn()
        isStale = false
        stream.publish(data: "", event: stream.configuration.resyncEventType)
        return true
    }

    private func learn() throws {
        try services.read { workspace in
            for kind in Kind.allCases { known[kind] = try fingerprints(kind, workspace.database()) }
            onboarding = try onboardingFingerprint(workspace.database())
        }
    }

    /// Publishes every difference; whether timers changed.
    private func compare() throws -> Bool {
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
            try publishOnboardingIfChanged(workspace, connection)
        }
        return timersChanged
    }

    private func publishOnboardingIfChanged(_ workspace: Workspace, _ connection: Connection) throws {
        let state = try onboardingFingerprint(connection)
        guard state != onboarding else { return }
        onboarding = state
        let data = WireFormat.onboarding(try workspace.onboardingStore().state()).serialized
        stream.publish(data: data, event: "onboarding")
        onboardingStream.publish(data: data, event: "onboarding")
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
