#if canImport(Glibc)
import Glibc
#endif

/// The process's arguments as the kernel handed them over.
public enum ProcessArguments {
    /// argv after the program's name, each argument as its bytes: MemoCLI
    /// refuses one that is not UTF-8 rather than run with a repaired copy
    /// (CommandLine.arguments replaces bad bytes with U+FFFD). A process can
    /// start with no argv at all (an execve with an empty list, a preload
    /// that rewrites it): argc 0 is then no arguments, not a trap.
    public static func bytes(count: Int32, values: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [[UInt8]] {
        guard count > 1, let values else { return [] }
        return (1..<Int(count)).map { index in
            guard let argument = values[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    /// This process's arguments.
    public static var current: [[UInt8]] {
        bytes(count: CommandLine.argc, values: CommandLine.unsafeArgv)
    }
}
