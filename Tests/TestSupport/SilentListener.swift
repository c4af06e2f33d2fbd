import Foundation

/// A loopback TCP socket that listens and never accepts: the kernel
/// completes connections into its backlog, the request is sent, and no
/// answer ever comes (a hanging server, without a thread or a process).
/// With `listening: false` the port is only bound: connections to it are
/// refused (a server that is down), and no other test can take the port.
public final class SilentListener: @unchecked Sendable {
    public let descriptor: Int32
    public let port: Int

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(listening: Bool = true) throws {
        (descriptor, port) = try Self.bound()
        guard !listening || listen(descriptor, 16) == 0 else {
            _ = Foundation.close(descriptor)
            throw Failure(description: "listen failed")
        }
    }

    public func close() { _ = Foundation.close(descriptor) }

    static func bound() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            _ = Foundation.close(descriptor)
            throw Failure(description: "bind failed")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
