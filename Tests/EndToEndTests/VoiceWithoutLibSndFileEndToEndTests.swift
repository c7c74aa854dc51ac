import Foundation
import TestSupport
import XCTest

/// memoapp loads libsndfile only when a voice command needs it. Here the
/// dynamic loader finds a broken libsndfile.so.1 first (LD_LIBRARY_PATH), as
/// on a machine where the library is missing or damaged: everything else must
/// work, and voice commands must say what is missing and change nothing.
final class VoiceWithoutLibSndFileEndToEndTests: XCTestCase {
    var home: VoiceHome!
    var brokenLibrary: TemporaryDirectory!
    var withoutLibrary: [String: String] { ["LD_LIBRARY_PATH": brokenLibrary.path] }

    override func setUp() {
        home = VoiceHome()
        brokenLibrary = TemporaryDirectory()
        // Not an ELF file: dlopen refuses it, and so would the loader at start
        // if memoapp were linked against libsndfile.
        XCTAssertTrue(FileManager.default.createFile(atPath: brokenLibrary.appending("libsndfile.so.1"),
                                                     contents: Data("no".utf8)))
    }

    func testNotesWorkWithoutIt() {
        let added = home.app.run(["todo", "add", "buy milk"], environment: withoutLibrary)
        XCTAssertEqual(added.status, 0, added.stderr)
        let list = home.app.run(["todo", "list"], environment: withoutLibrary)
        XCTAssertTrue(list.stdout.contains("buy milk"), list.stdout + list.stderr)
        XCTAssertEqual(home.app.run(["voice", "list"], environment: withoutLibrary).status, 0)
    }

    func testImportFailsNamingTheLibraryAndStoresNothing() {
        for language in ["en", "ko"] {
            let result = home.app.run(["voice", "import", VoiceHome.fixture("tone-mono-16k.wav"), "--lang", language],
                                      environment: withoutLibrary)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("memoapp: "), result.stderr)
            XCTAssertTrue(result.stderr.contains("libsndfile.so.1"), result.stderr)
            XCTAssertTrue(result.stderr.contains("libsndfile1"), result.stderr)
            XCTAssertTrue(result.stderr.contains(language == "ko" ? "설치하세요" : "install"), result.stderr)
        }
        let json = home.app.run(["voice", "import", VoiceHome.fixture("tone-mono-16k.wav"), "--json"],
                                environment: withoutLibrary)
        XCTAssertEqual(json.errorCode, "internal", json.stderr)
        XCTAssertEqual(json.stdout, "")
        XCTAssertEqual(home.memos().count, 0)
        XCTAssertEqual(home.libraryFiles.filter { !$0.hasPrefix(".") }, [])
    }

    func testVerifyReportsTheLibraryNotEveryFileAsUndecodable() {
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let result = home.app.run(["voice", "verify", "--json"], environment: withoutLibrary)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(result.errorCode, "internal", result.stderr)
        XCTAssertFalse(result.stdout.contains("undecodable"), result.stdout)
        // The library comes back: the memo was fine all along.
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
    }

    func testDoctorSaysTheAudioLibraryIsMissing() {
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"))
        let result = home.app.run(["doctor", "--json"], environment: withoutLibrary)
        XCTAssertEqual(result.status, 1, result.stderr)
        let checks = result.object()["checks"] as? [[String: Any]] ?? []
        func check(_ name: String) -> [String: Any]? { checks.first { $0["name"] as? String == name } }
        XCTAssertEqual(check("audio_library")?["status"] as? String, "problem", "\(checks)")
        let problem = (check("audio_library")?["problems"] as? [[String: Any]])?.first
        XCTAssertTrue((problem?["message"] as? String ?? "").contains("libsndfile.so.1"), "\(String(describing: problem))")
        XCTAssertEqual(problem?["fix"] as? String, "sudo apt-get install libsndfile1")
        XCTAssertEqual(check("voice_library")?["status"] as? String, "skipped", "\(checks)")

        let healthy = home.app.run("doctor", "--json")
        XCTAssertEqual(healthy.status, 0, healthy.stdout)
        let summary = (healthy.object()["checks"] as? [[String: Any]])?
            .first { $0["name"] as? String == "audio_library" }?["summary"] as? String
        XCTAssertTrue(summary?.hasPrefix("libsndfile-") ?? false, "\(String(describing: summary))")
    }
}
