import Foundation

/// A plain TCP connection for sending HTTP no ordinary client would send
/// (malformed lines, NUL bytes, a head trickled byte by byte) and reading
/// what comes back. Every wait has a limit; none is a fixed sleep.
public final class RawHTTPConnection {
    public let descriptor: Int32

    /// Connects to `host` (numeric IPv4 or IPv6) on `port`, from `source`
    /// (a numeric address of the same family: another loopback address,
    /// `127.0.0.2`) when one is given.
    public init(host: String = "127.0.0.1", port: UInt16, source: String? = nil) throws {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else {
            throw RawHTTPError.cannotConnect("no address \(host)")
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw RawHTTPError.cannotConnect(String(cString: strerror(errno))) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1,
                  withUnsafePointer(to: &local, {
                      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                          bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                      }
                  }) == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(socket)
                throw RawHTTPError.cannotConnect("cannot bind to \(source): \(reason)")
            }
        }
        guard connect(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw RawHTTPError.cannotConnect(reason)
        }
        descriptor = socket
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Sends every byte; false when the server has closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes the connection (or `timeout` seconds
    /// pass with nothing arriving); what arrived.
    public func readToEnd(timeout: Double = 20) -> [UInt8] {
        var received: [UInt8] = []
        while let chunk = readSome(timeout: timeout), !chunk.isEmpty { received += chunk }
        return received
    }

    /// Reads until `marker` has arrived; nil when the connection closed or
    /// went silent for `timeout` seconds first.
    public func read(until marker: String, timeout: Double = 20) -> [UInt8]? {
        var received: [UInt8] = []
        let needle = Array(marker.utf8)
        while !RawHTTPConnection.contains(received, needle) {
            guard let chunk = readSome(timeout: timeout), !chunk.isEmpty else { return nil }
            received += chunk
        }
        return received
    }

    /// Whether the server closes the connection within `timeout` seconds
    /// (anything it sends first is read and dropped).
    public func closesWithin(_ timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let chunk = readSome(timeout: deadline.timeIntervalSinceNow) else { return false }
            if chunk.isEmpty { return true }
        }
        return false
    }

    /// One read of at most `maximum` bytes: bytes, empty at end of stream
    /// (or on a reset), nil when nothing came within `timeout` seconds.
    public func readSome(timeout: Double, maximum: Int = 65536) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(0, timeout) * 1000))
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// The status code of the first response in `bytes`, or nil.
    public static func status(of bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        guard text.hasPrefix("HTTP/1."), text.count >= 12 else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

public enum RawHTTPError: Error {
    case cannotConnect(String)
}
