#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import MemoKit

/// The body of `GET /api/v1/export`, made while it is sent: the export
/// document of a large collection is hundreds of megabytes, which the server
/// must not hold (it held the whole text before). A helper thread writes the
/// document, in one read snapshot as `memoapp export` does, into one end of a
/// socket pair, in ExportDocument's pieces of about 64 KiB; the response
/// reads the other end (blocking its server thread only while the writer is
/// behind), so the writer waits whenever the client is slower (memory stays
/// at the socket's buffers). A client that leaves closes the reading end: the
/// writer's next send fails (MSG_NOSIGNAL: no SIGPIPE), the snapshot ends and
/// the thread is joined. A writer that fails cuts the body, never ending it
/// as if complete.
final class ExportStream: @unchecked Sendable {
    private let readEnd: Int32
    private let finished = LockedValue<Bool?>(nil)
    private var thread: HelperThread?
    /// The export's place among the few sent at once, given back at the end.
    private let slot: ExportSlots.Slot

    /// Starts writing the export of `workspace`'s database; the workspace
    /// (a connection of its own) is used by the helper thread only.
    init(_ workspace: Workspace, slot: ExportSlots.Slot) throws {
        self.slot = slot
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw MemoError(.storage, en: "cannot make the export stream: \(String(cString: strerror(errno)))",
                            ko: "내보내기 스트림을 만들 수 없습니다: \(String(cString: strerror(errno)))")
        }
        readEnd = ends[0]
        let writeEnd = ends[1]
        let finished = self.finished
        nonisolated(unsafe) let workspace = workspace
        thread = HelperThread {
            var isComplete = false
            defer {
                finished.set(isComplete)
                close(writeEnd)
            }
            do {
                // ExportDocument hands over pieces of about 64 KiB already.
                try ExportDocument.write(connection: workspace.database(), exportedAt: workspace.clock.now()) { text in
                    try ExportStream.send(text, to: writeEnd)
                }
                isComplete = true
            } catch {}
        }
    }

    deinit {
        // Closing first makes a waiting writer fail at once, so the join is short.
        close(readEnd)
        thread?.join()
        slot.giveBack()
    }

    /// The response's producer: the next bytes of the document, 0 at its
    /// end; throws when the writer failed, which cuts the connection.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(readEnd, buffer.baseAddress, buffer.count)
            if count > 0 { return count }
            if count < 0 && errno == EINTR { continue }
            if count == 0, finished.current == true { return 0 }
            throw MemoError(.storage, en: "the export stopped before its end", ko: "내보내기가 끝나기 전에 멈췄습니다")
        }
    }

    // MARK: - Private

    private static func send(_ text: String, to socket: Int32) throws {
        var text = text
        try text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    throw MemoError(.storage, en: "the export's reader went away", ko: "내보내기를 읽던 쪽이 사라졌습니다")
                }
                offset += sent
            }
        }
    }
}

/// The exports sent at once: at most `limit`, each holding a slot until its
/// stream ends (sent whole, or its client gone).
final class ExportSlots: @unchecked Sendable {
    let limit: Int
    private let taken = LockedValue(0)

    init(limit: Int) {
        precondition(limit >= 1, "at least one export at a time")
        self.limit = limit
    }

    /// A slot, or nil when `limit` exports are being sent.
    func take() -> Slot? {
        let isTaken = taken.update { count -> Bool in
            guard count < limit else { return false }
            count += 1
            return true
        }
        return isTaken ? Slot(owner: self) : nil
    }

    /// Exports being sent now.
    var inUse: Int { taken.current }

    /// One export's place; given back once.
    final class Slot: @unchecked Sendable {
        private var owner: ExportSlots?

        fileprivate init(owner: ExportSlots) {
            self.owner = owner
        }

        func giveBack() {
            guard let owner else { return }
            self.owner = nil
            owner.taken.update { $0 -= 1 }
        }
    }
}
