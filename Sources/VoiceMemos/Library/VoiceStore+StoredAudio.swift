#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// How every command that reads a memo's stored audio opens it: the file in
/// the library folder itself, never what a symbolic link planted in its place
/// points at, and never a FIFO or a device; and what it read proven to be the
/// bytes the memo recorded (XXH3-128), before anything made from them leaves
/// the command.
extension VoiceStore {
    /// Memo's stored file, opened for reading (see the extension's documentation).
    /// - Throws: `.storage` naming the memo when the file is missing, is a
    ///   symbolic link or is not a regular file.
    func openStoredFile(_ memo: VoiceMemo) throws -> FileByteSource {
        do {
            return try FileByteSource(path: path(of: memo), followsSymbolicLinks: false)
        } catch let error as MemoError where error.kind == .noInput {
            throw MemoError(.storage, en: "voice memo \(memo.id)'s file cannot be used: \(error.message.en)",
                            ko: "음성 메모 \(memo.id)의 파일을 쓸 수 없습니다: \(error.message.ko)")
        }
    }

    /// Memo's stored audio, opened for decoding, its bytes checksummed as
    /// they are read: end with `finishVerifying(_:of:)`.
    func openStoredForDecoding(_ memo: VoiceMemo) throws -> any AudioDecoder {
        let stream = TeeStream(source: try openStoredFile(memo), copyDescriptor: nil)
        switch try AudioDecoders.open(stream) {
        case let .success(decoder): return decoder
        case let .failure(error):
            if let failure = stream.failure { throw failure }
            throw MemoError(.storage, en: "voice memo \(memo.id)'s file cannot be decoded (\(error.reason))",
                            ko: "음성 메모 \(memo.id)의 파일을 디코딩할 수 없습니다")
        }
    }

    /// Ends a decode from `openStoredForDecoding`, reading the rest of the
    /// file, and checks that the bytes were the memo's.
    /// - Throws: `.storage` when they were not, or when reading failed.
    func finishVerifying(_ decoder: any AudioDecoder, of memo: VoiceMemo) throws {
        try decoder.finish()
        try VoiceStore.checkStoredBytes(checksum: decoder.stream.checksum.hexDigest, size: decoder.stream.highWater,
                                        of: memo)
    }

    /// Copies memo's stored bytes into `output` as they are, checking them
    /// against the memo's checksum on the way.
    func copyStoredBytes(of memo: VoiceMemo, to descriptor: Int32, shownPath: String) throws {
        let source = try openStoredFile(memo)
        let copied = try ChecksummedCopy.copy(from: source.descriptor, sourcePath: source.path,
                                              to: descriptor, destinationPath: shownPath)
        try VoiceStore.checkStoredBytes(checksum: copied.checksum, size: copied.size, of: memo)
    }

    /// `.storage` unless the bytes read are the ones the memo recorded.
    static func checkStoredBytes(checksum: String, size: Int64, of memo: VoiceMemo) throws {
        if checksum == memo.checksum && size == memo.size { return }
        throw MemoError(.storage,
                        en: "voice memo \(memo.id)'s file is not the audio it stored (checksum \(checksum), "
                            + "\(memo.checksum) recorded); nothing was written",
                        ko: "음성 메모 \(memo.id)의 파일이 저장한 오디오와 다릅니다 (체크섬 \(checksum), "
                            + "기록은 \(memo.checksum)). 아무것도 쓰지 않았습니다")
    }
}
