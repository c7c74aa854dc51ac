import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

final class VoiceStoreTests: XCTestCase {
    func testImportStoresAnExactCopyAndItsMetadata() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        XCTAssertEqual(memo.id, 1)
        XCTAssertEqual(memo.title, "Chord in two channels")
        XCTAssertEqual(memo.originalName, "chord-stereo-22k.flac")
        XCTAssertEqual(memo.container, "FLAC")
        XCTAssertEqual(memo.encoding, "PCM 16-bit")
        XCTAssertEqual(memo.sampleRate, 22050)
        XCTAssertEqual(memo.channels, 2)
        XCTAssertEqual(memo.frames, 33075)
        XCTAssertEqual(memo.duration, 1.5, accuracy: 1e-9)
        XCTAssertEqual(memo.size, Int64(Fixtures.bytes("chord-stereo-22k.flac").count))
        XCTAssertEqual(memo.checksum, "d0f49c7c8d6cdc78e2cfb283814ac6a5")
        XCTAssertEqual(memo.importedAt, FixedClock().time)
        XCTAssertEqual(memo.fileName, "1-d0f49c7c8d6cdc78e2cfb283814ac6a5.flac")
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: harness.store.path(of: memo))!),
                       Fixtures.bytes("chord-stereo-22k.flac"))
        let peaks = try harness.store.peaks(id: memo.id)
        let reference = Reference.decode(Fixtures.path("chord-stereo-22k.flac"))
        XCTAssertEqual(peaks.values, Reference.peaks(samples: reference.samples, channels: 2, samplesPerPixel: 32))
    }

    func testTitleComesFromOptionThenTagThenFileName() throws {
        let harness = try StoreHarness()
        XCTAssertEqual(try harness.store.importFile(at: Fixtures.path("korean-title.ogg")).title, "회의 메모 — 3월")
        XCTAssertEqual(try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav")).title, "tone-mono-16k")
        let titled = try harness.store.importFile(at: Fixtures.path("beep.mp3"),
                                                  options: ImportOptions(title: "  Standup  ", tags: ["work", "a", "work"]))
        XCTAssertEqual(titled.title, "Standup")
        XCTAssertEqual(titled.tags, ["a", "work"])
    }

    func testSameBytesTwiceAreADuplicateNamingTheMemoUnlessAllowed() throws {
        let harness = try StoreHarness()
        let first = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        XCTAssertThrowsError(try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))) { error in
            let error = error as? MemoError
            XCTAssertEqual(error?.kind, .duplicate)
            XCTAssertTrue(error?.message.en.contains("voice memo 1 “tone-mono-16k”") ?? false, "\(String(describing: error))")
        }
        XCTAssertEqual(harness.rowCount, 1)
        XCTAssertEqual(harness.libraryFiles, [first.fileName])
        let second = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"),
                                                  options: ImportOptions(allowDuplicate: true))
        XCTAssertEqual(second.checksum, first.checksum)
        XCTAssertNotEqual(second.fileName, first.fileName)
        XCTAssertEqual(harness.libraryFiles.count, 2)
    }

    func testEveryRefusalLeavesNoRowAndNoFile() throws {
        let harness = try StoreHarness()
        let refusals: [(String, ErrorKind)] = [
            ("empty.wav", .badInput), ("truncated.wav", .badInput), ("truncated.flac", .badInput),
            ("truncated.mp3", .badInput), ("not-audio.wav", .badInput), ("zero-frames.wav", .badInput),
            ("truncated.m4a", .badInput), ("truncated-moov.m4a", .badInput), ("pcm.mov", .badInput),
            ("many-channels.wav", .badInput), ("missing.wav", .noInput),
        ]
        for (name, kind) in refusals {
            XCTAssertThrowsError(try harness.store.importFile(at: Fixtures.path(name)), name) { error in
                XCTAssertEqual((error as? MemoError)?.kind, kind, name)
            }
            XCTAssertEqual(harness.rowCount, 0, name)
            XCTAssertEqual(harness.libraryFiles, [], name)
        }
    }

    func testEmptyTitleOrTagIsAUsageError() throws {
        let harness = try StoreHarness()
        for options in [ImportOptions(title: " "), ImportOptions(tags: [""])] {
            XCTAssertThrowsError(try harness.store.importFile(at: Fixtures.path("beep.mp3"), options: options)) {
                XCTAssertEqual(($0 as? MemoError)?.kind, .usage)
            }
        }
        XCTAssertEqual(harness.rowCount, 0)
    }

    func testListsByTagOldestFirst() throws {
        let harness = try StoreHarness()
        _ = try harness.store.importFile(at: Fixtures.path("beep.mp3"), options: ImportOptions(tags: ["x"]))
        _ = try harness.store.importFile(at: Fixtures.path("voice.opus"))
        _ = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"), options: ImportOptions(tags: ["x", "y"]))
        XCTAssertEqual(try harness.store.memos().map(\.id), [1, 2, 3])
        XCTAssertEqual(try harness.store.memos(taggedWith: "x").map(\.id), [1, 3])
        XCTAssertEqual(try harness.store.memos(taggedWith: "nope").map(\.id), [])
    }

    func testRenameChangesTheTitleOnly() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("beep.mp3"))
        let renamed = try harness.store.rename(id: memo.id, title: "새 제목")
        XCTAssertEqual(renamed.title, "새 제목")
        XCTAssertEqual(renamed.checksum, memo.checksum)
        XCTAssertNotNil(renamed.updatedAt)
        XCTAssertThrowsError(try harness.store.rename(id: 99, title: "x")) { XCTAssertEqual(($0 as? MemoError)?.kind, .notFound) }
        XCTAssertThrowsError(try harness.store.rename(id: memo.id, title: "")) { XCTAssertEqual(($0 as? MemoError)?.kind, .usage) }
    }

    func testRemoveTakesRowsAndFilesOrNothing() throws {
        let harness = try StoreHarness()
        let first = try harness.store.importFile(at: Fixtures.path("beep.mp3"), options: ImportOptions(tags: ["t"]))
        let second = try harness.store.importFile(at: Fixtures.path("voice.opus"))
        XCTAssertThrowsError(try harness.store.remove(ids: [first.id, 42])) { XCTAssertEqual(($0 as? MemoError)?.kind, .notFound) }
        XCTAssertEqual(harness.rowCount, 2)
        XCTAssertEqual(harness.libraryFiles.count, 2)
        let removed = try harness.store.remove(ids: [first.id, first.id])
        XCTAssertEqual(removed.map(\.id), [first.id])
        XCTAssertEqual(harness.libraryFiles, [second.fileName])
        XCTAssertEqual(try harness.connection.queryFirst("SELECT count(*) FROM voice_memo_tags") { $0.int(0) }, 0)
        XCTAssertEqual(try harness.connection.queryFirst("SELECT count(*) FROM voice_memo_peaks") { $0.int(0) }, 1)
        XCTAssertThrowsError(try harness.store.memo(id: first.id)) { XCTAssertEqual(($0 as? MemoError)?.kind, .notFound) }
    }

    func testSearchFindsTitlesByPartInAnyASCIICaseAndKorean() throws {
        let harness = try StoreHarness()
        _ = try harness.store.importFile(at: Fixtures.path("korean-title.ogg"))
        _ = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        _ = try harness.store.importFile(at: Fixtures.path("beep.mp3"), options: ImportOptions(title: "100% sure_thing"))
        XCTAssertEqual(try harness.store.searchTitles(matching: "메모").map(\.id), [1])
        XCTAssertEqual(try harness.store.searchTitles(matching: "CHORD").map(\.id), [2])
        XCTAssertEqual(try harness.store.searchTitles(matching: "0% s").map(\.id), [3])
        XCTAssertEqual(try harness.store.searchTitles(matching: "%").map(\.id), [3])
        XCTAssertEqual(try harness.store.searchTitles(matching: "e_t").map(\.id), [3])
        XCTAssertEqual(try harness.store.searchTitles(matching: "h_t").map(\.id), [])
        XCTAssertEqual(try harness.store.searchTitles(matching: "").map(\.id), [])
    }

    func testLargeFileCrossingManyChunksIsCopiedExactly() throws {
        // 3 MB: more than one read chunk, so the copy crosses chunk boundaries and libsndfile's seeks.
        let harness = try StoreHarness()
        let path = harness.folder.appending("long.wav")
        Reference.write(path, format: 0x010002, rate: 48000, channels: 2, frames: 800_000, title: "Long one")
        let memo = try harness.store.importFile(at: path)
        XCTAssertEqual(memo.title, "Long one")
        XCTAssertEqual(memo.frames, 800_000)
        XCTAssertEqual(FileManager.default.contents(atPath: harness.store.path(of: memo)),
                       FileManager.default.contents(atPath: path))
        let reference = Reference.decode(path)
        XCTAssertEqual(try harness.store.peaks(id: memo.id).values,
                       Reference.peaks(samples: reference.samples, channels: 2, samplesPerPixel: 32))
    }
}
