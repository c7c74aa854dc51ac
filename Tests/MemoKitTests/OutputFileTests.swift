import Foundation
import MemoCore
@testable import MemoKit
import TestSupport
import XCTest

/// The rules every file a user names for memoapp to write keeps.
final class OutputFileTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var home: DataHome { DataHome(path: folder.appending("home")) }

    override func setUpWithError() throws {
        try home.create()
        try home.createDatabaseFile()
        try FileManager.default.createDirectory(atPath: home.voiceDirectory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: home.voiceDirectory + "/1-ab.wav", contents: Data("RIFF".utf8)))
    }

    func testDashIsStandardOutput() throws {
        let output = try choose("-")
        XCTAssertTrue(output.isStandardOutput)
        XCTAssertEqual(output.format, .json)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "-"))
    }

    func testTheDataHomeAndEverythingInItIsRefusedHoweverItIsNamed() throws {
        let link = folder.appending("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: home.databasePath)
        let linkedFolder = folder.appending("elsewhere")
        try FileManager.default.createSymbolicLink(atPath: linkedFolder, withDestinationPath: home.path)
        let dangling = folder.appending("new.json")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: home.path + "/new.json")
        for given in [home.databasePath, home.voiceDirectory + "/1-ab.wav", home.path + "/x.json",
                      home.path + "/voice/../x.json", link, linkedFolder + "/x.json", dangling] {
            XCTAssertThrowsError(try choose(given, mayReplace: true), given) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .invalidState, given)
                XCTAssertTrue((error as? MemoError)?.message.en.contains("inside the data home") ?? false, "\(error)")
            }
        }
        XCTAssertEqual(FileManager.default.contents(atPath: home.voiceDirectory + "/1-ab.wav"), Data("RIFF".utf8))
    }

    func testFoldersDevicesFIFOsAndSocketsAreRefused() throws {
        let fifo = folder.appending("pipe.json")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let socketPath = folder.appending("socket.json")
        let socket = try bindSocket(at: socketPath)
        defer { close(socket) }
        let cases = [("/dev/null", "a device"), (folder.path, "a folder"), (folder.path + "/", "a folder"),
                     (fifo, "a FIFO"), (socketPath, "a socket")]
        for (given, what) in cases {
            XCTAssertThrowsError(try choose(given, format: "json", mayReplace: true), given) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .invalidState, given)
                XCTAssertEqual((error as? MemoError)?.message.en,
                               "\(given) is \(what); memoapp writes only regular files: name a file")
            }
        }
        var status = stat()
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "/dev/null is still the device")
    }

    func testAnExistingFileIsReplacedOnlyWhenAllowed() throws {
        let path = folder.appending("out.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
        XCTAssertThrowsError(try choose(path)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .invalidState)
            XCTAssertEqual((error as? MemoError)?.hint, .force)
            XCTAssertEqual((error as? MemoError)?.message.en, "\(path) exists")
        }
        let output = try choose(path, mayReplace: true)
        XCTAssertTrue(output.replacesFile)
        XCTAssertEqual(try output.write(text: "{}"), 2)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("{}".utf8))
        XCTAssertEqual(try visibleAndHidden(), ["home", "out.json"])
    }

    func testAFileMadeAfterTheCheckIsNotReplacedUnasked() throws {
        let path = folder.appending("late.json")
        let output = try choose(path)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("theirs".utf8)))
        XCTAssertThrowsError(try output.write(text: "{}")) { error in
            XCTAssertEqual((error as? MemoError)?.hint, .force)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("theirs".utf8))
        XCTAssertEqual(try visibleAndHidden(), ["home", "late.json"], "no temporary left")
    }

    func testADevicePutThereAfterTheCheckIsNotReplacedEither() throws {
        let path = folder.appending("swapped.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let output = try choose(path, mayReplace: true)
        try FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertThrowsError(try output.write(text: "{}")) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .invalidState)
        }
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO)
    }

    func testASymbolicLinkIsWrittenThroughAndStays() throws {
        let target = folder.appending("real.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        let link = folder.appending("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.json")
        try choose(link, mayReplace: true).write(text: "new")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "real.json")
        XCTAssertEqual(FileManager.default.contents(atPath: target), Data("new".utf8))
    }

    func testErrorsNameTheGivenPathNeverATemporary() throws {
        let missing = folder.appending("no/such/dir/x.json")
        XCTAssertThrowsError(try choose(missing)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .storage)
            XCTAssertEqual((error as? MemoError)?.message.en, "cannot create \(missing): No such file or directory")
        }
        let file = folder.appending("plain")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertThrowsError(try choose(file + "/x.json")) { error in
            XCTAssertEqual((error as? MemoError)?.message.en, "cannot create \(file)/x.json: Not a directory")
        }
        // A failure while writing names the destination and leaves nothing.
        let path = folder.appending("failing.json")
        struct Stop: Error {}
        XCTAssertThrowsError(try choose(path).write { _ in throw Stop() })
        XCTAssertEqual(try visibleAndHidden(), ["home", "plain"])
    }

    func testTheFormatFollowsTheNameOrTheFormatAsked() throws {
        let audio = [OutputFormat("wav", fileExtensions: ["wav", "wave"]), OutputFormat("flac", fileExtensions: ["flac"])]
        XCTAssertEqual(try OutputFormat.choose(for: "/a/x.WAVE", asked: nil, among: audio).name, "wav")
        XCTAssertEqual(try OutputFormat.choose(for: "x.flac", asked: "flac", among: audio).name, "flac")
        XCTAssertEqual(try OutputFormat.choose(for: "x.aac", asked: "flac", among: audio).name, "flac")
        XCTAssertEqual(try OutputFormat.choose(for: nil, asked: "wav", among: audio).name, "wav")
        XCTAssertEqual(try OutputFormat.choose(for: "notes", asked: nil, among: [.json]), .json)
        XCTAssertEqual(try OutputFormat.choose(for: ".hidden", asked: nil, among: [.json]), .json)
        XCTAssertEqual(try OutputFormat.choose(for: nil, asked: nil, among: [.svg]), .svg)
        XCTAssertEqual(try OutputFormat.choose(for: "w.png", asked: "svg", among: [.svg]), .svg)
        let refusals: [(String?, String?, [OutputFormat], String)] = [
            ("x.flac", "wav", audio, "x.flac names a flac file, but wav was asked for"),
            ("w.png", nil, [.svg], "cannot tell the format from w.png: it does not end in .svg"),
            ("x.aac", nil, audio, "cannot tell the format from x.aac: it does not end in .wav, .wave or .flac"),
            ("x", nil, audio, "cannot tell the format from x: it does not end in .wav, .wave or .flac"),
            (nil, nil, audio, "standard output has no name to tell the format by"),
            ("x.json", "xml", [.json], "unknown format 'xml': expected one of json"),
        ]
        for (name, asked, formats, message) in refusals {
            XCTAssertThrowsError(try OutputFormat.choose(for: name, asked: asked, among: formats)) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage)
                XCTAssertEqual((error as? MemoError)?.message.en, message)
            }
        }
        XCTAssertThrowsError(try OutputFormat.choose(for: "w.png", asked: nil, among: [.svg])) {
            XCTAssertEqual(($0 as? MemoError)?.hint, .chooseFormat)
        }
    }

    func testAKilledWritersTemporaryGoesOnceItsLockIsFreeWhateverItsAge() throws {
        let path = folder.appending("out.json")
        let abandoned = folder.appending(".out.json.0123456789abcdef.part")
        let live = folder.appending(".out.json.fedcba9876543210.part")
        let lookalikes = [".out.json.0123456789abcdef.tmp", ".out.json.0123456789ABCDEF.part", ".out.json.notes.part",
                          ".other.json.0123456789abcdef.part"].map(folder.appending)
        for file in [abandoned, live] + lookalikes {
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("partial".utf8)))
        }
        let holder = open(live, O_RDONLY)
        XCTAssertEqual(flock(holder, LOCK_EX | LOCK_NB), 0)
        try choose(path).write(text: "{}")
        XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned), "no writer: removed though brand new")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "its writer holds the lock")
        for file in lookalikes { XCTAssertTrue(FileManager.default.fileExists(atPath: file), file) }
        close(holder)
        try choose(path, mayReplace: true).write(text: "{}")
        XCTAssertFalse(FileManager.default.fileExists(atPath: live), "removed once its writer let go")
    }

    func testATemporaryNameFitsForTheLongestFileName() throws {
        let name = String(repeating: "가", count: 84) + ".json"  // 257 bytes: too long for the file itself
        XCTAssertThrowsError(try choose(folder.appending(name)).write(text: "{}"))
        let longest = String(repeating: "a", count: 250) + ".json"
        XCTAssertEqual(try choose(folder.appending(longest)).write(text: "{}"), 2)
        XCTAssertLessThanOrEqual(OutputFile.temporaryPrefix(for: name).utf8.count + 16 + 5, 255)
        XCTAssertTrue(TemporaryFile.isName(OutputFile.temporaryPrefix(for: longest) + "0123456789abcdef.part",
                                                 prefix: OutputFile.temporaryPrefix(for: longest), suffix: ".part"))
    }

    // MARK: - Helpers

    private func choose(_ given: String, format: String? = nil, mayReplace: Bool = false) throws -> OutputFile {
        try OutputFile.choose(given, format: format, among: [.json], home: home, mayReplace: mayReplace)
    }

    private func visibleAndHidden() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private func bindSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0, "bind \(path)")
        return descriptor
    }
}
