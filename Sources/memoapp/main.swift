import Glibc
import MemoCLI

// Each argument as its bytes: MemoCLI refuses one that is not UTF-8 rather than
// run with a repaired copy (CommandLine.arguments replaces bad bytes with U+FFFD).
let arguments: [[UInt8]] = (1..<Int(CommandLine.argc)).map { index in
    guard let argument = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
exit(App(environment: ProcessEnvironment.current).run(argumentBytes: arguments))
