import CZlib
import MemoCore

/// gzip (RFC 1952) for answers that pay for it: zlib's deflate, loaded from
/// `libz.so.1` the first time an answer is compressed, so a server that
/// never compresses (and every other command) does not load it.
public enum Gzip {
    /// Answers shorter than this are sent as they are: below about one
    /// packet, compressing saves no round trip and costs a header.
    public static let minimumBytes = 1_400

    /// Whether an `Accept-Encoding` field value allows gzip: named (or `*`)
    /// with a weight above zero (RFC 9110 §12.5.3). Absent: not allowed.
    public static func isAccepted(by acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var gzipWeight: Double?, anyWeight: Double?
        for element in acceptEncoding.split(separator: ",") {
            let parts = element.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard let coding = parts.first, !coding.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0
            }
            if coding == "gzip" || coding == "x-gzip" { gzipWeight = weight } else if coding == "*" { anyWeight = weight }
        }
        return (gzipWeight ?? anyWeight ?? 0) > 0
    }

    /// `bytes` gzipped, at a level that keeps the server's time small
    /// (level 6 writes about a fifth less than 1 for sync's JSON, at three
    /// times the time).
    public static func compress(_ bytes: [UInt8], level: Int32 = 4) throws -> [UInt8] {
        let zlib = try LibZ.loaded()
        var stream = z_stream()
        // 15 + 16: the largest window, with a gzip header and trailer.
        guard memoapp_deflate_init2(zlib.deflateInit2, &stream, level, 15 + 16, 8) == Z_OK else {
            throw MemoError(.internalFailure, en: "zlib could not start compressing", ko: "zlib이 압축을 시작하지 못했습니다")
        }
        defer { _ = zlib.deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(zlib.deflateBound(&stream, UInt(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return zlib.deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound is enough for one Z_FINISH call: anything else is a fault.
        guard status == Z_STREAM_END else {
            throw MemoError(.internalFailure, en: "zlib could not compress (\(status))", ko: "zlib이 압축하지 못했습니다 (\(status))")
        }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}

extension Response {
    /// This answer gzipped when `request` accepts gzip and the body is long
    /// enough to pay; `Vary` says so either way, for caches between.
    public func compressed(for request: Request) throws -> Response {
        var answer = self
        answer.headers.set("Vary", "Accept-Encoding")
        guard case .bytes(let bytes) = body, bytes.count >= Gzip.minimumBytes,
              Gzip.isAccepted(by: request.headers["Accept-Encoding"]) else { return answer }
        answer.body = .bytes(try Gzip.compress(bytes))
        answer.headers.set("Content-Encoding", "gzip")
        return answer
    }
}

/// zlib's functions, resolved from `libz.so.1` on first use (unchecked
/// Sendable: `deflateInit2_` is kept as an address for CZlib's helper).
private struct LibZ: @unchecked Sendable {
    private static let shared = SharedLibrary.load(
        "libz.so.1", debianPackage: "zlib1g", purpose: Localized(en: "compressing an answer (zlib)", ko: "응답 압축(zlib)"),
        resolving: LibZ.init(resolvingFrom:))

    static func loaded() throws(MemoError) -> LibZ { try shared.get() }

    let deflateInit2: UnsafeMutableRawPointer
    let deflate: @convention(c) (z_streamp?, Int32) -> Int32
    let deflateEnd: @convention(c) (z_streamp?) -> Int32
    let deflateBound: @convention(c) (z_streamp?, UInt) -> UInt

    private init(resolvingFrom symbols: SharedLibrary) throws(MemoError) {
        deflateInit2 = try symbols.function("deflateInit2_")
        deflate = try symbols.function("deflate")
        deflateEnd = try symbols.function("deflateEnd")
        deflateBound = try symbols.function("deflateBound")
    }
}

private extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
