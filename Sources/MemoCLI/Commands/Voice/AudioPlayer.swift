#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// A program on the machine that plays a sound file, as `voice play` uses
/// it: found on `PATH`, run with arguments (never through a shell).
struct AudioPlayer: Equatable {
    /// The program's name, as looked for on `PATH`.
    let name: String
    /// Where it was found.
    let path: String

    /// The programs tried, in order: PipeWire's, PulseAudio's, ALSA's, sox's.
    static let names = ["pw-play", "paplay", "aplay", "play"]

    /// The first of `names` found as an executable file in `searchPath`
    /// (`PATH`'s form: folders split by `:`). An empty entry, which would mean
    /// the current folder, is skipped: a file that happens to lie there is not
    /// run.
    static func find(in searchPath: String?) -> AudioPlayer? {
        let folders = (searchPath ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        for name in names {
            for folder in folders {
                let path = (folder.hasSuffix("/") ? folder : folder + "/") + name
                var status = stat()
                if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, access(path, X_OK) == 0 {
                    return AudioPlayer(name: name, path: path)
                }
            }
        }
        return nil
    }

    /// Whether the player starts a file at a given point itself: sox's
    /// `play FILE trim START`. The others are handed a copy that starts there.
    var canSeek: Bool { name == "play" }

    /// Whether the player reads a stored file of `container` as it is. All
    /// read WAV; pw-play and paplay read through libsndfile and sox reads
    /// FLAC and Ogg too; aplay reads WAV only, and MP3 support varies with how
    /// each was built, so MP3 is always decoded first.
    func reads(_ container: String) -> Bool {
        switch container.uppercased() {
        case "WAV": return true
        case "FLAC", "OGG": return name != "aplay"
        default: return false
        }
    }

    /// The arguments after the program's name: the file, and for sox the
    /// frame to start at (`trim 12000s` is exact at the file's own rate).
    func arguments(file: String, startFrame: Int64) -> [String] {
        guard canSeek, startFrame > 0 else { return [file] }
        return [file, "trim", "\(startFrame)s"]
    }
}
