#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import MemoKit

/// The body of `GET /api/v1/export`, made while it is sent: the export
/// document of a large collection is hundreds of megabytes, which the server
/// must not hold in memory. A helper thread writes the document, in one read
/// snapshot as `memoapp export` does, into an anonymous file in the data home
/// (its name removed once it is open), in ExportDocument's
/// pieces of about 64 KiB; the response reads the file behind the writer
/// (blocking its thread only while the writer is behind).
///
/// The writer never waits for the client. It wrote into a socket pair
/// before, and so held its read snapshot for as long as its client took to
/// read: a client reading a byte every few seconds kept it for ever, and no
/// checkpoint could reset the WAL behind it (four such exports beside a
/// client writing grew the WAL to 579 MB in 30 s; issue 29, finding 5). Now
/// the snapshot lasts as long as the database takes to read, and the disk
/// holds what the client has not read yet (at most the document, for at
/// most four exports at once). A client that leaves stops the writer at its
/// next piece; a writer that fails (a full disk) cuts the body, never
/// ending it as if complete.
final class ExportStream: @unchecked Sendable {
    private let file: Int32
    private let progress = Monitor()
    /// Bytes in the file so far, and whether the writer is done (true: the
    /// whole document; false: it failed); guarded by `progress`.
    private var written: Int64 = 0
    private var finished: Bool?
    /// Set when the response is done with (sent, or its client gone).
    private var isAbandoned = false
    /// Bytes the response has read.
    private var offset: Int64 = 0
    private var thread: HelperThread?
    /// The export's place among the few sent at once, given back at the end.
    private let slot: ExportSlots.Slot

    /// Starts writing the export of `workspace`'s database; the workspace
    /// (a connection of its own) is used by the helper thread only.
    init(_ workspace: Workspace, slot: ExportSlots.Slot) throws {
        self.slot = slot
        file = try ExportStream.anonymousFile(in: workspace.home.path)
        nonisolated(unsafe) let workspace = workspace
        thread = HelperThread { [self] in
            var isComplete = false
            defer {
                progress.locked {
                    finished = isComplete
                    progress.broadcast()
                }
            }
            do {
                try ExportDocument.write(connection: workspace.database(), exportedAt: workspace.clock.now()) { text in
                    try append(text)
                }
                isComplete = true
            } catch {}
        }
    }

    deinit {
        progress.locked { isAbandoned = true }
        thread?.join()
        close(file)
        slot.giveBack()
    }

    /// The response's producer: the next bytes of the document, 0 at its
    /// end; throws when the writer failed, which cuts the connection.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let available = progress.locked { () -> Int64 in
            _ = progress.wait(until: nil) { written > offset || finished != nil }
            return written - offset
        }
        guard available > 0 else {
            if progress.locked({ finished }) == true { return 0 }
            throw MemoError(.storage, en: "the export stopped before its end", ko: "내보내기가 끝나기 전에 멈췄습니다")
        }
        while true {
            let count = pread(file, buffer.baseAddress, min(buffer.count, Int(available)), off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw MemoError(.storage, en: "the export's file could not be read", ko: "내보내기 파일을 읽을 수 없습니다")
            }
            offset += Int64(count)
            return count
        }
    }

    // MARK: - Private

    /// Appends `text` to the file, on the writer's thread; throws when the
    /// response is done with (the writer stops) or the write fails.
    private func append(_ text: String) throws {
        if progress.locked({ isAbandoned }) {
            throw MemoError(.storage, en: "the export's reader went away", ko: "내보내기를 읽던 쪽이 사라졌습니다")
        }
        var text = text
        let position = progress.locked { written }
        var total = 0
        try text.withUTF8 { buffer in
            while total < buffer.count {
                let count = pwrite(file, buffer.baseAddress! + total, buffer.count - total, off_t(position) + off_t(total))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    throw MemoError(.storage, en: "cannot write the export: \(String(cString: strerror(errno)))",
                                    ko: "내보내기를 쓸 수 없습니다: \(String(cString: strerror(errno)))")
                }
                total += count
            }
        }
        progress.locked {
            written += Int64(total)
            progress.broadcast()
        }
    }

    /// A file in `folder` whose name is removed as soon as it is open, so
    /// that nothing is left whatever happens after (the moment between is
    /// one system call long).
    private static func anonymousFile(in folder: String) throws -> Int32 {
        var template = Array((folder + "/.export-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else {
            throw MemoError(.storage, en: "cannot make the export's file: \(String(cString: strerror(errno)))",
                            ko: "내보내기 파일을 만들 수 없습니다: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(file, F_SETFD, FD_CLOEXEC)
        return file
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
