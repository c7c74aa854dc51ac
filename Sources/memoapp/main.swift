import Glibc
import MemoCLI

exit(App(environment: ProcessEnvironment.current).run(Array(CommandLine.arguments.dropFirst())))
