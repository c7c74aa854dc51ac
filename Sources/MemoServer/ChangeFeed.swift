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
/// It reads MemoKit's `ChangeLog`, which the database's own triggers fill
/// whoever writes, from the newest entry it has seen: `DataHomeWatcher`
/// calls `scan` whenever the database or its WAL is written, while anyone is
/// subscribed, and a scan reads only the entries since the last one, so its
/// cost follows what changed, not how many items there are. Several changes
/// of one item in one scan make one event, with the item as it is now.
/// What cannot be told item by item (a bulk write, more changes than the log
/// keeps, a restored database) is told by one `resync` event.
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
    /// The newest log entry published: the feed's only memory of the items.
    private(set) var position = ChangeLog.Position.beforeFirstEntry
    private var onboarding: String?
    /// The most log entries one scan publishes one by one; beyond, `resync`.
    let entriesPerScan: Int

    init(services: ServerServices, stream: EventStream, entriesPerScan: Int = Int(ChangeLog.keptEntries)) {
        self.services = services
        self.stream = stream
        self.entriesPerScan = entriesPerScan
        onboardingStream = EventStream(stream.configuration)
    }

    /// Learns where the log ends (one row) and the onboarding state, without
    /// publishing anything: events are about changes after the server started.
    func prime() throws {
        try mutex.locked {
            try services.read { workspace in
                let connection = try workspace.database()
                try connection.readTransaction {
                    position = try ChangeLog.newestPosition(in: connection)
                    onboarding = try onboardingFingerprint(connection)
                }
            }
        }
    }

    /// Publishes what was logged since the last scan. While no one is
    /// subscribed it only notes that it has fallen behind (the changes would
    /// go to no one, and a client resuming later is told `resync`), and
    /// tells the timer alarm to look, since countdowns end regardless.
    func scan() throws {
        // First: a revocation and a change seen in the same look must not
        // send the change to the revoked client.
        try endStreamsOfRevokedCredentials()
        let timersChanged = try mutex.locked { () throws -> Bool in
            guard stream.subscriberCount > 0 else {
                isStale = true
                if onboardingStream.subscriberCount > 0 {
                    try services.read { try publishOnboardingIfChanged($0, $0.database()) }
                }
                return true
            }
            if isStale { return try startAgain() }
            return try publishChanges()
        }
        if timersChanged { onTimersChanged?() }
    }

    /// Before a client subscribes: what was missed while no one listened
    /// is not told item by item, so a `resync` event tells a client resuming
    /// with `Last-Event-ID` to fetch everything again (a new client fetches
    /// anyway), and the feed goes on from the log's newest entry.
    func catchUp() throws {
        // No reader may be held while waiting for the feed: the scan, holding
        // it, may be waiting for a reader, and the request's hook leased one
        // to read its credential. With every pooled reader held by requests
        // waiting here, 1,000 subscribers after a burst of writes hung the
        // server (scripts/bench's serve section: 213 of 1,000 streams opened).
        services.endRequestReads()
        let startedAgain = try mutex.locked { () throws -> Bool in isStale ? try startAgain() : false }
        if startedAgain { onTimersChanged?() }
    }

    private let mutex = Monitor()
    private var isStale = false

    /// Ends every open stream whose credential no longer holds: a token
    /// revoked (by `memoapp token revoke`, another process) or expired, a session
    /// signed out, ended (`memoapp token end-session`) or expired. The hook
    /// checks each request once, but a stream is one request that lasts:
    /// without this it went on delivering whole items to a client that had
    /// lost its access. Runs at every look (a revocation is a write to the
    /// database, which wakes the watcher), when a client subscribes and at
    /// every heartbeat (`EventStream.onSubscribeOrHeartbeat`), so also a
    /// session or token that expires with no write at all is noticed. One indexed
    /// read per distinct credential with a stream open; none without one.
    func endStreamsOfRevokedCredentials() throws {
        let owners = stream.owners.union(onboardingStream.owners)
        guard !owners.isEmpty else { return }
        let now = services.clock.now()
        let gone = try services.read { workspace -> Set<String> in
            let connection = try workspace.database()
            return try connection.readTransaction {
                let tokens = AccessTokens(connection: connection)
                let sessions = WebSessions(connection: connection)
                return try owners.filter { owner in
                    guard let digest = AccessTokens.bytes(hex: owner.dropFirst(2)) else { return true }
                    switch owner.prefix(2) {
                    case "t:": return try !tokens.isLive(digest: digest, at: now)
                    case "s:": return try !sessions.isLive(digest: digest, at: now)
                    default: return true
                    }
                }
            }
        }
        stream.end(owners: gone)
        onboardingStream.end(owners: gone)
    }

    /// Goes on from the newest entry with `resync`; whether timers may have
    /// changed (always: nothing says they did not).
    private func startAgain() throws -> Bool {
        try services.read { workspace in
            let connection = try workspace.database()
            position = try ChangeLog.newestPosition(in: connection)
            onboarding = try onboardingFingerprint(connection)
        }
        isStale = false
        stream.publish(data: "", event: stream.configuration.resyncEventType)
        return true
    }

    /// Publishes the entries after `position`, one event per item; whether
    /// timers changed.
    private func publishChanges() throws -> Bool {
        let timersChanged = try services.read { workspace -> Bool? in
            let connection = try workspace.database()
            return try connection.readTransaction { () throws -> Bool? in
                switch try ChangeLog.changes(after: position, limit: entriesPerScan, in: connection) {
                case .startAgain:
                    return nil
                case let .changes(entries, next):
                    let changed = ChangedItems(entries)
                    for item in changed.items { try publish(item, workspace) }
                    position = next
                    try publishOnboardingIfChanged(workspace, connection)
                    return changed.items.contains { $0.kind == .timer }
                }
            }
        }
        guard let timersChanged else { return try startAgain() }
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

    private func onboardingFingerprint(_ connection: Connection) throws -> String {
        let state = try OnboardingStore(connection: connection).state()
        return "\(state.flow.currentPage)|\(state.isCompleted)"
    }

    /// The item's event: its document as it is now, `created` when the
    /// batch made it and `changed` otherwise; `removed` when it is gone, and
    /// nothing for an item made and removed within the batch.
    private func publish(_ changed: ChangedItems.Item, _ workspace: Workspace) throws {
        let item: JSON
        do {
            item = try document(changed.kind, id: changed.id, workspace)
        } catch let error as MemoError where error.kind == .notFound {
            guard !changed.isNew else { return }
            stream.publish(data: JSON.object([("action", .string("removed")), ("id", .int(changed.id)), ("item", .null)]).serialized,
                           event: changed.kind.rawValue)
            return
        }
        let action = changed.isNew ? "created" : "changed"
        stream.publish(data: JSON.object([("action", .string(action)), ("id", .int(changed.id)), ("item", item)]).serialized,
                       event: changed.kind.rawValue)
    }

    /// The item's document, as its own route answers it.
    private func document(_ kind: ChangeLog.Kind, id: Int64, _ workspace: Workspace) throws -> JSON {
        switch kind {
        case .todo:
            return MemoRoutes.encoder(services).json(try workspace.todoStore().todo(id: id))
        case .memo:
            return WireFormat.memo(try workspace.memoStore().memo(id: id))
        case .voice:
            let store = try workspace.voiceStore()
            return WireFormat.voiceMemo(try store.memo(id: id))
        case .timer:
            return WireFormat.timer(try workspace.timerStore().snapshot(ofTimer: id, persistingSettlement: false))
        }
    }
}

/// A scan's log entries gathered by item: one per item, in the order of
/// each item's last change, remembering whether the first entry made it.
struct ChangedItems {
    struct Item {
        let kind: ChangeLog.Kind
        let id: Int64
        /// The item did not exist before these entries.
        let isNew: Bool
    }

    private(set) var items: [Item] = []

    init(_ entries: [ChangeLog.Entry]) {
        struct Key: Hashable {
            let kind: ChangeLog.Kind
            let id: Int64
        }
        var firsts: [Key: (isNew: Bool, last: Int)] = [:]
        for (index, entry) in entries.enumerated() {
            guard let kind = entry.kind else { continue }
            let key = Key(kind: kind, id: entry.itemID)
            let isNew = firsts[key]?.isNew ?? (entry.action == .created)
            firsts[key] = (isNew, index)
        }
        items = firsts.sorted { $0.value.last < $1.value.last }
            .map { Item(kind: $0.key.kind, id: $0.key.id, isNew: $0.value.isNew) }
    }
}
