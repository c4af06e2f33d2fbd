#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A keep-alive HTTP/1.1 client over one loopback TCP connection, blocking,
/// for the load threads (each thread owns one; no framework in the way).
final class LoopbackClient {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, connected == 0 else { throw Failure(description: "cannot connect to 127.0.0.1:\(port)") }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(descriptor) }

    /// POSTs `body` to `path`; returns the status code once the whole response is read.
    func post(_ path: String, bearer: String, body: String) throws -> Int {
        let request =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(bearer)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send failed") }
            sent += count
        }
        // Headers, then Content-Length bytes of body.
        var headerEnd: Int?
        while true {
            if headerEnd == nil, let end = find([13, 10, 13, 10]) { headerEnd = end + 4 }
            if let end = headerEnd {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + length {
                    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                    buffer.removeFirst(end + length)
                    return status
                }
            }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { throw Failure(description: "connection closed") }
            buffer += chunk[..<count]
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }
}
