import MemoCore
import VoiceMemos

extension DoctorExamination {
    /// libsndfile, which memoapp loads only when a voice command needs it
    /// (see `LibSndFile`): without it every other command works and every
    /// voice command that touches audio fails, so doctor says so up front.
    /// FFmpeg's libavformat too (see `LibAV`), which only AAC and ALAC need:
    /// without it they cannot be imported or read, though the rest can, so
    /// `isAvailable` (whether the voice library can be checked) is
    /// libsndfile's alone.
    static func audioLibrary() -> (DoctorCheck, isAvailable: Bool) {
        var isAvailable = true
        var check = DoctorCheck("audio_library", title: Localized(en: "audio library", ko: "오디오 라이브러리"))
        var loaded: [String] = []
        do {
            let sndfile = try LibSndFile.loaded()
            loaded.append("\(sndfile.version) (\(LibSndFile.soname))")
        } catch {
            isAvailable = false
            check.add(DoctorFinding(
                problem: Failure(error).message,
                fix: Localized(verbatim: "sudo apt-get install \(LibSndFile.debianPackage)")))
        }
        do {
            let ffmpeg = try LibAV.loaded()
            loaded.append("FFmpeg libavformat \(ffmpeg.version) (\(LibAV.soname))")
        } catch {
            check.add(DoctorFinding(
                problem: Failure(error).message,
                fix: Localized(verbatim: "sudo apt-get install \(LibAV.debianPackage)")))
        }
        if !loaded.isEmpty { check.summary = Localized(verbatim: loaded.joined(separator: "; ")) }
        return (check, isAvailable)
    }

    /// The voice library, checked by the voice module's own verification (the
    /// one `memoapp voice verify` runs): every memo's file is there, decodes in
    /// full and has the bytes recorded at import; no file lacks a memo.
    /// Abandoned temporaries it finds are reported with the other temporary files.
    /// `progress` gets each memo checked and their number.
    static func voiceLibrary(of database: DatabaseSight, home: DataHome, isAudioLibraryAvailable: Bool,
                             progress: ((Int, Int) -> Void)? = nil) -> (DoctorCheck, temporaries: [String]) {
        var temporaries: [String] = []
        var check = DoctorCheck("voice_library", title: Localized(en: "voice library", ko: "음성 라이브러리"))
        guard let connection = database.connection else {
            return (check.skipped(because: database.skipReason), temporaries)
        }
        if !isAudioLibraryAvailable {
            let reason = Localized(en: "libsndfile cannot be loaded (see audio library)",
                                   ko: "libsndfile을 불러올 수 없습니다 (오디오 라이브러리 참고)")
            return (check.skipped(because: reason), temporaries)
        }
        let store = VoiceStore(connection: connection, directory: home.voiceDirectory)
        let problems: [VerificationProblem]
        let count: Int
        do {
            let hasTables = try connection.queryFirst(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'voice_memos'") { _ in true } ?? false
            guard hasTables else {
                let reason = Localized(en: "its tables are not set up (see migrations)",
                                       ko: "테이블이 준비되지 않았습니다 (마이그레이션 참고)")
                return (check.skipped(because: reason), temporaries)
            }
            problems = try CodecWarnings.silenced { _ in try store.verify(progress: progress) }
            count = try store.memos().count
        } catch {
            let message = Failure(error).message
            check.add(DoctorFinding(
                en: "the voice library could not be checked: \(message.en)",
                ko: "음성 라이브러리를 검사할 수 없습니다: \(message.ko)",
                fixEn: "see the checks above; then run 'memoapp voice verify'",
                fixKo: "위의 검사 결과를 보고 'memoapp voice verify'를 실행하세요"))
            return (check, temporaries)
        }
        for problem in problems {
            if problem.kind == .orphanFile && DoctorExamination.isVoiceTemporaryName(problem.fileName) {
                temporaries.append(problem.fileName)
                continue
            }
            check.add(DoctorFinding(problem: problem.message, fix: DoctorExamination.fix(for: problem, home: home)))
        }
        if check.status == .ok {
            check.summary = Localized(en: "\(count) voice \(count == 1 ? "memo" : "memos") intact, no stray files",
                                      ko: "음성 메모 \(count)개 이상 없음, 남는 파일 없음")
        }
        return (check, temporaries)
    }

    /// How the voice module names the files it is writing (`.<purpose>-<random>.part`).
    static func isVoiceTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".part")
    }

    private static func fix(for problem: VerificationProblem, home: DataHome) -> Localized {
        let path = ShellText.quoted(home.voiceDirectory + "/" + problem.fileName)
        let id = problem.memoID.map(String.init) ?? "ID"
        switch problem.kind {
        case .missingFile, .undecodable:
            return Localized(en: "put the file back from your backup as \(path), or remove the memo: memoapp voice rm \(id)",
                             ko: "백업에서 파일을 \(path)(으)로 되돌려 놓거나 메모를 지우세요: memoapp voice rm \(id)")
        case .checksumMismatch:
            return Localized(
                en: "the file was changed outside memoapp: put the original back from your backup, or keep this audio "
                    + "by re-importing it (memoapp voice import \(path)) and removing the memo (memoapp voice rm \(id))",
                ko: "memoapp 밖에서 파일이 바뀌었습니다. 백업에서 원본을 되돌려 놓거나, 지금 오디오를 다시 가져온 뒤"
                    + "(memoapp voice import \(path)) 메모를 지우세요 (memoapp voice rm \(id))")
        case .orphanFile where !VoiceStore.isLibraryName(problem.fileName):
            return Localized(
                en: "move it out of the voice folder (to import it as a memo: memoapp voice import \(path))",
                ko: "음성 폴더 밖으로 옮기세요 (메모로 가져오려면: memoapp voice import \(path))")
        case .orphanFile:
            return Localized(
                en: "no memo owns it (left by an interrupted command): the next voice import, record, trim or rm "
                    + "removes it; to keep the audio, import it first: memoapp voice import \(path)",
                ko: "어느 메모에도 속하지 않습니다 (중단된 명령이 남김). 다음 음성 import, record, trim, rm이 지웁니다. "
                    + "오디오를 남기려면 먼저 가져오세요: memoapp voice import \(path)")
        }
    }
}
