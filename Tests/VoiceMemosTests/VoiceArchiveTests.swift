import Foundation
import MemoCore
import SQLite
import TestSupport
import XCTest
@testable import VoiceMemos

/// Voice memos out to the export's JSON and back, with their audio found,
/// verified and brought in under the store's crash rules.
final class VoiceArchiveTests: XCTestCase {
    private func reparsed(_ json: JSON, index: Int = 0) throws -> JSONReader {
        JSONReader(try JSON.parse(Array(json.serialized.utf8)),
                   path: JSONPath.root.appending(key: "voice_memos").appending(index: index), source: "export.json")
    }

    private func items(_ harness: StoreHarness) throws -> [VoiceArchive.Item] {
        try VoiceArchive.exportMemos(from: harness.connection).enumerated().map {
            try VoiceArchive.item(from: try reparsed($1, index: $0))
        }
    }

    private func write(_ items: [VoiceArchive.Item], into harness: StoreHarness, from folders: [String],
                       keepingIDs: Bool = true) throws -> VoiceAudioImport {
        let audio = VoiceAudioImport(directory: harness.store.directory, searchFolders: folders)
        for item in items { try audio.stage(item) }
        try harness.connection.writeTransaction {
            for item in items where audio.hasAudio(forUID: item.uid) {
                try audio.insert(item, keepingID: keepingIDs, into: harness.connection)
            }
        }
        audio.finish(committed: true)
        return audio
    }

    func testEveryFieldAndTheAudioSurviveExportAndImport() throws {
        let source = try StoreHarness()
        let chord = try source.store.importFile(at: Fixtures.path("chord-stereo-22k.flac"),
                                                options: ImportOptions(tags: ["음악", "b"]))
        _ = try source.store.importFile(at: Fixtures.path("korean-title.ogg"))
        _ = try source.store.trim(id: chord.id, start: 0.25, end: 1)
        let exported = try VoiceArchive.exportMemos(from: source.connection)
        let read = try items(source)
        XCTAssertEqual(read.map(\.title), ["Chord in two channels", "회의 메모 — 3월"])
        XCTAssertEqual(read[0].tags, ["b", "음악"])
        XCTAssertNotNil(read[0].updatedAt)
        XCTAssertEqual(read[0].peaks, try source.store.peaks(id: chord.id))

        let target = try StoreHarness()
        XCTAssertTrue(try VoiceArchive.isEmpty(target.connection))
        _ = try write(read, into: target, from: [source.store.directory])
        XCTAssertEqual(try VoiceArchive.exportMemos(from: target.connection), exported)
        XCTAssertEqual(target.libraryFiles, source.libraryFiles)
        for name in target.libraryFiles {
            XCTAssertEqual(FileManager.default.contents(atPath: target.store.directory + "/" + name),
                           FileManager.default.contents(atPath: source.store.directory + "/" + name))
        }
        XCTAssertEqual(try target.store.verify(), [])
        XCTAssertTrue(try VoiceArchive.contains(uid: read[1].uid, in: target.connection))
    }

    func testANewIDNamesTheFileAfterItAndADuplicateUIDIsRefused() throws {
        let source = try StoreHarness()
        _ = try source.store.importFile(at: Fixtures.path("beep.mp3"))
        let item = try items(source)[0]
        let target = try StoreHarness()
        _ = try target.store.importFile(at: Fixtures.path("tone-mono-16k.wav"))
        _ = try write([item], into: target, from: [source.store.directory], keepingIDs: false)
        XCTAssertEqual(try target.store.memo(id: 2).uid, item.uid)
        XCTAssertEqual(try target.store.memo(id: 2).fileName, "2-\(item.checksum).mp3")
        XCTAssertThrowsError(try write([item], into: target, from: [source.store.directory], keepingIDs: false)) {
            XCTAssertEqual(($0 as? MemoError)?.kind, .duplicate)
        }
        XCTAssertEqual(target.rowCount, 2)
        XCTAssertEqual(target.libraryFiles.count, 2, "\(target.libraryFiles)")
    }

