#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrustSuiteSupport

/// One service per state (issue 44 item 1): two `serve devicecheck` on one
/// `--state` lost every acknowledged update (the second start folded the
/// first's live journal and unlinked it; each compaction unlinked the
/// other's lines). The service holds an exclusive `flock` on `FILE.lock`
/// for its whole life; a second service on the same state is refused.
///
/// The lock is the kernel's, not the file's: it goes when the descriptor is
/// closed, so a killed service (SIGKILL, a crash) leaves no stale lock to
/// clear by hand. The file stays (it is never unlinked, so two starters
/// always lock the same inode) and holds the holder's pid, for the message.
/// It sits beside the state in the same folder, so two paths that reach
/// that folder through different symbolic links lock the same file.
final class StateLock: Sendable {
    private let descriptor: Int32
    let path: String

    /// Most bytes of the lock file read for the holder's pid.
    static let maxPidBytes = 32

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Takes the lock of the state `stateFile`, or refuses with one line:
    /// another service holds it, or the state's path cannot be kept.
    static func acquire(for stateFile: String) throws(StateFileError) -> StateLock {
        let lockPath = stateFile + ".lock"
        let folder = folder(of: stateFile)
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw StateFileError(description: "cannot keep the state in \(stateFile): folder \(folder) does not exist")
        }
        // The state itself is checked before a lock file is made beside it:
        // a directory or a FIFO given as --state leaves nothing behind.
        if stat(stateFile, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw StateFileError(description: "cannot keep the state: \(stateFile) is \(kindName(status.st_mode)), not a regular file")
        }
        // O_NOFOLLOW: a symbolic link planted as FILE.lock is not followed
        // (it could make the service create or truncate any file it may write).
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            throw StateFileError(description: "cannot keep the state in \(stateFile): cannot open the lock \(lockPath): \(reason)")
        }
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw StateFileError(description: "cannot keep the state in \(stateFile): the lock \(lockPath) is not a regular file")
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            let holder = busy ? Self.holder(descriptor) : nil
            close(descriptor)
            guard busy else { throw StateFileError(description: "cannot lock \(lockPath): \(reason)") }
            throw StateFileError(
                description: "the state \(stateFile) is in use by another service"
                    + (holder.map { " (pid \($0))" } ?? "") + ": one `serve devicecheck` per --state (lock \(lockPath))")
        }
        // The pid is only for the message above; the lock does not depend on it.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return StateLock(descriptor: descriptor, path: lockPath)
    }

    /// The pid the holder wrote, when it is a number.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: maxPidBytes)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = buffer[0..<count].prefix { (0x30...0x39).contains($0) }
        return Int32(String(decoding: digits, as: UTF8.self)).flatMap { $0 > 0 ? $0 : nil }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func kindName(_ mode: mode_t) -> String {
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
