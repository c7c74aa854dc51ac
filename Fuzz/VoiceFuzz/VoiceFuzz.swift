// voice-fuzz: arbitrary bytes through libsndfile's virtual I/O into the
// import path (AudioScanner.scan, with a copy to /dev/null), then through
// the peak rescaling and renderers that stored peaks feed.
//
// Built with `-D FUZZING -sanitize=fuzzer,address` (scripts/fuzz-voice) it is
// a libFuzzer target; in a normal build it is a program that runs the files
// named on its command line through the same function, to replay a crash.
#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import VoiceMemos

/// Where the copy goes: the write path runs, nothing is kept.
let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)

/// One input: must never crash, whatever the bytes.
func fuzzOne(_ bytes: [UInt8]) -> ScannedAudio? {
    do {
        let audio = try AudioScanner.scan(MemoryByteSource(bytes), name: "input", copyTo: devNull)
        precondition(audio.frames > 0 && audio.size == Int64(bytes.count))
        precondition(audio.checksum == StreamingChecksum.hexDigest(of: bytes))
        let peaks = audio.peaks
        precondition(peaks.pixelCount == Int((audio.frames + Int64(peaks.samplesPerPixel) - 1) / Int64(peaks.samplesPerPixel)))
        for width in [1, 7, 800] {
            let document = PeaksDocument(peaks: peaks.resampled(toWidth: width), sampleRate: audio.sampleRate, bits: 8)
            precondition(document.length <= width)
            _ = document.jsonText
        }
        _ = WaveformPicture.svg(peaks: peaks, width: 50, height: 20, title: audio.titleTag ?? "")
        _ = BlockWaveform.line(peaks: peaks, width: 30)
        return audio
    } catch let error as MemoError {
        precondition(error.kind == .badInput, "unexpected \(error)")
        return nil
    } catch {
        preconditionFailure("unexpected \(error)")
    }
}

#if FUZZING
/// libFuzzer's entry point for a program that owns `main` (SwiftPM's
/// executables do): https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = fuzzOne(bytes)
    return 0
}

@main
struct VoiceFuzzDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
    }
}
#else
@main
struct VoiceFuzzReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let bytes = readFile(path) else {
                print("\(path): cannot read")
                continue
            }
            if let audio = fuzzOne(bytes) {
                print("\(path): \(audio.container) \(audio.encoding), \(audio.frames) frames, checksum \(audio.checksum)")
            } else {
                print("\(path): refused")
            }
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return count == 0 ? bytes : nil }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
#endif
