import Glibc
import MemoCLI

// A write past `ulimit -f` raises SIGXFSZ, whose default action kills the
// process mid-command (after a commit it already reported, leaving its
// temporaries). Ignored, the write fails with EFBIG instead and the normal
// error path reports it and cleans up.
signal(SIGXFSZ, SIG_IGN)
exit(App(environment: ProcessEnvironment.current).run(argumentBytes: ProcessArguments.current))
