import Foundation
import TestSupport
import XCTest

/// Libraries only some commands need are loaded when first used, never
/// linked: every other command starts without mapping them, and the LGPL
/// libmicrohttpd stays a separate file.
final class LinkingEndToEndTests: XCTestCase {
    func testMemoappLinksNeitherLibmicrohttpdNorTheOtherLibrariesLoadedOnFirstUse() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [Memoapp.binaryPath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("libc.so"), "ldd listed nothing: \(text)")
        for library in ["libmicrohttpd", "libgnutls", "libsndfile", "libjansson"] {
            XCTAssertFalse(text.contains(library), "memoapp links \(library):\n\(text)")
        }
    }
}
