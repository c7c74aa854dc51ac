#if canImport(Glibc)
import Glibc
#endif

/// Socket addresses as text: `127.0.0.1:53122`, `[::1]:53122`.
enum SocketAddressText {
    static func describe(_ address: UnsafePointer<sockaddr>) -> String {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var host = ipv4.pointee.sin_addr
                return "\(text(AF_INET, &host)):\(UInt16(bigEndian: ipv4.pointee.sin_port))"
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var host = ipv6.pointee.sin6_addr
                let port = UInt16(bigEndian: ipv6.pointee.sin6_port)
                // An IPv4 client of a `[::]` server arrives as ::ffff:a.b.c.d: told as the IPv4 address it is.
                let mapped = withUnsafeBytes(of: &host) { bytes -> String? in
                    guard bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
                    return "\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15])"
                }
                if let mapped { return "\(mapped):\(port)" }
                return "[\(text(AF_INET6, &host))]:\(port)"
            }
        default:
            return ""
        }
    }

    /// The port a bound socket listens on.
    static func boundPort(of socket: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard found == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer -> UInt16? in
            switch family {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            default:
                return nil
            }
        }
    }

    /// Every request's client address is told here: the text is made in a
    /// buffer on the stack rather than an array on the heap.
    private static func text(_ family: Int32, _ address: UnsafeRawPointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            guard let start = buffer.baseAddress,
                  inet_ntop(family, address, start, socklen_t(buffer.count)) != nil else { return "" }
            return String(cString: start)
        }
    }
}
