import HTTPClient
import MemoCore
import MemoKit

/// `memoapp sync --watch`: syncs, then again whenever this data home
/// changes (inotify, `DataHomeWatcher`) or the server tells of a change on
/// its event stream, and at least every minute; until Ctrl-C. A failed
/// sync is told and retried with a growing pause (up to a minute): the
/// server may be away for a while.
struct SyncWatch {
    let context: CommandContext
    let transport: HTTPSyncTransport
    let force: Bool

    func run() throws -> Never {
        let pending = SyncRequests()
        let watcher = try DataHomeWatcher(directory: context.workspace.home.path)
        watcher.start { pending.ask() }
        let events = HelperThread { listen(pending) }
        _ = events
        var seenRev: Int64 = -1
        var failures = 0
        var isDue = true
        // Ctrl-C and SIGTERM end the process (main.swift's handlers): every
        // step of a sync is its own transaction, so none is left half-done.
        while true {
            let asked = pending.take()
            do {
                let newest = try SyncRun.newestRev(context.workspace)
                // Its own writes (what a pull wrote) move the watcher too:
                // only a rev it has not seen is a change to send.
                if isDue || asked.byServer || newest != seenRev {
                    let report = try SyncRun(context.workspace, transport: transport).run(force: force)
                    seenRev = try SyncRun.newestRev(context.workspace)
                    if report.pushed + report.written > 0 || !report.conflicts.isEmpty {
                        try context.emit(json: SyncCommand.json(report, server: transport.server, traffic: transport.traffic),
                                         text: SyncCommand.text(report, server: transport.server, context))
                        // A line per sync as it happens, not at an exit that never comes.
                        try context.flush()
                    }
                }
                failures = 0
            } catch let error as MemoError where error.kind == .unavailable {
                try context.warn(error.message.text(in: context.language))
                failures += 1
            }
            let pause = failures == 0 ? 60 : min(60, Double(1 << min(failures, 6)))
            isDue = !pending.wait(seconds: pause)
        }
    }

    /// Follows the server's event stream; any event (not a heartbeat) asks
    /// for a sync, and so does each (re)connection: what changed while it
    /// was not listening was told to nobody. Reconnects after a pause when
    /// the stream ends.
    private func listen(_ pending: SyncRequests) {
        var client = HTTPClient()
        client.certificateAuthorities = transport.client.certificateAuthorities
        while true {
            var isNew = true
            _ = try? client.stream(transport.server + "/api/v1/events",
                                   headers: ["Authorization: Bearer " + transport.token, "Accept: text/event-stream"]) { bytes in
                // An event has a line "event: …"; heartbeats are comments (":").
                if isNew || bytes.firstRange(of: Array("event:".utf8)) != nil {
                    isNew = false
                    pending.ask(byServer: true)
                }
                return true
            }
            _ = pending.wait(seconds: 2, forServer: true)
        }
    }
}

/// What asked for a sync since the last: this data home changing, the
/// server. One monitor guards both and is what the loop waits on, so no
/// request can come between its look and its wait.
final class SyncRequests: @unchecked Sendable {
    private let monitor = Monitor()
    private var local = false
    private var server = false

    func ask(byServer: Bool = false) {
        monitor.locked {
            if byServer { server = true } else { local = true }
            monitor.broadcast()
        }
    }

    /// Waits until something asks or `seconds` pass; whether something
    /// asked. With `forServer`, only a pause: nothing it waits for comes.
    func wait(seconds: Double, forServer: Bool = false) -> Bool {
        monitor.locked {
            monitor.wait(until: MonotonicTime.now().adding(seconds: seconds)) { !forServer && (local || server) }
        }
    }

    /// Clears the requests, telling what they were.
    func take() -> (byLocal: Bool, byServer: Bool) {
        monitor.locked {
            defer { local = false; server = false }
            return (local, server)
        }
    }
}
