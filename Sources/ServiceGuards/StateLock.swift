#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrustSuiteSupport

/// One service per state (issue 44 item 1, issue 52 item 3): two `serve
/// devicecheck` on one `--state` lost every acknowledged update (the second
/// start folded the first's live journal and unlinked it; each compaction
/// unlinked the other's lines), and two `serve appattest` lost an
/// acknowledged key and rolled counters back. A service holds an exclusive
/// `flock` on `REAL.lock` for its whole life, REAL the state's resolved
/// real path (``resolve(_:)``); a second service on the same state, by
/// whatever name or symbolic link, is refused, and a state file with a
/// second hard link is refused outright (issue 61, item 5).
///
/// The lock is the kernel's, not the file's: it goes when the descriptor is
/// closed, so a killed service (SIGKILL, a crash) leaves no stale lock to
/// clear by hand. The file stays (it is never unlinked, so two starters
/// always lock the same inode) and holds the holder's pid, for the message.
/// It sits beside the real state file, so two names that reach it through
/// symbolic links (to the file or to a folder above it) lock the same file;
/// the service then keeps its state at that real path too, so an atomic
/// replace never turns the link into a second, separate state.
public final class StateLock: Sendable {
    private let descriptor: Int32
    /// The lock file: the real state path followed by `.lock`.
    public let path: String
    /// The state file's resolved real path, where the service keeps it.
    public let stateFile: String

    /// Most bytes of the lock file read for the holder's pid.
    static let maxPidBytes = 32

    private init(descriptor: Int32, path: String, stateFile: String) {
        self.descriptor = descriptor
        self.path = path
        self.stateFile = stateFile
    }

    deinit { close(descriptor) }

    /// The real path of `stateFile`: the file's, symbolic links resolved,
    /// when it exists; else its folder's real path and its name (a link to
    /// a file not yet made is followed to where it points). Nil when the
    /// folder does not exist.
    public static func resolve(_ stateFile: String) -> String? {
        if let real = realPath(stateFile) { return real }
        var target = stateFile
        // A dangling symbolic link: the state will be made where it points.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(stateFile, &buffer, buffer.count - 1)
        if count > 0 {
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            target = link.hasPrefix("/") ? link : folder(of: stateFile) + "/" + link
        }
        guard let folder = realPath(folder(of: target)) else { return nil }
        let name = target.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? target
        return (folder == "/" ? "" : folder) + "/" + name
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Takes the lock of the state `stateFile` for `service` (the command
    /// named in the refusal, `serve devicecheck`), or refuses with one line:
    /// another service holds it, or the state's path cannot be kept.
    public static func acquire(for given: String, service: String) throws(StateFileError) -> StateLock {
        let folder = folder(of: given)
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, let stateFile = resolve(given) else {
            throw StateFileError(description: "cannot keep the state in \(given): folder \(folder) does not exist")
        }
        let lockPath = stateFile + ".lock"
        // The state itself is checked before a lock file is made beside it:
        // a directory or a FIFO given as --state leaves nothing behind.
        if stat(stateFile, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw StateFileError(
                description: "cannot keep the state: \(given) is \(RegularFile.kindName(status.st_mode)), not a regular file")
        }
        // A state with another hard link (issue 61, item 5): the lock is
        // found by name, so a second name would lock apart and run a second
        // service on the same state; and the service's atomic replace
        // would part the names anyway. Refused before a lock file is made.
        if stat(stateFile, &status) == 0, status.st_nlink > 1 {
            throw StateFileError(
                description: "cannot keep the state: \(given) has \(status.st_nlink) hard links: a service on another name "
                    + "would not see this one's lock, and a save would part the names; keep one name (copy the file for a separate state)")
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
        // A hard link planted as FILE.lock is another file's inode: writing
        // the pid would truncate that file (issue 61 item 5). The lock file
        // this service makes has one link; any other is refused untouched.
        guard status.st_nlink == 1 else {
            close(descriptor)
            throw StateFileError(
                description:
                    "cannot keep the state in \(stateFile): the lock \(lockPath) has \(status.st_nlink) links (a hard link to another file)"
            )
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            let holder = busy ? Self.holder(descriptor) : nil
            close(descriptor)
            guard busy else { throw StateFileError(description: "cannot lock \(lockPath): \(reason)") }
            throw StateFileError(
                description: "the state \(given) is in use by another service"
                    + (holder.map { " (pid \($0))" } ?? "") + ": one `\(service)` per --state (lock \(lockPath))")
        }
        // The pid is only for the message above; the lock does not depend on it.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return StateLock(descriptor: descriptor, path: lockPath, stateFile: stateFile)
    }

    /// The pid the holder wrote, when it is a number.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: maxPidBytes)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = buffer[0..<count].prefix { (0x30...0x39).contains($0) }
        return Int32(String(decoding: digits, as: UTF8.self)).flatMap { $0 > 0 ? $0 : nil }
    }

    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
