import Foundation
import TestSupport
import XCTest

/// Libraries only some commands need are loaded when first used, never
/// linked: every other command starts without mapping them, and the LGPL
/// libmicrohttpd stays a separate file (libsodium, for API tokens, likewise).
final class LinkingEndToEndTests: XCTestCase {
    func testMemoappLinksNeitherLibmicrohttpdNorTheOtherLibrariesLoadedOnFirstUse() throws {
        let result = runChildProcess("/usr/bin/ldd", [Memoapp.binaryPath])
        let text = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertEqual(result.status, 0, text)
        XCTAssertTrue(text.contains("libc.so"), "ldd listed nothing: \(text)")
        for library in ["libmicrohttpd", "libgnutls", "libsndfile", "libjansson", "libsodium"] {
            XCTAssertFalse(text.contains(library), "memoapp links \(library):\n\(text)")
        }
    }
}
