#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR;
/// false on an error, with `errno` set (the adapter runner's pipes and the
/// atomic state files both use it).
public func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
            write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
        }
        if written < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += written
    }
    return true
}

/// Errors of the state-file helpers, with the path and the system's reason.
public struct StateFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ what: String, _ path: String) {
        description = "\(what) \(path): \(String(cString: strerror(errno)))"
    }

    public init(description: String) { self.description = description }
}

/// Files that must never be seen half-written: the bytes go to a temporary
/// file in the same folder, are flushed to disk, and the temporary file is
/// renamed over the target (rename is atomic within a file system), so a
/// reader — or a restart after the writer was killed — sees the old file or
/// the new one, never a mix.
public enum AtomicFile {
    /// - Parameter exclusive: create the file only if it does not exist
    ///   (the complete temporary file is hard-linked to the target, which
    ///   fails if it exists: of concurrent creators exactly one wins).
    public static func write(_ bytes: some Collection<UInt8>, to url: URL, exclusive: Bool = false) throws {
        let target = url.path
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StateFileError("cannot create", temporary) }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        // The error is made before close(), which may change errno.
        guard writeAll(descriptor, Array(bytes)) else {
            let error = StateFileError("cannot write", temporary)
            close(descriptor)
            throw error
        }
        guard fsync(descriptor) == 0 else {
            let error = StateFileError("cannot flush", temporary)
            close(descriptor)
            throw error
        }
        close(descriptor)
        if exclusive {
            guard link(temporary, target) == 0 else {
                if errno == EEXIST { throw StateFileError(description: "\(target) already exists") }
                throw StateFileError("cannot create", target)
            }
            unlink(temporary)
        } else {
            guard rename(temporary, target) == 0 else { throw StateFileError("cannot replace", target) }
        }
        ok = true
    }

    /// Removes the temporary files a killed writer left in `folder` (named
    /// `.NAME.PID.RANDOM.tmp`, mode 0600): those whose writer is no longer
    /// running. Called when a state folder is opened. With `named`, only the
    /// temporaries of that file (for a folder the caller does not own).
    public static func removeStaleTemporaries(in folder: URL, named: String? = nil) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".\(named.map { $0 + "." } ?? "")") && name.hasSuffix(".tmp") {
            let parts = name.split(separator: ".")
            guard parts.count >= 4, let pid = pid_t(parts[parts.count - 3]) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }
}

/// An exclusive advisory lock on a file (flock), held from `init` until
/// `unlock()` or the process ends: serialises read-modify-write of a state
/// file between processes (two `trustsuite device assert` at once).
public final class FileLock {
    private var descriptor: Int32

    /// Blocks until the lock on `url` (created if missing) is held. A
    /// symbolic link or anything but a regular file at `url` is refused, not
    /// followed (issue 44 item 9: `keys/.lock` planted as a link made the
    /// device create or lock whatever file it named).
    public init(_ url: URL) throws {
        descriptor = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw StateFileError(description: "cannot open lock \(url.path): it is a symbolic link") }
            throw StateFileError("cannot open lock", url.path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw StateFileError(description: "cannot open lock \(url.path): not a regular file")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw StateFileError("cannot lock", url.path)
            }
        }
    }

    public func unlock() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { unlock() }

    /// Runs `body` holding the lock on `url`.
    public static func withLock<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        let lock = try FileLock(url)
        defer { lock.unlock() }
        return try body()
    }
}
