import Foundation
import MemoCore
import TestSupport
import XCTest
@testable import VoiceMemos

/// What `voice play` and `voice edit` ask of the store: where playback may
/// start, a WAV copy from there, and tags and title changed together.
final class VoiceStorePlayAndEditTests: XCTestCase {
    func testAPlayableCopyIsAWAVOfTheRestAndLivesAsALockedTemporary() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"))
        let original = Reference.decode(Fixtures.path("chord-stereo-22k.flac"))
        let (found, frame) = try harness.store.playbackStart(id: memo.id, seconds: 0.5)
        XCTAssertEqual(found, memo)
        XCTAssertEqual(frame, 11025)
        let copy = try harness.store.playableCopy(of: memo, fromFrame: frame)
        XCTAssertTrue(copy.name.hasPrefix(".play-"), copy.name)
        let decoded = Reference.decode(copy.path)
        XCTAssertEqual(decoded.samples, Array(original.samples[(11025 * 2)...]), "the rest, sample for sample")
        XCTAssertEqual(String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: copy.path)).prefix(4), as: UTF8.self),
                       "RIFF")
        try harness.store.removeLeftovers()
        XCTAssertTrue(FileManager.default.fileExists(atPath: copy.path), "locked: not a leftover while it plays")
        copy.discard()
        XCTAssertEqual(harness.libraryFiles, [memo.fileName])
    }

    func testPlaybackCannotStartOutsideTheMemo() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        XCTAssertEqual(try harness.store.playbackStart(id: memo.id, seconds: 0).frame, 0)
        for start in [1.0, 5, -0.1, .nan, .infinity] {
            XCTAssertThrowsError(try harness.store.playbackStart(id: memo.id, seconds: start)) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, "\(start)")
            }
        }
        XCTAssertThrowsError(try harness.store.playbackStart(id: 99, seconds: 0))
    }

    func testEditChangesTitleAndTagsTogetherOrNothing() throws {
        let harness = try StoreHarness()
        let memo = try harness.store.importFile(at: Fixtures.path("tone-mono-16k.wav"), options: ImportOptions(tags: ["b", "a"]))
        let edited = try harness.store.edit(id: memo.id, title: " 회의 ", tags: TagChanges(added: ["c"], removed: ["A"]))
        XCTAssertEqual(edited.title, "회의")
        XCTAssertEqual(edited.tags, ["b", "c"])
        XCTAssertEqual(try harness.store.memos(taggedWith: "c").map(\.id), [memo.id])
        XCTAssertEqual(try harness.store.edit(id: memo.id, tags: TagChanges(replacement: ["z"])).tags, ["z"])
        XCTAssertThrowsError(try harness.store.edit(id: memo.id, title: "new", tags: TagChanges(added: [" "])))
        XCTAssertThrowsError(try harness.store.edit(id: memo.id, title: "two\nlines", tags: TagChanges(added: ["y"])))
        XCTAssertEqual(try harness.store.memo(id: memo.id).title, "회의", "a bad tag or title changes nothing")
        XCTAssertEqual(try harness.store.memo(id: memo.id).tags, ["z"])
        let unchanged = try harness.store.edit(id: memo.id, title: "회의", tags: TagChanges(added: ["Z"]))
        XCTAssertEqual(unchanged.updatedAt, try harness.store.memo(id: memo.id).updatedAt, "nothing changed, nothing written")
    }
}
