import Foundation
import TestSupport
import XCTest

/// The quick part of `scripts/torture` part 3: the data home on a full disk
/// and on a read-only one (a tmpfs, so root only; skipped elsewhere). Writes
/// fail with exit 74 and a line that says why, nothing is half stored, and
/// memoapp works again once the disk does.
final class TortureStorageEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!

    override func setUp() {
        folder = TemporaryDirectory()
    }

    private func makeApp(on mount: TemporaryMount) -> Memoapp {
        let app = Memoapp(home: mount.path + "/home")
        app.onboard()
        for index in 1...5 { XCTAssertEqual(app.run("todo", "add", "before \(index)").status, 0) }
        XCTAssertEqual(app.run("memo", "add", "a memo before").status, 0)
        return app
    }

    private func stored(_ app: Memoapp) -> [String] {
        [app.run("todo", "list", "--all", "--json").stdout, app.run("memo", "list", "--json").stdout]
    }

    func testFullDiskRefusesWritesWith74SayingSoAndRecovers() throws {
        let mount = try TemporaryMount(in: folder, size: "4m")
        let app = makeApp(on: mount)
        let before = stored(app)
        let filler = mount.fill()
        let big = Data(String(repeating: "디스크가 가득 참 ", count: 50_000).utf8)
        for (arguments, input) in [(["todo", "add", "no room"], nil), (["todo", "done", "1", "2"], nil),
                                   (["memo", "add"], big), (["timer", "start", "5m"], nil)] as [([String], Data?)] {
            let result = app.run(arguments, input: input)
            app.assertStorageFailure(result, mentioning: ["disk holding the data home is full"], arguments.joined(separator: " "))
        }
        let korean = app.run("--lang", "ko", "todo", "add", "no room")
        XCTAssertTrue(korean.stderr.contains("디스크가 가득 찼습니다"), korean.stderr)
        let doctor = app.doctor()
        XCTAssertNotEqual(doctor.status, 0)
        XCTAssertTrue(doctor.problems(of: "data_home").contains { $0.message.contains("full") }, "\(doctor.document)")

        try FileManager.default.removeItem(atPath: filler)
        app.assertIntegrity("after the disk was full")
        XCTAssertEqual(stored(app), before, "a refused write changed what is stored")
        XCTAssertEqual(app.run("todo", "add", "room again").status, 0)
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testReadOnlyHomeRefusesWritesWith74SayingSoAndRecovers() throws {
        let mount = try TemporaryMount(in: folder, size: "4m")
        let app = makeApp(on: mount)
        let before = stored(app)
        guard mount.setReadOnly(true) else { throw XCTSkip("remount read-only was refused") }
        for arguments in [["todo", "add", "nowhere"], ["todo", "done", "1", "2"], ["memo", "add", "nowhere"],
                          ["timer", "start", "5m"], ["onboard", "reset"], ["todo", "list"]] {
            let result = app.run(arguments)
            app.assertStorageFailure(result, mentioning: ["Read-only file system", "read-only"],
                                     arguments.joined(separator: " "))
        }
        let doctor = app.doctor()
        XCTAssertEqual(doctor.status, 74)
        XCTAssertTrue(doctor.problems(of: "data_home").contains { $0.message.contains("read-only") }, "\(doctor.document)")

        XCTAssertTrue(mount.setReadOnly(false))
        app.assertIntegrity("after the read-only mount")
        XCTAssertEqual(stored(app), before)
        XCTAssertEqual(app.run("todo", "add", "writable again").status, 0)
        XCTAssertEqual(app.doctor().status, 0)
    }
}