    func testAudioIsFoundByItsChecksumUnderAnotherNameOrByItsOriginalNameAndOnlyWhenTheBytesMatch() throws {
        let source = try StoreHarness()
        _ = try source.store.importFile(at: Fixtures.path("beep.mp3"))
        let item = try items(source)[0]
        let elsewhere = TemporaryDirectory()
        let bytes = Fixtures.bytes("beep.mp3")
        let target = try StoreHarness()

        let empty = VoiceAudioImport(directory: target.store.directory, searchFolders: [elsewhere.path, "/nonexistent"])
        XCTAssertFalse(try empty.stage(item))
        // The same size, other bytes: not the exported audio.
        var forged = bytes
        forged[forged.count / 2] ^= 0xFF
        XCTAssertTrue(FileManager.default.createFile(atPath: elsewhere.appending(item.fileName), contents: Data(forged)))
        XCTAssertFalse(try empty.stage(item))
        empty.finish(committed: true)
        XCTAssertEqual(target.libraryFiles, [], "a failed search leaves no temporary")

        for name in ["7-\(item.checksum).mp3", "beep.mp3"] {
            let folder = TemporaryDirectory()
            XCTAssertTrue(FileManager.default.createFile(atPath: folder.appending(name), contents: Data(bytes)))
            let audio = VoiceAudioImport(directory: target.store.directory, searchFolders: [elsewhere.path, folder.path])
            XCTAssertTrue(try audio.stage(item), name)
            audio.finish(committed: true)
        }
        XCTAssertEqual(target.libraryFiles, [], "staged audio never inserted is removed")
    }

    func testARolledBackImportLeavesNeitherRowNorFile() throws {
        let source = try StoreHarness()
        _ = try source.store.importFile(at: Fixtures.path("beep.mp3"))
        let item = try items(source)[0]
        let target = try StoreHarness()
        let audio = VoiceAudioImport(directory: target.store.directory, searchFolders: [source.store.directory])
        XCTAssertTrue(try audio.stage(item))
        XCTAssertEqual(target.libraryFiles.count, 1, "a temporary")
        struct Interrupted: Error {}
        XCTAssertThrowsError(try target.connection.writeTransaction {
            try audio.insert(item, keepingID: true, into: target.connection)
            XCTAssertEqual(target.libraryFiles, [item.fileName])
            throw Interrupted()
        })
        audio.finish(committed: false)
        XCTAssertEqual(target.rowCount, 0)
        XCTAssertEqual(target.libraryFiles, [])
    }

    /// A store holding `fixture`, and its memo as an export writes it.
    private func exportedMemo(_ fixture: String) throws -> (source: StoreHarness, json: JSON, members: [(String, JSON)]) {
        let source = try StoreHarness()
        _ = try source.store.importFile(at: Fixtures.path(fixture))
        let json = try VoiceArchive.exportMemos(from: source.connection)[0]
        guard case let .object(members) = json else { throw MemoError(.internalFailure, en: "not an object", ko: "") }
        return (source, json, members)
    }

    /// `members` with `key` set to `value`.
    private func replacing(_ key: String, with value: JSON, in members: [(String, JSON)]) -> [(String, JSON)] {
        var changed = members
        changed[changed.firstIndex { $0.0 == key }!].1 = value
        return changed
    }

