import Foundation
import TestSupport
import XCTest

/// `memo export --format md DIR` and `memo import DIR` on the built binary:
/// a round trip through files and a fresh data home gives the same files
/// byte for byte, names stay inside DIR, and the output-file rules hold.
final class MemoMarkdownEndToEndTests: XCTestCase {
    private let folder = TemporaryDirectory()

    private func home(_ name: String) -> Memoapp {
        let app = Memoapp(home: folder.appending(name))
        app.onboard()
        return app
    }

    private func add(_ app: Memoapp, _ text: Data, _ arguments: [String] = [], file: StaticString = #filePath,
                     line: UInt = #line) {
        let added = app.run(["memo", "add"] + arguments, input: text)
        XCTAssertEqual(added.status, 0, added.stderr, file: file, line: line)
    }

    /// Every file of `path`, name to bytes.
    private func files(in path: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
        }
        return result
    }

    private func export(_ app: Memoapp, to path: String, _ extra: String...) -> RunResult {
        app.run(["memo", "export", "--format", "md", path] + extra)
    }

    /// Memos whose texts and titles are hard to keep: front matter look-alikes,
    /// blank lines at either end, no final newline, CRLF, Korean, NUL, and
    /// titles with slashes, dots, control characters, or far too long.
    private func fillHostile(_ app: Memoapp) {
        add(app, Data("---\ntitle: not mine\n---\n\nbody after a fake block".utf8), ["--title", "../../etc/passwd"])
        add(app, Data("\n\n  leading and trailing blank lines  \n\n\n".utf8), ["--title", "주간 회의 / 초안", "--tag", "work"])
        add(app, Data("no final newline".utf8), ["--title", ".hidden..name.", "--pin"])
        add(app, Data("CRLF\r\nlines\r\n".utf8), ["--title", "bell\u{7}escape\u{1B}[31mred", "--tag", "한글"])
        add(app, Data("한국어 메모\n두 번째 줄\0NUL 뒤".utf8), ["--title", String(repeating: "아주 긴 제목 ", count: 80)])
        add(app, Data("---".utf8))
        add(app, Data("# Heading only\n".utf8))
        XCTAssertEqual(app.run("memo", "edit", "2", "--text", "\n\n  edited later  \n\n\n").status, 0)
    }

    func testARoundTripThroughAFreshHomeGivesTheSameFilesByteForByte() throws {
        let first = home("first")
        fillHostile(first)
        let out = folder.appending("out")
        let exported = export(first, to: out, "--json")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let names = exported.object()["files"] as? [String] ?? []
        XCTAssertEqual(exported.object()["count"] as? Int, 7)
        let written = try files(in: out)
        XCTAssertEqual(Set(written.keys), Set(names))
        for name in names {
            XCTAssertFalse(name.hasPrefix("."), name)
            XCTAssertTrue(name.hasSuffix(".md"), name)
            XCTAssertLessThan(name.utf8.count, 200, name)
        }
        XCTAssertTrue(names.contains("1-etc-passwd.md"), "\(names)")
        XCTAssertTrue(names.contains("2-주간-회의-초안.md"), "\(names)")
        XCTAssertTrue(names.contains("4-bell-escape-31mred.md"), "\(names)")
        XCTAssertTrue(names.contains("6-memo.md"), "\(names)")
        let nul = try XCTUnwrap(written.first { $0.key.hasPrefix("5-") }?.value)
        XCTAssertTrue(nul.contains(0), "the NUL is in the file as the store keeps it")
        let noNewline = try XCTUnwrap(written.first { $0.key.hasPrefix("3-") }?.value)
        XCTAssertEqual(noNewline.last, UInt8(ascii: "e"), "no newline is added")

        let second = home("second")
        let imported = second.run("memo", "import", out, "--json")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.object()["added"] as? Int, 7)
        let again = folder.appending("again")
        XCTAssertEqual(export(second, to: again).status, 0)
        XCTAssertEqual(try files(in: again), written, "the same names and the same bytes")
        let memo = second.run("memo", "show", "2", "--json").object()
        XCTAssertEqual(memo["text"] as? String, "\n\n  edited later  \n\n\n")
        XCTAssertNotEqual(memo["created_at"] as? String, nil)
        XCTAssertEqual(second.run("memo", "list", "--pinned", "--json").array().count, 1)
        XCTAssertEqual(second.run("memo", "list", "--tag", "한글", "--json").array().count, 1)

        // The same files again: every uid is there already.
        let repeated = second.run("memo", "import", out, "--json")
        XCTAssertEqual(repeated.object()["added"] as? Int, 0)
        XCTAssertEqual(repeated.object()["already_present"] as? Int, 7)
    }

    func testAnExistingFileIsReplacedOnlyWithForceAndAClashWritesNothing() throws {
        let app = home("home")
        add(app, Data("one".utf8), ["--title", "one"])
        add(app, Data("two".utf8), ["--title", "two"])
        let out = folder.appending("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/2-two.md"))
        let refused = export(app, to: out)
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(out)/2-two.md exists"), refused.stderr)
        XCTAssertEqual(Set(try files(in: out).keys), ["notes.txt", "2-two.md"], "nothing written: 1-one.md comes first")
        let forced = export(app, to: out, "--force")
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(forced.stdout, "Wrote 2 memos into \(out)\n")
        let now = try files(in: out)
        XCTAssertEqual(Set(now.keys), ["notes.txt", "1-one.md", "2-two.md"])
        XCTAssertEqual(now["notes.txt"], Data("someone else's".utf8), "other files stay")
        XCTAssertTrue(String(decoding: now["2-two.md"] ?? Data(), as: UTF8.self).hasSuffix("---\ntwo"))
    }

    func testAKilledExportsTemporariesAreSweptOnceTheFilesAreWritten() throws {
        let app = home("home")
        add(app, Data("one".utf8), ["--title", "one"])
        let out = folder.appending("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // A temporary no process holds a lock on: a killed writer's, of this very file.
        for name in [".1-one.md.0123456789abcdef.part", ".notes.txt.0123456789abcdef.part", ".1-one.md.part"] {
            try Data("partial".utf8).write(to: URL(fileURLWithPath: out + "/" + name))
        }
        XCTAssertEqual(export(app, to: out).status, 0)
        XCTAssertEqual(Set(try files(in: out).keys), ["1-one.md", ".notes.txt.0123456789abcdef.part", ".1-one.md.part"],
                       "only the temporaries of the files written go")
    }

    func testPlacesThatAreNoFolderOrInsideTheHomeAreRefused() throws {
        let app = home("home")
        add(app, Data("one".utf8))
        let file = folder.appending("a-file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(export(app, to: file).status, 5)
        XCTAssertEqual(export(app, to: app.home + "/exported").status, 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: app.home + "/exported"), "nothing made inside the home")
        XCTAssertEqual(export(app, to: app.home).status, 5)
        XCTAssertEqual(export(app, to: "-").status, 64)
        XCTAssertEqual(export(app, to: folder.appending("missing/parent")).status, 74)
        XCTAssertEqual(app.run("memo", "export", "--format", "json", folder.appending("x")).status, 64)
        let made = export(app, to: folder.appending("new") + "/")
        XCTAssertEqual(made.status, 0, made.stderr)
        var status = stat()
        XCTAssertEqual(stat(folder.appending("new"), &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o700, "memos are private")
        XCTAssertEqual(Memoapp(home: folder.appending("fresh")).run("memo", "export", folder.appending("gate")).status, 3)
    }

    func testAnEditedFrontMatterIsReadAndABrokenOneNamesItsLine() throws {
        let app = home("home")
        let notes = folder.appending("notes")
        try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: true)
        try Data("""
            ---
            title: 손으로 쓴 제목
            tags: [home, "#work"]
            created: 2026-11-29T13:24:04Z
            pinned: true
            uid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77
            ---
            text
            """.utf8).write(to: URL(fileURLWithPath: notes + "/10-later.md"))
        try Data("# Plain file\n\nbody\n".utf8).write(to: URL(fileURLWithPath: notes + "/2-first.md"))
        try Data("ignored: not a memo file".utf8).write(to: URL(fileURLWithPath: notes + "/picture.png"))
        let imported = app.run("memo", "import", notes, "--json")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(imported.object()["ids"] as? [Int], [1, 2])
        XCTAssertEqual(app.run("memo", "show", "1", "--json").object()["title"] as? String, "Plain file", "2- before 10-")
        let memo = app.run("memo", "show", "2", "--json").object()
        XCTAssertEqual(memo["title"] as? String, "손으로 쓴 제목")
        XCTAssertEqual(memo["tags"] as? [String], ["home", "work"])
        XCTAssertEqual(memo["is_pinned"] as? Bool, true)
        XCTAssertEqual(memo["uid"] as? String, "0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77")
        XCTAssertEqual(memo["text"] as? String, "text")

        let broken = folder.appending("broken.md")
        try Data("---\ncreated: soon\nuid: 1b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77\n---\nx".utf8)
            .write(to: URL(fileURLWithPath: broken))
        let refused = app.run("memo", "import", broken)
        XCTAssertEqual(refused.status, 65)
        XCTAssertEqual(refused.stderr, "memoapp: \(broken):2: created: 'soon' is not an RFC 3339 time; nothing was imported\n")
        XCTAssertEqual(app.run("memo", "list", "--json").array().count, 2)
    }
}
