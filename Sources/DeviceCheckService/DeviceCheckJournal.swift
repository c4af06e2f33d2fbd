#if canImport(Glibc)
import DeviceCheckModel
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrustSuiteSupport
import Foundation

/// Where `serve devicecheck --state FILE` keeps the bits (README, "serve
/// devicecheck"; issue 22 item 4): the snapshot `FILE`, in the round-2
/// format `trustsuite-devicecheck-state/1` (so an older state file loads as
/// it is), and beside it an append-only journal `FILE.journal` with one JSON
/// line per acknowledged update: the device's key and its whole new state.
///
/// An update is acknowledged once its line is written and `fdatasync`ed;
/// updates that arrive during a sync share the next one (group commit). The
/// cost of an update is one short line, whatever the number of devices (the
/// round-3 audit measured 2.4 updates/s at 200,000 devices when every
/// update rewrote the whole file).
///
/// Compaction: once the journal outgrows the snapshot (and
/// `compactionFloor`), it is renamed `FILE.journal.1`, a new journal takes
/// the next updates, a snapshot of the states at the rename is written
/// atomically (temporary file, fsync, rename, folder fsync) off the request
/// path, and `FILE.journal.1` is removed. Recovery reads the snapshot, then
/// `FILE.journal.1`, then `FILE.journal`: every line holds a whole state, so
/// replaying a line the snapshot already holds changes nothing, and a kill
/// at any step loses no acknowledged update. A final line without its
/// newline is a write the kill cut short (never acknowledged) and is
/// dropped; any other line that does not parse refuses the start.
///
/// Why a journal and not SQLite (GRDB.swift or sqlite-nio, both on this
/// machine): the model keeps every state in memory anyway (it is the
/// `devicecheck` vectors' model, no second one), so storage only has to make
/// changes durable and be read back at start; a journal does that with one
/// `write` and one `fdatasync` per batch, keeps the round-2 snapshot format
/// readable with any JSON tool, needs no migration of existing state files
/// and adds no C library or build time to the package.
struct DeviceCheckJournal {
    /// Largest snapshot or journal read at start: a wrong `--state` (a disk
    /// image, a log) would otherwise be read into memory whole.
    static let maxFileBytes = 1 << 30
    /// Journal bytes below which no compaction is started, however small the
    /// snapshot: bounds the rewrite rate while the service holds few devices.
    static let defaultCompactionFloor = 8 << 20

    let snapshot: String
    var journal: String { snapshot + ".journal" }
    var previousJournal: String { snapshot + ".journal.1" }
    private var folder: String {
        (snapshot as NSString).deletingLastPathComponent.isEmpty ? "." : (snapshot as NSString).deletingLastPathComponent
    }
    let compactionFloor: Int
    /// The open journal (append only) and the bytes in it.
    private(set) var descriptor: Int32 = -1
    private(set) var journalBytes = 0
    /// Size of the last snapshot written or read.
    private(set) var snapshotBytes = 0

    /// The snapshot file's JSON (round-2 format, unchanged).
    struct StoredState: Codable {
        static let currentFormat = "trustsuite-devicecheck-state/1"
        var format = currentFormat
        var devices: [String: DeviceCheckServer.State]
    }

    /// One journal line: `{"key":…,"state":{"bit0":…,"bit1":…,"month":"YYYY-MM"}}`.
    struct Record: Codable {
        var key: String
        var state: DeviceCheckServer.State
    }

    /// Recovers the states kept at `path` and opens the journal for new
    /// updates. Refuses, with one line, a path that is not a regular file
    /// (directory, FIFO, device), a missing folder, and a journal line that
    /// does not parse.
    static func open(_ path: String, compactionFloor: Int = defaultCompactionFloor)
        throws(StateFileError) -> (journal: DeviceCheckJournal, states: [String: DeviceCheckServer.State])
    {
        var journal = DeviceCheckJournal(snapshot: path, compactionFloor: compactionFloor)
        var folderStatus = stat()
        guard stat(journal.folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
            throw StateFileError(description: "cannot keep the state in \(path): folder \(journal.folder) does not exist")
        }
        var states: [String: DeviceCheckServer.State] = [:]
        if let bytes = try read(path) {
            let stored: StoredState
            do {
                stored = try JSONDecoder().decode(StoredState.self, from: Data(bytes))
            } catch {
                throw StateFileError(description: "\(path) is not a DeviceCheck state file: \(error)")
            }
            // Another format (a later version's, another tool's file with a
            // `devices` member) is refused, not read as this one and rewritten.
            guard stored.format == StoredState.currentFormat else {
                throw StateFileError(
                    description: "\(path) is a state file of format \"\(stored.format.prefix(80))\", "
                        + "not \(StoredState.currentFormat): refusing to read or rewrite it")
            }
            if let bad = stored.devices.values.first(where: { !isMonth($0.month) }) {
                throw StateFileError(
                    description: "\(path) has a device whose month is \(JSONValue.string(String(bad.month.prefix(40))).jsonText), "
                        + "not YYYY-MM: the state is damaged")
            }
            states = stored.devices
            journal.snapshotBytes = bytes.count
        }
        var journalsFound = false
        for file in [journal.previousJournal, journal.journal] {
            guard let bytes = try read(file) else { continue }
            try replay(bytes, from: file, into: &states)
            journalsFound = true
        }
        // Fold what was replayed into a new snapshot (and write a first one),
        // so the journals start empty; this also proves the folder writable.
        if journalsFound || journal.snapshotBytes == 0 {
            journal.snapshotBytes = try writeSnapshot(states, to: path).get()
            for file in [journal.previousJournal, journal.journal] { unlink(file) }
            try syncFolder(journal.folder)
        }
        AtomicFile.removeStaleTemporaries(in: URL(fileURLWithPath: journal.folder), named: (path as NSString).lastPathComponent)
        journal.descriptor = try openForAppend(journal.journal)
        try syncFolder(journal.folder)
        return (journal, states)
    }

