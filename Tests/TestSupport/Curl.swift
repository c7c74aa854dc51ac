import Foundation

/// What one `curl` run got: the final response's status, header fields and
/// body (informational 1xx responses skipped), and how curl exited.
public struct CurlResult {
    public let exitCode: Int32
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: Data
    public let stderr: String

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first value of header `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Runs the system's `curl` (installed by scripts/test) as a real HTTP
/// client: `-sS -i`, HTTP/1.1, with a time limit of its own.
public enum Curl {
    public static func run(_ arguments: [String], input: Data? = nil, maxTime: Int = 30) -> CurlResult {
        let result = runChildProcess("/usr/bin/curl", ["-sS", "-i", "--http1.1", "--max-time", String(maxTime)] + arguments,
                                     input: input, timeout: TimeInterval(maxTime + 30))
        let (status, headers, body) = parse(result.stdout)
        return CurlResult(exitCode: result.status, status: status, headers: headers, body: body,
                          stderr: String(decoding: result.stderr, as: UTF8.self))
    }

    /// Splits `-i` output into the last response's status, fields and body.
    static func parse(_ data: Data) -> (Int, [(name: String, value: String)], Data) {
        var rest = data[...]
        while true {
            guard let end = rest.range(of: Data("\r\n\r\n".utf8)) else { return (0, [], rest) }
            let head = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self)
            let body = rest[end.upperBound...]
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            let status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
            if (100...199).contains(status) {
                rest = body
                continue
            }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            return (status, headers, Data(body))
        }
    }
}
