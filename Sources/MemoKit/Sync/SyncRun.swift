import MemoCore
import SQLite

/// How a device reaches its hub: the HTTP client in the command line, a
/// test's in-process hub. Errors come as `MemoError`s: `unauthorized`,
/// `unavailable`, and the hub's own (an epoch changed, out of order).
public protocol SyncTransport {
    /// `GET /api/v1/sync/changes`: a page after `cursor`; with `counting`,
    /// also how many items remain after it.
    func pull(after cursor: Int64, epoch: String?, limit: Int, counting: Bool) throws -> JSONReader
    /// `POST /api/v1/sync/changes`: a batch of changes.
    func push(_ document: JSON) throws -> JSONReader
}

/// One sync of a device with its hub: push what waits, then pull what
/// changed, each page in its own transaction, so a sync cut at any moment
/// loses nothing and the next one goes on from what was committed.
public struct SyncRun {
    let workspace: Workspace
    let transport: any SyncTransport

    public init(_ workspace: Workspace, transport: any SyncTransport) {
        self.workspace = workspace
        self.transport = transport
    }

    /// What a sync did.
    public struct Report: Sendable {
        public var pushed = 0
        public var pulled = 0
        public var written = 0
        public var kept: [String] = []
        public var conflicts: [String] = []
        /// Whether the hub was met afresh (a first sync, or a new epoch).
        public var tookFreshCopy = false
    }

    /// Saves `server` and `token` as this home's hub.
    public static func configure(_ workspace: Workspace, server: String, token: String) throws {
        let connection = try workspace.database()
        try connection.writeTransaction {
            try SyncDevice(connection: connection, clock: workspace.clock).configure(server: server, token: token)
        }
    }

    /// The saved token (the device's credential on its hub).
    public static func token(_ workspace: Workspace) throws -> String {
        try workspace.database().queryFirst("SELECT token FROM sync_remote") { $0.string(0) } ?? ""
    }

    /// The data home's newest revision: a watcher's way to tell a change
    /// from a sync's own writes.
    public static func newestRev(_ workspace: Workspace) throws -> Int64 {
        try Revisions.newest(in: workspace.database())
    }

    /// The saved hub, if any.
    public static func status(_ workspace: Workspace) throws -> SyncStatus? {
        let connection = try workspace.database()
        return try connection.writeTransaction { () -> SyncStatus? in
            let device = SyncDevice(connection: connection, clock: workspace.clock)
            guard let remote = try device.remote() else { return nil }
            let conflicts = try connection.queryFirst(
                "SELECT count(*) FROM memos WHERE conflict_of IS NOT NULL") { $0.int(0) } ?? 0
            return SyncStatus(server: remote.server, lastSync: remote.lastSync, lastError: remote.lastError,
                              waiting: try device.waitingCount(remote: remote), conflicts: conflicts,
                              epoch: remote.epoch)
        }
    }

    /// Syncs once; `progress` is told (done, total) items as they are sent
    /// and taken (the total grows when the first page tells what comes).
    public func run(force: Bool, progress: ((Int, Int) -> Void)? = nil) throws -> Report {
        var report = Report()
        do {
            try once(force: force, progress: progress, into: &report)
        } catch let error as MemoError where error.hint == .syncEpochChanged || error.hint == .syncOutOfOrder {
            // The hub is not the one this device knew: meet it afresh, once.
            try write { try $0.forgetHub() }
            report = Report()
            try once(force: force, progress: progress, into: &report)
        }
        return report
    }

    // MARK: - Private

    private func once(force: Bool, progress: ((Int, Int) -> Void)?, into report: inout Report) throws {
        guard var remote = try write({ try $0.remote() }) else {
            throw MemoError(.usage, hint: .syncNeedsServer, en: "no server to sync with is saved in this data home",
                            ko: "이 데이터 홈에는 동기화할 서버가 저장되어 있지 않습니다")
        }
        report.tookFreshCopy = remote.epoch == nil
        do {
            var tally = Tally(told: progress)
            let scanned = try push(&remote, force: force, tally: &tally, into: &report)
            try pull(&remote, tally: &tally, into: &report)
            try write { try $0.scanned(through: scanned) }
        } catch let error as MemoError {
            try? write { try $0.note(error: error.message.en, syncedAt: nil) }
            throw error
        }
        try write { try $0.note(error: nil, syncedAt: workspace.clock.now()) }
    }