    /// The bytes of a regular file, nil when it does not exist.
    private static func read(_ path: String) throws(StateFileError) -> [UInt8]? {
        do {
            return try RegularFile.read(path, limit: maxFileBytes)
        } catch  where error.kind == .missing {
            return nil
        } catch {
            throw StateFileError(description: "cannot keep the state: \(error.description)")
        }
    }

    /// Applies each complete line of a journal.
    static func replay(_ bytes: [UInt8], from file: String, into states: inout [String: DeviceCheckServer.State])
        throws(StateFileError)
    {
        let decoder = JSONDecoder()
        var count = 0
        var start = 0
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            count += 1
            guard let record = try? decoder.decode(Record.self, from: Data(bytes[start..<end])) else {
                throw StateFileError(description: "\(file) line \(count) is not a journal record: the state is damaged")
            }
            guard isMonth(record.state.month) else {
                throw StateFileError(
                    description: "\(file) line \(count) has month \(JSONValue.string(String(record.state.month.prefix(40))).jsonText), "
                        + "not YYYY-MM: the state is damaged")
            }
            states[record.key] = record.state
            start = end + 1
        }
    }

    /// Whether `text` is a month as the service writes it, `YYYY-MM` (four
    /// digits, a hyphen, 01 to 12): what `last_update_time` answers, so a
    /// state read back must hold nothing else (issue 52 item 7).
    static func isMonth(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == 0x2D,
            bytes[0..<4].allSatisfy({ (0x30...0x39).contains($0) }), bytes[5...].allSatisfy({ (0x30...0x39).contains($0) })
        else { return false }
        let month = Int(bytes[5] - 0x30) * 10 + Int(bytes[6] - 0x30)
        return (1...12).contains(month)
    }

    /// The journal line for one device's new state.
    static func line(key: String, state: DeviceCheckServer.State) -> [UInt8] {
        let record = Record(key: key, state: state)
        return Array((try? JSONEncoder().encode(record)) ?? Data()) + [0x0A]
    }

    /// Appends a batch of lines and waits until they are on disk.
    static func append(_ bytes: [UInt8], to descriptor: Int32, path: String) -> Result<Void, StateFileError> {
        guard writeAll(descriptor, bytes) else { return .failure(systemError("cannot write", path)) }
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { return .failure(systemError("cannot flush", path)) }
        }
        return .success(())
    }

    mutating func appended(_ count: Int) { journalBytes += count }

    /// True when the journal has outgrown the snapshot: time to compact.
    var wantsCompaction: Bool { journalBytes > max(compactionFloor, snapshotBytes) }

    /// Starts a compaction: the journal becomes `FILE.journal.1` and a new
    /// one takes the next updates. Call only when no compaction is running.
    mutating func rotate() throws(StateFileError) {
        if access(previousJournal, F_OK) == 0 {
            // A failed compaction left it: its lines are still needed, so the
            // current journal keeps growing until a snapshot covers both.
            return
        }
        guard rename(journal, previousJournal) == 0 else { throw Self.systemError("cannot rename", journal) }
        let fresh = try Self.openForAppend(journal)
        Glibc.close(descriptor)
        descriptor = fresh
        journalBytes = 0
        try Self.syncFolder(folder)
    }

    /// Ends a compaction whose snapshot holds every line of `FILE.journal.1`.
    mutating func compacted(snapshotBytes bytes: Int) throws(StateFileError) {
        snapshotBytes = bytes
        unlink(previousJournal)
        try Self.syncFolder(folder)
    }

    /// Writes the snapshot atomically and makes the rename durable; returns its size.
    static func writeSnapshot(_ states: [String: DeviceCheckServer.State], to path: String) -> Result<Int, StateFileError> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let bytes = try encoder.encode(StoredState(devices: states))
            try AtomicFile.write(bytes, to: URL(fileURLWithPath: path))
            let folder = (path as NSString).deletingLastPathComponent
            try syncFolder(folder.isEmpty ? "." : folder)
            return .success(bytes.count)
        } catch let error as StateFileError {
            return .failure(error)
        } catch {
            return .failure(StateFileError(description: "cannot encode the state: \(error)"))
        }
    }

    func closeJournal() {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    private static func openForAppend(_ path: String) throws(StateFileError) -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
        guard descriptor >= 0 else { throw systemError("cannot create", path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw StateFileError(description: "cannot keep the state in \(path): not a regular file")
        }
        return descriptor
    }

    /// fsync of a folder: makes a rename, creation or removal in it durable.
    private static func syncFolder(_ folder: String) throws(StateFileError) {
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw systemError("cannot open folder", folder) }
        defer { Glibc.close(descriptor) }
        guard fsync(descriptor) == 0 else { throw systemError("cannot flush folder", folder) }
    }

    private static func systemError(_ what: String, _ path: String) -> StateFileError {
        StateFileError(description: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
