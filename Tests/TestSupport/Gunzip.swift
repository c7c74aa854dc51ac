import Foundation

/// `gzip -dc` of some bytes: compressed output checked by another program
/// than the one that made it.
public enum Gunzip {
    /// The bytes decompressed, or nil when gzip refused them.
    public static func decompress(_ bytes: [UInt8]) throws -> [UInt8]? {
        let folder = TemporaryDirectory()
        let path = folder.appending("bytes.gz")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-dc", path]
        let pipe = Pipe()
        gzip.standardOutput = pipe
        try gzip.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        gzip.waitUntilExit()
        return gzip.terminationStatus == 0 ? [UInt8](output) : nil
    }
}