    func testMetadataThatDisagreesWithTheAudioIsRefusedNamingItsPathAndNothingIsStaged() throws {
        let (source, good, members) = try exportedMemo("chord-stereo-22k.flac")
        func changed(_ key: String, _ value: JSON) -> JSON {
            // Without peaks, which would otherwise already disagree with a changed length.
            .object(replacing("peaks", with: .null, in: replacing(key, with: value, in: members)))
        }
        let target = try StoreHarness()
        let cases: [(JSON, String)] = [
            (changed("frames", .int(1_000_000_000_000_000)),
             "frames: 1000000000000000, but its audio (1-d0f49c7c8d6cdc78e2cfb283814ac6a5.flac) decodes to 33075"),
            (changed("frames", .int(33074)), "frames: 33074, but its audio"),
            (changed("sample_rate", .int(44100)), "sample_rate: 44100, but its audio"),
            (changed("channels", .int(1)), "channels: 1, but its audio"),
            (changed("duration", .double(17361111 * 60.0)), "duration: 1041666660.0 s, but its audio"),
            (changed("format_code", .int(0x010002)), "format_code: 65538, but its audio"),
            (changed("container", .string("WAV")), "container: \"WAV\", but its audio (1-d0f49c7c8d6cdc78e2cfb283814ac6a5.flac) decodes to \"FLAC\""),
            // A control character is shown escaped, never printed raw.
            (changed("encoding", .string("\u{1B}[2J")), "encoding: \"\\u001b[2J\", but its audio"),
        ]
        for (json, message) in cases {
            let item = try VoiceArchive.item(from: try reparsed(json))
            let audio = VoiceAudioImport(directory: target.store.directory, searchFolders: [source.store.directory])
            XCTAssertThrowsError(try audio.stage(item), message) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .badInput)
                let text = (error as? MemoError)?.message.en ?? ""
                XCTAssertTrue(text.hasPrefix("export.json: $.voice_memos[0]." + message), text)
            }
            XCTAssertFalse(audio.hasAudio(forUID: item.uid))
            audio.finish(committed: false)
            XCTAssertEqual(target.libraryFiles, [], message)
        }
        // The document as exported stages.
        let audio = VoiceAudioImport(directory: target.store.directory, searchFolders: [source.store.directory])
        XCTAssertTrue(try audio.stage(try VoiceArchive.item(from: try reparsed(good))))
        audio.finish(committed: false)
        XCTAssertEqual(target.rowCount, 0)
    }

    func testBadVoiceMemoFieldsAreRefusedNamingTheirPath() throws {
        let (_, good, members) = try exportedMemo("beep.mp3")
        func set(_ key: String, _ value: JSON) -> JSON { .object(replacing(key, with: value, in: members)) }
        func peaks(_ change: (inout [(String, JSON)]) -> Void) -> JSON {
            guard case var .object(inner)? = members.first(where: { $0.0 == "peaks" })?.1 else { return good }
            change(&inner)
            return set("peaks", .object(inner))
        }
        let checksum = "958c4a5e27b978fc3e771e8c965bd921"
        let cases: [(JSON, String)] = [
            (set("file_name", .string("2-\(checksum).mp3")),
             "file_name: a voice memo's file is named <id>-<checksum>.<extension>: 1-\(checksum).…"),
            (set("file_name", .string("../1-\(checksum).mp3")),
             "file_name: a voice memo's file is named <id>-<checksum>.<extension>: 1-\(checksum).…"),
            (set("file_name", .string("1-\(checksum).m/3")),
             "file_name: a voice memo's file is named <id>-<checksum>.<extension>: 1-\(checksum).…"),
            (set("checksum", .string(checksum.uppercased())), "checksum: a checksum is 32 lowercase hex digits (XXH3-128)"),
            (set("title", .string(" ")), "title: a title cannot be empty"),
            (set("tags", .strings(["a", "a"])), "tags: tags must be distinct, non-empty and without leading or trailing spaces"),
            (set("sample_rate", .int(0)), "sample_rate: 0 is outside 1...768000"),
            (set("channels", .int(65)), "channels: 65 is outside 1...64"),
            (set("frames", .int(0)), "frames: 0 is outside 1...9007199254740992"),
            (set("frames", .int(Int64.max)), "frames: 9223372036854775807 is outside 1...9007199254740992"),
            (set("peak_level", .double(-0.5)), "peak_level: a level cannot be negative"),
            (set("peak_level", .double(1e300)), "peak_level: a level is at most 1 (full scale)"),
            (peaks { $0[1].1 = .string("float32") }, "peaks.encoding: this memoapp reads peaks encoded as int16le-min-max only"),
            (peaks { $0[2].1 = .string("AAA") }, "peaks.data: not Base64 of 16-bit (minimum, maximum) pairs"),
            (peaks { $0[2].1 = .string("AAAAAAAAAAA=") },
             "peaks.data: 2 pairs, but 22050 frames at 32 per pair need 690"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try VoiceArchive.item(from: try reparsed(json)), message) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .badInput)
                XCTAssertEqual((error as? MemoError)?.message.en, "export.json: $.voice_memos[0]." + message)
            }
        }
        XCTAssertNil(try VoiceArchive.item(from: try reparsed(set("peaks", .null))).peaks, "a memo without peaks")
    }
}
