import Foundation
import TestSupport

/// The LD_PRELOAD libraries of fixtures/preload, each built once per test
/// run with the C compiler scripts/test installs.
enum PreloadLibrary {
    /// fixtures/preload/NAME.c built into a shared library; its path.
    static func build(_ name: String) -> Result<String, Error> {
        Result {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("fixtures/preload/\(name).c").path
            let library = NSTemporaryDirectory() + "/memoapp-\(name)-\(getpid()).so"
            let result = runChildProcess("/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", library, source, "-ldl"])
            guard result.status == 0 else {
                throw NSError(domain: "cc", code: Int(result.status),
                              userInfo: [NSLocalizedDescriptionKey: String(decoding: result.stderr, as: UTF8.self)])
            }
            return library
        }
    }
}
