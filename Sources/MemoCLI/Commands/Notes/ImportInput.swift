#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import Notes

/// A file an import reads: its bytes and when it was last changed.
struct ImportInput {
    /// The name the user gave, for messages.
    let path: String
    /// The whole file.
    let bytes: [UInt8]
    /// Its modification time.
    let modifiedAt: Timestamp

    /// Reads the regular file at `path` whole; a missing, unreadable or
    /// non-regular file is `.noInput` (exit 66).
    static func read(_ path: String) throws -> ImportInput {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ENOENT {
                throw MemoError(.noInput, en: "no such file: \(path)", ko: "파일이 없습니다: \(path)")
            }
            throw cannotRead(path, failure)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw cannotRead(path, errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw MemoError(.noInput, en: "\(path) is not a regular file", ko: "\(path)은(는) 일반 파일이 아닙니다")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw cannotRead(path, errno) }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        let modified = Timestamp(secondsSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        return ImportInput(path: path, bytes: bytes, modifiedAt: modified)
    }

    private static func cannotRead(_ path: String, _ failure: Int32) -> MemoError {
        let reason = String(cString: strerror(failure))
        return MemoError(.noInput, en: "cannot read \(path): \(reason)", ko: "\(path)을(를) 읽을 수 없습니다: \(reason)")
    }
}

/// How `todo import` and `memo import` report: counts in words or JSON.
enum ImportReport {
    /// What was imported, for the sentence: `to-do`, `to-dos`, `할 일`.
    struct Noun {
        let one: String
        let many: String
        let korean: String
    }

    /// The outcome as `{"added", "already_present", ["skipped",] "ids", "dry_run"}`
    /// and a sentence.
    static func emit(_ outcome: ImportOutcome, skipped: Int?, dryRun: Bool, noun: Noun, context: CommandContext) {
        var members: [(String, JSON)] = [("added", .int(outcome.addedCount)),
                                         ("already_present", .int(outcome.alreadyPresent))]
        if let skipped { members.append(("skipped", .int(skipped))) }
        members.append(("ids", .array(outcome.addedIDs.map { .int($0) })))
        members.append(("dry_run", .bool(dryRun)))
        let kind = outcome.addedCount == 1 ? noun.one : noun.many
        var en = (dryRun ? "Would add" : "Added") + " \(outcome.addedCount) \(kind); \(outcome.alreadyPresent) already present"
        var ko = "\(noun.korean) \(outcome.addedCount)개를 " + (dryRun ? "추가할 수 있습니다" : "추가했습니다")
            + ". \(outcome.alreadyPresent)개는 이미 있습니다"
        if let skipped, skipped > 0 {
            en += "; \(skipped) skipped (deleted, or recurring templates)"
            ko += ". \(skipped)개는 건너뛰었습니다 (지운 것 또는 반복 원본)"
        }
        en += "."
        ko += "."
        if dryRun {
            en += " Nothing was changed (--dry-run)."
            ko += " 아무것도 바꾸지 않았습니다 (--dry-run)."
        }
        context.emit(json: .object(members), text: context.text(en: en, ko: ko))
    }

    /// A bad-input error met while reading the files, saying that nothing was
    /// imported (the reading comes before any write).
    static func nothingImported<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MemoError where error.kind == .badInput {
            throw MemoError(.badInput, en: error.message.en + "; nothing was imported",
                            ko: error.message.ko + ". 아무것도 가져오지 않았습니다")
        }
    }
}
