import Foundation
import MemoCore
@testable import MemoKit
import SQLite
import TestSupport
import VoiceMemos
import XCTest

/// Voice memos across devices: the audio crosses once, before the change
/// that names it, checked on arrival, and a cut upload goes on where it
/// stopped (docs/sync.md).
final class VoiceSyncTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var hub: Workspace!
    private var laptop: Workspace!
    private var phone: Workspace!
    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/audio").path

    override func setUpWithError() throws {
        hub = Workspace(home: DataHome(path: folder.appending("hub")))
        laptop = Workspace(home: DataHome(path: folder.appending("laptop")))
        phone = Workspace(home: DataHome(path: folder.appending("phone")))
        _ = try hub.database()
        for device in [laptop!, phone!] { try SyncRun.configure(device, server: "http://hub.invalid", token: "t") }
    }

    private func importAudio(_ name: String, into workspace: Workspace, tags: [String] = []) throws -> VoiceMemo {
        try CodecWarnings.silenced { _ in
            try workspace.voiceStore().importFile(at: fixtures + "/" + name, options: ImportOptions(tags: tags))
        }
    }

    private func memo(uid: String, in workspace: Workspace) throws -> VoiceMemo? {
        guard let id = try workspace.database().queryFirst("SELECT id FROM voice_memos WHERE uid = ?", uid, map: { $0.int64(0) })
        else { return nil }
        return try workspace.voiceStore().memo(id: id)
    }

    @discardableResult
    private func sync(_ device: Workspace, _ transport: InProcessHub? = nil) throws -> SyncRun.Report {
        try SyncRun(device, transport: transport ?? InProcessHub(workspace: hub)).run(force: false)
    }

    func testAVoiceMemoReachesTheOtherDeviceWithItsAudioOnce() throws {
        let made = try importAudio("chord-stereo-22k.flac", into: laptop, tags: ["music"])
        let sent = try sync(laptop)
        XCTAssertEqual(sent.audioSent, made.size, "the audio crosses once, whole")
        let taken = try sync(phone)
        XCTAssertEqual(taken.audioReceived, made.size)
        for workspace in [hub!, phone!] {
            let copy = try XCTUnwrap(try memo(uid: made.uid, in: workspace))
            XCTAssertEqual(copy.checksum, made.checksum)
            XCTAssertEqual(copy.title, made.title)
            XCTAssertEqual(copy.tags, ["music"])
            XCTAssertEqual(copy.frames, made.frames, "read from the bytes there")
            XCTAssertEqual(copy.importedAt, made.importedAt)
            XCTAssertTrue(try workspace.voiceStore().verify().isEmpty, "its file is whole and the library clean")
        }
        XCTAssertEqual(try sync(laptop).audioSent, 0, "never again")
        XCTAssertEqual(try sync(phone).audioReceived, 0)
        XCTAssertEqual(try SyncRun.status(phone)?.waiting, 0)
    }

    func testACutUploadGoesOnWhereItStopped() throws {
        let made = try importAudio("chord-stereo-22k.flac", into: laptop)
        var cut = InProcessHub(workspace: hub)
        cut.cutAfter = Int(made.size / 3)
        XCTAssertThrowsError(try sync(laptop, cut)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .unavailable)
        }
        XCTAssertNil(try memo(uid: made.uid, in: hub), "no change before its audio")
        XCTAssertEqual(try hub.voiceStore().receivedBytes(checksum: made.checksum), made.size / 3)
        let whole = InProcessHub(workspace: hub)
        let report = try sync(laptop, whole)
        XCTAssertEqual(report.audioSent, made.size - made.size / 3, "only the rest")
        XCTAssertEqual(try XCTUnwrap(try memo(uid: made.uid, in: hub)).checksum, made.checksum)
    }

    func testADownloadStoppedAfterItsLastByteIsCheckedAndKept() throws {
        let made = try importAudio("beep.mp3", into: laptop)
        try sync(laptop)
        // The phone was killed after writing every byte, before the check.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(try hub.voiceStore().audioPath(checksum: made.checksum))))
        let writer = try phone.voiceStore().blobWriter(checksum: made.checksum, offset: 0)
        try bytes.withUnsafeBytes { try writer.write($0) }
        writer.close()
        let report = try sync(phone)
        XCTAssertEqual(report.audioReceived, 0, "nothing more to take")
        XCTAssertEqual(try XCTUnwrap(try memo(uid: made.uid, in: phone)).checksum, made.checksum)
    }

    func testBytesThatAreNotTheChecksumsAreRefusedAndSentAgain() throws {
        let made = try importAudio("beep.mp3", into: laptop)
        let store = try hub.voiceStore()
        let writer = try store.blobWriter(checksum: made.checksum, offset: 0)
        try [UInt8](repeating: 7, count: 100).withUnsafeBytes { try writer.write($0) }
        writer.close()
        // The hub has 100 bytes that are not this audio's beginning: the
        // whole is refused when checked, and sent again from the start.
        let report = try sync(laptop)
        XCTAssertEqual(report.audioSent, made.size - 100 + made.size)
        XCTAssertEqual(try XCTUnwrap(try memo(uid: made.uid, in: hub)).checksum, made.checksum)
        XCTAssertEqual(store.receivedBytes(checksum: made.checksum), 0, "no part left")
    }

    func testTitleTagsTrimAndRemovalSync() throws {
        let made = try importAudio("chord-stereo-22k.flac", into: laptop)
        try sync(laptop)
        try sync(phone)
        let onPhone = try XCTUnwrap(try memo(uid: made.uid, in: phone))
        _ = try phone.apply(EditVoiceMemo(id: onPhone.id, title: "chord", tags: TagChanges(added: ["piano"])), origin: .cli)
        try sync(phone)
        try sync(laptop)
        let renamed = try XCTUnwrap(try memo(uid: made.uid, in: laptop))
        XCTAssertEqual(renamed.title, "chord")
        XCTAssertEqual(renamed.tags, ["piano"])

        // A trim elsewhere is new audio under the same uid.
        _ = try laptop.apply(TrimVoiceMemo(id: renamed.id, start: 0.1, end: 0.5), origin: .cli)
        let trimmed = try XCTUnwrap(try memo(uid: made.uid, in: laptop))
        XCTAssertNotEqual(trimmed.checksum, made.checksum)
        try sync(laptop)
        try sync(phone)
        let trimmedOnPhone = try XCTUnwrap(try memo(uid: made.uid, in: phone))
        XCTAssertEqual(trimmedOnPhone.checksum, trimmed.checksum)
        XCTAssertEqual(trimmedOnPhone.title, "chord")
        XCTAssertEqual(trimmedOnPhone.tags, ["piano"])

        _ = try phone.apply(RemoveVoiceMemos(ids: [trimmedOnPhone.id]), origin: .cli)
        try sync(phone)
        try sync(laptop)
        XCTAssertNil(try memo(uid: made.uid, in: laptop))
        XCTAssertNil(try memo(uid: made.uid, in: hub))
    }
}
