#if canImport(Glibc)
import Glibc
#endif
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
    /// `GET /api/v1/sync/blobs/CHECKSUM/received`: nil when the hub holds the audio
    /// whole, else how many of its bytes it has received so far.
    func blobReceived(_ checksum: String) throws -> Int64?
    /// `PUT /api/v1/sync/blobs/CHECKSUM`: the bytes of the file at `path`
    /// from `offset` to its `size`, streamed (`Content-Range`).
    func uploadBlob(_ checksum: String, path: String, offset: Int64, size: Int64) throws
    /// `GET /api/v1/sync/blobs/CHECKSUM` from `offset` (`Range`), each piece
    /// handed to `write` as it arrives; `invalidState` with the hint
    /// `blobOffset` when nothing comes after `offset` (`416`).
    func downloadBlob(_ checksum: String, offset: Int64, write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws
}

/// One sync of a device with its hub: push what waits, then pull what
/// changed, each page in its own transaction, so a sync cut at any moment
/// loses nothing and the next one goes on from what was committed.
public struct SyncRun {
    let workspace: Workspace
    let transport: any SyncTransport
    private var place: SyncPlace { SyncRun.place(workspace) }

    static func place(_ workspace: Workspace) -> SyncPlace {
        SyncPlace(voiceDirectory: workspace.home.voiceDirectory, clock: workspace.clock)
    }

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
        /// Bytes of voice memos' audio sent and taken.
        public var audioSent: Int64 = 0
        public var audioReceived: Int64 = 0
    }

    /// Saves `server` and `token` as this home's hub.
    public static func configure(_ workspace: Workspace, server: String, token: String) throws {
        let connection = try workspace.database()
        try connection.writeTransaction {
            try SyncDevice(connection: connection, clock: workspace.clock, place: SyncRun.place(workspace)).configure(server: server, token: token)
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
            let device = SyncDevice(connection: connection, clock: workspace.clock, place: SyncRun.place(workspace))
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
            try workspace.voiceStore().removeUnusedBlobs()
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
        try sendAudio(of: changes, fullCopy: remote.epoch == nil, into: &report)
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

    /// The audio the changes name that the hub lacks, sent before them (a
    /// change is refused while its audio is missing); an upload cut before
    /// goes on from the bytes the hub has.
    private func sendAudio(of changes: [SyncDocuments.Pushed], fullCopy: Bool, into report: inout Report) throws {
        let store = try workspace.voiceStore()
        for change in changes where change.kind.kind == .voice && (fullCopy || change.changed.contains("audio")) {
            guard let checksum = change.values?.columns["checksum"]?.textValue else { continue }
            guard let path = try store.audioPath(checksum: checksum), let size = FileSystem.size(of: path) else {
                throw MemoError(.storage, en: "the audio \(checksum) of voice memo \(change.uid) is missing here (memoapp doctor)",
                                ko: "음성 메모 \(change.uid)의 오디오 \(checksum)이(가) 없습니다 (memoapp doctor)")
            }
            try upload(checksum, path: path, size: size, into: &report)
        }
    }

    /// Sends the audio from the bytes the hub has. A connection of a
    /// killed sync may still hold the hub's blob for a moment (409): asked
    /// again, a few times, a quarter of a second apart.
    private func upload(_ checksum: String, path: String, size: Int64, into report: inout Report) throws {
        var attempt = 0
        while true {
            guard let received = try transport.blobReceived(checksum) else { return }
            // More than the file on the hub: not this audio's beginning; start over.
            let offset = received <= size ? received : 0
            do {
                try transport.uploadBlob(checksum, path: path, offset: offset, size: size)
                report.audioSent += size - offset
                return
            } catch let error as MemoError where error.kind == .badInput && offset > 0 {
                // What the hub had was not this audio's beginning (it was
                // refused whole and removed there): once more, from the start.
                report.audioSent += size - offset
                try transport.uploadBlob(checksum, path: path, offset: 0, size: size)
                report.audioSent += size
                return
            } catch let error as MemoError where error.kind == .invalidState && attempt < SyncRun.busyRetries {
                attempt += 1
                _ = error
                usleep(250_000)
            }
        }
    }

    /// How often an upload the hub reports busy is tried again.
    static let busyRetries = 20

    /// The audio a page names that is not here, taken before the page is
    /// written (each blob checked against its checksum); a download cut
    /// before goes on from the bytes already here.
    private func takeAudio(of page: [SyncDocuments.Pulled], into report: inout Report) throws {
        let store = try workspace.voiceStore()
        for pulled in page where pulled.kind.kind == .voice {
            guard let checksum = pulled.values?.columns["checksum"]?.textValue,
                  try store.audioPath(checksum: checksum) == nil else { continue }
            let offset = store.receivedBytes(checksum: checksum)
            let writer = try store.blobWriter(checksum: checksum, offset: offset)
            var taken: Int64 = 0
            do {
                try transport.downloadBlob(checksum, offset: offset) { bytes in
                    try writer.write(bytes)
                    taken += Int64(bytes.count)
                }
            } catch let error as MemoError where error.hint == .blobOffset {
                // Nothing after the bytes here: a download stopped after its
                // last byte and before its check. The check says whether it
                // is whole (else the bytes go, and the next sync starts over).
                _ = error
            }
            writer.close()
            try store.finishBlob(checksum: checksum)
            report.audioReceived += taken
        }
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
            try takeAudio(of: page, into: &report)
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
            try body(SyncDevice(connection: connection, clock: workspace.clock, place: place))
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
