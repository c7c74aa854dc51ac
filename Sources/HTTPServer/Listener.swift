#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// The listening socket, opened here rather than by libmicrohttpd
/// (MHD_OPTION_LISTEN_SOCKET) so that a failure to bind says why (errno),
/// an IPv6 address but `::` listens on IPv6 alone, and the bound port can be read.
enum Listener {
    static func open(_ address: ListenAddress) throws(MemoError) -> Int32 {
        let family = address.family == .ipv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else {
            throw failure(en: "cannot open a socket for \(address)", ko: "\(address)용 소켓을 열 수 없습니다")
        }
        var on: Int32 = 1
        // A restarted server binds again at once, past the old connections' TIME_WAIT.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            // `[::]` means every address, IPv4's too (what people expect
            // of it, and the printed http://127.0.0.1 link needs it); any
            // other IPv6 address listens on IPv6 alone.
            var only: Int32 = address.host == "::" ? 0 : 1
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSocketAddress { bind(descriptor, $0, $1) }
        guard bound == 0, listen(descriptor, SOMAXCONN) == 0 else {
            let error = failure(en: "cannot listen on \(address)", ko: "\(address)에서 연결을 받을 수 없습니다")
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// The failure with errno's reason appended.
    private static func failure(en: String, ko: String) -> MemoError {
        let reason = String(cString: strerror(errno))
        return MemoError(.internalFailure, en: "\(en) (\(reason))", ko: "\(ko) (\(reason))")
    }
}
