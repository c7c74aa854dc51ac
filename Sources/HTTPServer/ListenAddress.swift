#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Where a server listens: a numeric IPv4 or IPv6 address and a port, written
/// `127.0.0.1:8765` or `[::1]:8765`. Port 0 lets the system choose one; the
/// server's `boundAddress` tells which.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Family: Sendable, Hashable {
        case ipv4
        case ipv6
    }

    public let family: Family
    /// The address in its canonical text form (`inet_ntop`'s), without brackets.
    public let host: String
    public let port: UInt16

    /// `127.0.0.1:port`, the loopback address a personal server listens on by default.
    public static func loopback(port: UInt16) -> ListenAddress {
        // A literal the parser accepts; cannot fail.
        try! ListenAddress(host: "127.0.0.1", port: port)
    }

    /// Parses `IPv4:port` or `[IPv6]:port`. Host names are not resolved: a
    /// server binds exactly the address it is given.
    public init(parsing text: String) throws(MemoError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenAddress.malformed(text)
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw ListenAddress.malformed(text)
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = UInt16(portText) else {
            throw ListenAddress.malformed(text)
        }
        try self.init(host: String(host), port: port)
        guard (family == .ipv6) == text.hasPrefix("[") else { throw ListenAddress.malformed(text) }
    }

    /// A numeric IPv4 or IPv6 address (no brackets) and a port.
    public init(host: String, port: UInt16) throws(MemoError) {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            family = .ipv4
            self.host = ListenAddress.text(family: AF_INET, &ipv4, capacity: Int(INET_ADDRSTRLEN))
        } else if inet_pton(AF_INET6, host, &ipv6) == 1 {
            family = .ipv6
            self.host = ListenAddress.text(family: AF_INET6, &ipv6, capacity: Int(INET6_ADDRSTRLEN))
        } else {
            throw MemoError(.usage,
                            en: "\(Self.shown(host)) is not a numeric IPv4 or IPv6 address",
                            ko: "\(Self.shown(host))은(는) 숫자로 쓴 IPv4 또는 IPv6 주소가 아닙니다")
        }
        self.port = port
    }

    public var description: String {
        family == .ipv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The same address with another port (the one the system chose for port 0).
    func with(port: UInt16) -> ListenAddress {
        // Built from an address that already parsed.
        try! ListenAddress(host: host, port: port)
    }

    /// Runs `body` with this address as a `sockaddr` and its length, for `bind`.
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch family {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }

    private static func text(family: Int32, _ address: UnsafeRawPointer, capacity: Int) -> String {
        var buffer = [CChar](repeating: 0, count: capacity)
        inet_ntop(family, address, &buffer, socklen_t(capacity))
        return String(cString: buffer)
    }

    private static func malformed(_ text: String) -> MemoError {
        MemoError(.usage,
                  en: "\(shown(text)) is not a listen address; write IPv4:PORT or [IPv6]:PORT, e.g. 127.0.0.1:8765",
                  ko: "\(shown(text))은(는) 수신 주소가 아닙니다. IPv4:포트 또는 [IPv6]:포트로 쓰세요(예: 127.0.0.1:8765)")
    }

    /// The text as an error quotes it.
    private static func shown(_ text: String) -> String {
        "'" + printable(text, limit: 80) + "'"
    }
}
