#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One line for an error thrown by Foundation's file calls
/// (`FileManager.createDirectory`, `Data.write`): the path and the system's
/// reason (`/proc/x: No such file or directory`), never Foundation's
/// multi-part `Error Domain=NSCocoaErrorDomain Code=4 … UserInfo={…}` dump,
/// which is what the CLI printed before issue 41. Any other error is its
/// own description.
public enum FileErrorText {
    public static func describe(_ error: any Error) -> String {
        if let error = error as? StateFileError { return error.description }
        let bridged = error as NSError
        guard bridged.domain == NSCocoaErrorDomain || bridged.domain == NSPOSIXErrorDomain else { return "\(error)" }
        let error = bridged
        let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
        let reason = posixReason(error) ?? cocoaReason(error.code) ?? path.flatMap(diagnose) ?? fallbackReason(error)
        return path.map { "\($0): \(reason)" } ?? reason
    }

    /// The reasons of Foundation's file error codes that say one.
    static func cocoaReason(_ code: Int) -> String? {
        switch code {
        case CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue: "no such file or folder"
        case CocoaError.fileReadNoPermission.rawValue, CocoaError.fileWriteNoPermission.rawValue: "permission denied"
        case CocoaError.fileWriteFileExists.rawValue: "it already exists"
        case CocoaError.fileWriteOutOfSpace.rawValue: "no space left on the device"
        case CocoaError.fileWriteVolumeReadOnly.rawValue: "read-only file system"
        default: nil
        }
    }

    /// Why `path` could not be made when Foundation does not say (its
    /// "unknown" codes, without the system's error): the nearest existing
    /// folder above it is a file, or cannot be written.
    static func diagnose(_ path: String) -> String? {
        var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        while ancestor.path != "/" && !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
            ancestor.deleteLastPathComponent()
        }
        guard FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) else { return nil }
        if !isDirectory.boolValue { return "\(ancestor.path) is not a folder" }
        if !FileManager.default.isWritableFile(atPath: ancestor.path) { return "folder \(ancestor.path) is not writable" }
        return nil
    }

    /// The `strerror` text of the POSIX error under `error`, if there is one.
    static func posixReason(_ error: NSError) -> String? {
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(truncatingIfNeeded: error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return posixReason(underlying) }
        return nil
    }

    /// Foundation's description when it is one line and says something, else the domain and code.
    static func fallbackReason(_ error: NSError) -> String {
        let text = error.localizedDescription
        if !text.isEmpty, text != "(null)", !text.contains("\n"), !text.contains("Error Domain=") { return text }
        return "\(error.domain) error \(error.code)"
    }
}
