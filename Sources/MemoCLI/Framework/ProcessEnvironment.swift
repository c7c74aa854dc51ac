#if canImport(Glibc)
import Glibc
#endif

/// The process's environment variables as a dictionary.
public enum ProcessEnvironment {
    /// Read at every start, so each entry is split at its first `=` byte
    /// (`strchr`) rather than searched Character by Character.
    public static var current: [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let entry = environ[index], let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let name = UnsafeRawBufferPointer(start: entry, count: equals - entry)
            result[String(decoding: name, as: UTF8.self)] = String(cString: equals + 1)
        }
        return result
    }
}
