import CommandLineKit
import Foundation
import MemoCore
@testable import MemoCLI
import SQLite
import XCTest

final class ErrorReportTests: XCTestCase {
    private let root = App(environment: [:], streams: RecordingStreams()).root

    private func parseJSON(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    // MARK: Kinds and exit codes

    func testEveryMemoErrorKindExitsWithItsCode() {
        let expected: [ErrorKind: Int32] = [
            .internalFailure: 1, .onboardingRequired: 3, .notFound: 4, .invalidState: 5, .duplicate: 5,
            .usage: 64, .badInput: 65, .noInput: 66, .storage: 74, .unauthorized: 77, .tooLarge: 1, .unavailable: 69,
            .interrupted: 130,
        ]
        for kind in ErrorKind.allCases {
            let report = ErrorReport(MemoError(kind, en: "x", ko: "엑스"), language: .en)
            XCTAssertEqual(report.exitCode, expected[kind], "\(kind)")
            XCTAssertEqual(report.kind, kind)
        }
    }

    func testNoKindExitsWithSuccessOrAShellReservedCode() {
        for kind in ErrorKind.allCases {
            let code = ErrorReport.exitCode(for: kind)
            XCTAssertNotEqual(code, 0, "\(kind)")
            XCTAssertNotEqual(code, 2, "\(kind)")
            // 128 + a signal's number is how a shell reports a signal: only Ctrl-C's.
            XCTAssertTrue(code < 126 || (kind == .interrupted && code == 128 + SIGINT), "\(kind)")
        }
    }

    func testAUsageErrorExitsSixtyFour() {
        let report = ErrorReport(UsageError(Localized(en: "bad", ko: "나쁨"), path: ["onboard"]), language: .en)
        XCTAssertEqual(report.exitCode, 64)
        XCTAssertEqual(report.kind, .usage)
    }

    func testSQLiteFailuresMapByTheirKind() {
        let busy = ErrorReport(SQLiteError(code: 5, message: "database is locked"), language: .en)
        XCTAssertEqual(busy.exitCode, 74)
        XCTAssertEqual(busy.message, "storage failure: database is locked [SQLITE_BUSY]")
        let misuse = ErrorReport(SQLiteError(code: 19, message: "constraint"), language: .ko)
        XCTAssertEqual(misuse.exitCode, 1)
        XCTAssertEqual(misuse.message, "저장소 오류: constraint [SQLITE_CONSTRAINT]")
    }

    func testAFullDiskIsSaidPlainlyEvenWhenSQLiteSaysIOError() {
        let failure = SQLiteError(code: 4874, message: "disk I/O error", systemErrorNumber: ENOSPC)
        let english = ErrorReport(failure, language: .en)
        XCTAssertEqual(english.exitCode, 74)
        XCTAssertEqual(english.message, "the disk holding the data home is full; nothing was changed. Free some space "
                       + "and try again: disk I/O error (No space left on device) [SQLITE_IOERR]")
        let korean = ErrorReport(SQLiteError(code: 13, message: "database or disk is full"), language: .ko)
        XCTAssertTrue(korean.message.hasPrefix("데이터 폴더가 있는 디스크가 가득 찼습니다."), korean.message)
        XCTAssertTrue(korean.message.hasSuffix("database or disk is full [SQLITE_FULL]"), korean.message)
    }

    func testAReadOnlyDiskAndADamagedDatabaseAreSaidPlainly() {
        let readOnly = ErrorReport(SQLiteError(code: 8, message: "attempt to write a readonly database"), language: .en)
        XCTAssertEqual(readOnly.exitCode, 74)
        XCTAssertTrue(readOnly.message.hasPrefix("the data home cannot be written (a read-only disk or file)"),
                      readOnly.message)
        let corrupt = ErrorReport(SQLiteError(code: 11, message: "database disk image is malformed"), language: .en)
        XCTAssertEqual(corrupt.exitCode, 74)
        XCTAssertEqual(corrupt.message, "the database is damaged or is not memoapp's: "
                       + "database disk image is malformed [SQLITE_CORRUPT]; run 'memoapp doctor'")
        let koreanCorrupt = ErrorReport(SQLiteError(code: 26, message: "file is not a database"), language: .ko)
        XCTAssertTrue(koreanCorrupt.message.contains("'memoapp doctor'를 실행하세요"), koreanCorrupt.message)
    }

    func testAnyOtherErrorIsAnInternalFailure() {
        struct Surprise: Error {}
        let report = ErrorReport(Surprise(), language: .en)
        XCTAssertEqual(report.exitCode, 1)
        XCTAssertEqual(report.kind.code, "internal")
        XCTAssertTrue(report.message.hasPrefix("internal error: "), report.message)
        XCTAssertTrue(ErrorReport(Surprise(), language: .ko).message.hasPrefix("내부 오류: "))
    }

    // MARK: Text

    func testTextIsOneLineWithThePrefixInTheChosenLanguage() {
        let error = MemoError(.notFound, en: "no to-do 7", ko: "할 일 7이 없습니다")
        XCTAssertEqual(ErrorReport(error, language: .en).render(isJSON: false, root: root, language: .en),
                       "memoapp: no to-do 7\n")
        XCTAssertEqual(ErrorReport(error, language: .ko).render(isJSON: false, root: root, language: .ko),
                       "memoapp: 할 일 7이 없습니다\n")
    }

    func testAUsageErrorAddsTheUsageLineAndWhereToLook() {
        let error = UsageError(Localized(en: "invalid N '9'", ko: "N '9'이 올바르지 않습니다"), path: ["onboard", "goto"])
        let english = ErrorReport(error, language: .en).render(isJSON: false, root: root, language: .en)
        XCTAssertEqual(english, """
            memoapp: invalid N '9'
            usage: memoapp onboard goto N
            See 'memoapp onboard goto --help'

            """)
        let korean = ErrorReport(error, language: .ko).render(isJSON: false, root: root, language: .ko)
        XCTAssertEqual(korean, """
            memoapp: N '9'이 올바르지 않습니다
            사용법: memoapp onboard goto N
            'memoapp onboard goto --help'를 참고하세요

            """)
    }

    func testAUsageErrorAtTheTopPointsToTheTopHelp() {
        let text = ErrorReport(UsageError(Localized(verbatim: "unknown command 'x'"), path: []), language: .en)
            .render(isJSON: false, root: root, language: .en)
        XCTAssertTrue(text.contains("usage: memoapp [COMMAND]\n"), text)
        XCTAssertTrue(text.hasSuffix("See 'memoapp --help'\n"), text)
    }

    // MARK: JSON

    func testJSONIsOneObjectWithCodeAndMessage() throws {
        let error = MemoError(.invalidState, en: "not on the last page", ko: "마지막 페이지가 아닙니다")
        let text = ErrorReport(error, language: .ko).render(isJSON: true, root: root, language: .ko)
        XCTAssertTrue(text.hasSuffix("}\n"))
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 1)
        let object = try XCTUnwrap(parseJSON(text))
        XCTAssertEqual(object.keys.sorted(), ["error"])
        let inner = try XCTUnwrap(object["error"] as? [String: Any])
        XCTAssertEqual(inner.keys.sorted(), ["code", "message"])
        XCTAssertEqual(inner["code"] as? String, "invalid_state")
        XCTAssertEqual(inner["message"] as? String, "마지막 페이지가 아닙니다")
    }