    /// Sends what waits; returns the rev the next scan starts at.
    private func push(_ remote: inout Remote, force: Bool, tally: inout Tally, into report: inout Report) throws -> Int64 {
        let outgoing = try write { try $0.outgoing(remote: remote) }
        if !force, outgoing.removals >= SyncRun.massRemovalFloor, outgoing.removals * 2 > outgoing.liveItems {
            throw MemoError(.invalidState, hint: .confirmMassRemoval,
                            en: "this sync would remove \(outgoing.removals) of \(outgoing.liveItems) items on the server",
                            ko: "이번 동기화는 서버의 항목 \(outgoing.liveItems)개 중 \(outgoing.removals)개를 지웁니다")
        }
        let device = try write { try $0.deviceID() }
        tally.total += outgoing.candidates.count
        var start = 0
        while start < outgoing.candidates.count {
            // A batch's values are read when it is sent: a full copy of a
            // large home is never held whole.
            let end = min(start + SyncRun.batchSize, outgoing.candidates.count)
            let batch = try write { try $0.changes(outgoing.candidates[start..<end], fullCopy: outgoing.isFullCopy) }
            tally.add(end - start)
            start = end
            // Split by size too: long memos (and their bases) fill a push
            // sooner than a count does.
            var part: [SyncDocuments.Pushed] = [], bytes = 0
            for change in batch {
                let size = SyncDocuments.json(change).serializedBytes.count
                if !part.isEmpty, bytes + size > SyncRun.batchBytes {
                    try send(part, device: device, remote: &remote, into: &report)
                    part = []
                    bytes = 0
                }
                part.append(change)
                bytes += size
            }
            if !part.isEmpty { try send(part, device: device, remote: &remote, into: &report) }
        }
        return outgoing.scannedThrough
    }

    private func send(_ changes: [SyncDocuments.Pushed], device: String, remote: inout Remote,
                      into report: inout Report) throws {
        let document = JSON.object([
            ("epoch", remote.epoch.map(JSON.string) ?? .null), ("device", .string(device)),
            ("from", .int(remote.pushedThrough)), ("changes", .array(changes.map(SyncDocuments.json))),
        ])
        let answer = try transport.push(document)
        let through = try answer.int("through")
        try write { try $0.acknowledge(changes, through: through) }
        remote.pushedThrough = max(remote.pushedThrough, through)
        report.pushed += changes.count
        report.kept += try answer.required("kept").elements().map { try $0.string() }
        report.conflicts += try answer.required("conflicts").elements().map { try $0.string("copy") }
    }

    private func pull(_ remote: inout Remote, tally: inout Tally, into report: inout Report) throws {
        var more = true
        var isFirst = true
        while more {
            let answer = try transport.pull(after: remote.cursor, epoch: remote.epoch, limit: SyncDocuments.defaultPage,
                                            counting: isFirst && tally.told != nil)
            let epoch = try answer.string("epoch")
            if let known = remote.epoch, known != epoch {
                throw MemoError(.invalidState, hint: .syncEpochChanged, en: "the server's data was replaced",
                                ko: "서버의 데이터가 바뀌었습니다")
            }
            let page = try answer.required("changes").elements().map(SyncDocuments.pulled)
            let cursor = try answer.int("cursor")
            more = try answer.bool("more") && !page.isEmpty
            let current = remote
            report.written += try write { try $0.apply(page: page, cursor: cursor, epoch: epoch, remote: current) }
            report.pulled += page.count
            remote.cursor = cursor
            remote.epoch = epoch
            if isFirst, let remaining = try answer.member("remaining") { tally.total += page.count + Int(try remaining.int()) }
            isFirst = false
            tally.add(page.count)
        }
    }

    private typealias Remote = SyncDevice.Remote

    /// Items sent and taken so far, of how many, told to a progress bar.
    private struct Tally {
        let told: ((Int, Int) -> Void)?
        var done = 0
        var total = 0

        mutating func add(_ count: Int) {
            done += count
            told?(done, max(total, done))
        }
    }

    private func write<T>(_ body: (SyncDevice) throws -> T) throws -> T {
        let connection = try workspace.database()
        return try connection.writeTransaction {
            try body(SyncDevice(connection: connection, clock: workspace.clock))
        }
    }

    /// Changes per push: well under the hub's 2,000 and, with memos of
    /// ordinary length, its 8 MiB.
    static let batchSize = 500
    /// Bytes of changes per push: half the hub's limit.
    static let batchBytes = 4 << 20

    /// A sync removing fewer items than this never asks.
    public static let massRemovalFloor = 10
}

/// What `memoapp sync --status` tells.
public struct SyncStatus: Sendable {
    public let server: String
    public let lastSync: Timestamp?
    public let lastError: String?
    public let waiting: Int
    public let conflicts: Int
    public let epoch: String?
}

extension MemoError.Hint {
    /// Sync needs a server (and a token) the first time.
    public static let syncNeedsServer = MemoError.Hint(rawValue: "sync_needs_server")
    /// A sync removing more than half of the items goes on only when asked again.
    public static let confirmMassRemoval = MemoError.Hint(rawValue: "confirm_mass_removal")
}
