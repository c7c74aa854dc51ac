import Foundation
@testable import MemoCLI
import TestSupport
import XCTest

/// `App.run(argumentBytes:)`: the command line as the kernel hands it over.
/// Arguments that are not UTF-8 are refused before anything runs.
final class ArgumentBytesTests: XCTestCase {
    private func run(_ arguments: [[UInt8]], in app: TestApp) -> AppRun {
        let streams = RecordingStreams()
        let status = App(environment: app.environment, streams: streams, clock: FixedClock()).run(argumentBytes: arguments)
        return AppRun(status: status, stdout: streams.output, stderr: streams.error)
    }

    func testNoArgvAtAllIsNoArguments() {
        // argc 0 (an execve with an empty argv, a preload that rewrites it): no trap on 1..<0.
        XCTAssertEqual(ProcessArguments.bytes(count: 0, values: nil), [])
        XCTAssertEqual(ProcessArguments.bytes(count: -1, values: nil), [])
        var program = Array("memoapp".utf8CString)
        var word = Array("todo".utf8CString)
        program.withUnsafeMutableBufferPointer { programPointer in
            word.withUnsafeMutableBufferPointer { wordPointer in
                var argv: [UnsafeMutablePointer<CChar>?] = [programPointer.baseAddress, wordPointer.baseAddress, nil]
                argv.withUnsafeMutableBufferPointer { values in
                    XCTAssertEqual(ProcessArguments.bytes(count: 0, values: values.baseAddress), [])
                    XCTAssertEqual(ProcessArguments.bytes(count: 1, values: values.baseAddress), [])
                    XCTAssertEqual(ProcessArguments.bytes(count: 2, values: values.baseAddress), [Array("todo".utf8)])
                }
            }
        }
    }

    func testValidUTF8RunsAsTheStringForm() {
        let app = TestApp()
        let result = run([Array("onboard".utf8), Array("status".utf8), Array("--json".utf8)], in: app)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.jsonObject()["completed"] as? Bool, false)
    }

    func testInvalidUTF8IsRefusedWith65AndChangesNothing() {
        let app = TestApp()
        for bad: [UInt8] in [[0x61, 0xFF, 0x62], [0xC3], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]] {
            let result = run([Array("onboard".utf8), Array("skip".utf8), bad], in: app)
            XCTAssertEqual(result.status, 65, "\(bad)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(result.stderr, "memoapp: argument 3 is not UTF-8 text; nothing was changed\n")
        }
        XCTAssertFalse(app.homeExists, "a refused command line created the data home")
    }

    func testRefusalFollowsJSONAndLanguage() {
        let app = TestApp()
        let result = run([Array("--json".utf8), Array("--lang=ko".utf8), Array("todo".utf8), [0x80]], in: app)
        XCTAssertEqual(result.status, 65)
        let error = result.jsonError()
        XCTAssertEqual(error?.code, "bad_input")
        XCTAssertEqual(error?.message, "4번째 인수가 UTF-8 텍스트가 아닙니다. 아무것도 바꾸지 않았습니다")
    }
}