    func testJSONUsageErrorsCarryNoUsageText() throws {
        let error = UsageError(Localized(verbatim: "unknown option '--x'"), path: ["onboard"])
        let text = ErrorReport(error, language: .en).render(isJSON: true, root: root, language: .en)
        let inner = try XCTUnwrap(parseJSON(text)?["error"] as? [String: Any])
        XCTAssertEqual(inner["code"] as? String, "usage")
        XCTAssertEqual(inner["message"] as? String, "unknown option '--x'")
        XCTAssertFalse(text.contains("See "))
    }

    func testJSONEscapesTheMessage() throws {
        let error = MemoError(.badInput, en: "bad \"file\"\nname\\", ko: "")
        let text = ErrorReport(error, language: .en).render(isJSON: true, root: root, language: .en)
        let inner = try XCTUnwrap(parseJSON(text)?["error"] as? [String: Any])
        XCTAssertEqual(inner["message"] as? String, "bad \"file\"\nname\\")
    }

    // MARK: Through the App

    func testAUsageErrorFromTheCommandLineGoesToStderrWithExit64() {
        let app = TestApp()
        let run = app.run("onboard", "goto", "9")
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.hasPrefix("memoapp: invalid N '9'"), run.stderr)
        XCTAssertTrue(run.stderr.contains("usage: memoapp onboard goto N\n"), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("See 'memoapp onboard goto --help'\n"), run.stderr)
        XCTAssertFalse(app.homeExists)
    }

    func testAParseErrorStillFollowsJSONAndLang() {
        let app = TestApp()
        let json = app.run("onboard", "--bogus", "--json")
        XCTAssertEqual(json.status, 64)
        XCTAssertEqual(json.stdout, "")
        XCTAssertEqual(json.jsonError()?.code, "usage")
        XCTAssertTrue(json.jsonError()?.message.contains("--bogus") ?? false)
        let korean = app.run("--lang", "ko", "frobnicate")
        XCTAssertEqual(korean.status, 64)
        XCTAssertTrue(korean.stderr.contains("알 수 없는 명령 'frobnicate'"), korean.stderr)
        XCTAssertTrue(korean.stderr.contains("사용법: memoapp"), korean.stderr)
    }

    func testAParseErrorFollowsAnInlineLangToo() {
        let run = TestApp().run("--lang=ko", "frobnicate")
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("알 수 없는 명령 'frobnicate'"), run.stderr)
        let afterDoubleDash = TestApp().run("frobnicate", "--", "--lang", "ko")
        XCTAssertTrue(afterDoubleDash.stderr.contains("unknown command 'frobnicate'"), afterDoubleDash.stderr)
    }

    func testADataHomeThatIsAFileExitsSeventyFour() throws {
        let app = TestApp()
        XCTAssertTrue(FileManager.default.createFile(atPath: app.homePath, contents: Data("not a folder".utf8)))
        let run = app.run("onboard", "status", "--json")
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertEqual(run.jsonError()?.code, "storage")
        XCTAssertTrue(run.jsonError()?.message.contains("not a folder") ?? false, run.stderr)
    }

    func testStartBeforeTheLastPageExitsFiveWithItsCode() {
        let app = TestApp()
        let run = app.run("onboard", "start", "--json")
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stdout, "", "stdout stays empty on failure with --json")
        XCTAssertEqual(run.jsonError()?.code, "invalid_state")
        XCTAssertTrue(run.jsonError()?.message.contains("page 1 of 4") ?? false)
    }

    func testAForeignDatabaseInTheDataHomeExitsSeventyFour() throws {
        let app = TestApp()
        try FileManager.default.createDirectory(atPath: app.homePath, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x5A, count: 4096)
        XCTAssertTrue(FileManager.default.createFile(atPath: app.databasePath, contents: garbage))
        let run = app.run("onboard", "status", "--json")
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertEqual(run.jsonError()?.code, "storage")
        XCTAssertEqual(FileManager.default.contents(atPath: app.databasePath), garbage)
    }
}
