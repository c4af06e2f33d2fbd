#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads input files without ever blocking on one that is not a file: the
/// path is opened non-blocking (a FIFO with no writer, or a device, would
/// otherwise hang `open` or `read` forever — the audit found ten CLI paths
/// that did), checked with `fstat` to be a regular file, then read up to a
/// limit. Every CLI input and every vector file goes through it.
public enum RegularFile {
    /// Why a path was refused; `description` is one line naming it.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public enum Kind: Sendable, Equatable { case empty, missing, notRegular, tooLarge, unreadable }
        public let kind: Kind
        public let description: String
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        guard !path.isEmpty else { throw Failure(kind: .empty, description: "empty path") }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let missing = errno == ENOENT || errno == ENOTDIR
            throw Failure(
                kind: missing ? .missing : .unreadable,
                description: missing ? "\(path): no such file" : "\(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(kind: .unreadable, description: "\(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(kind: .notRegular, description: "\(path) is \(kindName(status.st_mode)), not a regular file")
        }
        return try readAll(descriptor, name: path, limit: limit)
    }

    /// Standard input, at most `limit` bytes (a pipe or a terminal is fine
    /// here: the user chose to give input there, and the limit bounds it).
    public static func readStandardInput(limit: Int) throws(Failure) -> [UInt8] {
        try readAll(STDIN_FILENO, name: "standard input", limit: limit)
    }

    /// Reads `descriptor` to its end, refusing more than `limit` bytes
    /// (it stops reading one chunk past the limit).
    static func readAll(_ descriptor: Int32, name: String, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(kind: .unreadable, description: "\(name) cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        guard bytes.count <= limit else { throw Failure(kind: .tooLarge, description: "\(name) is larger than \(limit) bytes") }
        return bytes
    }

    /// What a file of `mode` is, for a message ("a directory", "a FIFO", …).
    package static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
