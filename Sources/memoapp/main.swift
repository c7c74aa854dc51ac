import Glibc
import MemoCLI
import MemoCore

// A write past `ulimit -f` raises SIGXFSZ, whose default action kills the
// process mid-command (after a commit it already reported, leaving its
// temporaries). Ignored, the write fails with EFBIG instead and the normal
// error path reports it and cleans up.
signal(SIGXFSZ, SIG_IGN)
// Ctrl-C, SIGTERM and SIGHUP end a command as before, but first remove the
// temporaries it was writing (an export's `.FILE.….part`). Commands that
// handle these signals themselves (a timer's wait, playback, recording, the
// pager, the server) replace it while they do.
InterruptCleanup.installHandlers()
exit(App(environment: ProcessEnvironment.current).run(argumentBytes: ProcessArguments.current))
