#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

extension VoiceStore {
    /// Checks the library: every memo's file exists, decodes in full and has
    /// the checksum recorded at import; and no file in the folder lacks a
    /// memo. Changes nothing: leftovers are reported here and removed by the
    /// next writing command. Throws when libsndfile, or FFmpeg for a memo
    /// that needs it, cannot be loaded.
    /// - Parameter progress: called with each memo checked and the total.
    public func verify(progress: ((Int, Int) -> Void)? = nil) throws -> [VerificationProblem] {
        let memos = try memos()
        // Without libsndfile no file decodes: that is one failure to report,
        // not every memo's file to call undecodable.
        if !memos.isEmpty { _ = try LibSndFile.loaded() }
        var problems: [VerificationProblem] = []
        for (index, memo) in memos.enumerated() {
            if let problem = try check(memo) { problems.append(problem) }
            progress?(index + 1, memos.count)
        }
        // Under the write lock, so that an import between its rename and its
        // commit is not taken for an orphan.
        let leftovers: [Leftover] = try connection.writeTransaction { try findLeftovers() }
        for leftover in leftovers {
            if leftover.isForeign {
                problems.append(VerificationProblem(kind: .orphanFile, memoID: nil, fileName: leftover.fileName, message: Localized(
                    en: "\(leftover.fileName): a file memoapp did not write, in its voice folder (it is left alone)",
                    ko: "\(leftover.fileName): memoapp이 쓰지 않은 파일이 음성 폴더에 있습니다 (그대로 둡니다)")))
                continue
            }
            let en = leftover.isTemporary
                ? "\(leftover.fileName): a temporary file left by an interrupted command (the next import, record, trim or rm removes it)"
                : "\(leftover.fileName): a file that no voice memo owns (the next import, record, trim or rm removes it)"
            let ko = leftover.isTemporary
                ? "\(leftover.fileName): 중단된 명령이 남긴 임시 파일입니다 (다음 import, record, trim, rm이 지웁니다)"
                : "\(leftover.fileName): 어느 음성 메모에도 속하지 않는 파일입니다 (다음 import, record, trim, rm이 지웁니다)"
            problems.append(VerificationProblem(kind: .orphanFile, memoID: nil, fileName: leftover.fileName,
                                                message: Localized(en: en, ko: ko)))
        }
        return problems
    }

    /// The problem with one memo's file, if any. The same one-pass scan as
    /// the import gives the decode and the checksum together. Throws when
    /// the library its format needs cannot be loaded: that is the machine's
    /// problem, not the file's.
    private func check(_ memo: VoiceMemo) throws -> VerificationProblem? {
        func problem(_ kind: VerificationProblem.Kind, en: String, ko: String) -> VerificationProblem {
            VerificationProblem(kind: kind, memoID: memo.id, fileName: memo.fileName,
                                message: Localized(en: "voice memo \(memo.id) (\(memo.fileName)): \(en)",
                                                   ko: "음성 메모 \(memo.id) (\(memo.fileName)): \(ko)"))
        }
        let path = path(of: memo)
        guard FileSystem.exists(path) else {
            return problem(.missingFile, en: "the file is missing", ko: "파일이 없습니다")
        }
        let source: FileByteSource
        do {
            source = try FileByteSource(path: path, followsSymbolicLinks: false)
        } catch let error as MemoError {
            // A symbolic link or a FIFO where the file belongs: what it leads to is not the memo's audio.
            return problem(.missingFile, en: error.message.en, ko: error.message.ko)
        } catch {
            return problem(.missingFile, en: "\(error)", ko: "\(error)")
        }
        let audio: ScannedAudio
        do {
            audio = try AudioScanner.scan(source, name: memo.fileName)
        } catch let error as MemoError where error.kind == .internalFailure {
            throw error
        } catch let error as MemoError {
            return problem(.undecodable, en: "it no longer decodes: \(error.message.en)",
                           ko: "더 이상 디코딩되지 않습니다: \(error.message.ko)")
        } catch {
            return problem(.undecodable, en: "it cannot be read: \(error)", ko: "읽을 수 없습니다: \(error)")
        }
        guard audio.checksum == memo.checksum else {
            return problem(.checksumMismatch, en: "its bytes changed (checksum \(audio.checksum), \(memo.checksum) recorded)",
                           ko: "내용이 바뀌었습니다 (체크섬 \(audio.checksum), 기록은 \(memo.checksum))")
        }
        guard audio.frames == memo.frames else {
            return problem(.undecodable, en: "it decodes to \(audio.frames) frames, \(memo.frames) recorded",
                           ko: "\(audio.frames) 프레임으로 디코딩됩니다 (기록은 \(memo.frames))")
        }
        return nil
    }
}
