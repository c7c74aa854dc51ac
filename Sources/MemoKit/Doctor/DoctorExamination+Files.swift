import MemoCore
#if canImport(Glibc)
import Glibc
#endif

extension DoctorExamination {
    /// Temporary files that their command left behind when it was killed:
    /// `memo add`/`memo edit` texts in the data home whose memoapp process is
    /// gone, and the voice library's abandoned `.part` files (found by the
    /// voice module's own verification, see `checkVoiceLibrary`).
    static func temporaryFiles(in home: DataHome, hasHome: Bool, skipReason: Localized?, voiceTemporaries: [String])
        -> DoctorCheck {
        var check = DoctorCheck("temporary_files", title: Localized(en: "temporary files", ko: "임시 파일"))
        guard hasHome else {
            return check.skipped(because: skipReason ?? Localized(en: "there is no data home", ko: "데이터 폴더가 없습니다"))
        }
        for name in DoctorExamination.names(in: home.path) where EditorFileName.matches(name) {
            if let pid = EditorFileName.processID(in: name), DoctorExamination.isMemoappRunning(pid) {
                continue
            }
            let path = home.path + "/" + name
            check.add(DoctorFinding(
                en: "\(path): the text of a memo edit that was interrupted",
                ko: "\(path): 중단된 메모 편집의 내용입니다",
                fixEn: "look inside and keep what you need, then remove it: rm \(ShellText.quoted(path))",
                fixKo: "내용을 확인해 필요한 것을 챙긴 뒤 지우세요: rm \(ShellText.quoted(path))"))
        }
        for leftover in voiceTemporaries {
            let path = home.voiceDirectory + "/" + leftover
            check.add(DoctorFinding(
                en: "\(path): a temporary file of an interrupted voice import, record or trim",
                ko: "\(path): 중단된 음성 가져오기, 녹음 또는 자르기의 임시 파일입니다",
                fixEn: "the next voice import, record, trim or rm removes it; or remove it now: rm "
                    + ShellText.quoted(path),
                fixKo: "다음 음성 import, record, trim, rm이 지웁니다. 지금 지우려면: rm " + ShellText.quoted(path)))
        }
        if check.status == .ok {
            check.summary = Localized(en: "none left behind", ko: "남은 것 없음")
        }
        return check
    }

    // MARK: - Private

    /// The names in a folder (none when it cannot be read).
    static func names(in directory: String) -> [String] {
        (try? FileSystem.names(in: directory)) ?? []
    }

    /// Whether a memoapp process with this id is alive (an editor may be open
    /// on its file). Another program that got the id later does not count.
    static func isMemoappRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let file = fopen("/proc/\(pid)/comm", "r") else { return true }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return true }
        let name = String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name == "memoapp"
    }
}
