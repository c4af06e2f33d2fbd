import DeviceCheckModel
import AppAttest
import ConformanceKit
import VectorContract
@testable import DeviceCheckService
import Foundation
import Testing
import TrustSuiteSupport

/// The DeviceCheck service's storage (`DeviceCheckJournal`,
/// `DeviceCheckState`): updates survive a reopen, compaction folds the
/// journal into the snapshot, and every file layout a kill can leave during
/// a compaction recovers every update.
@Suite struct DeviceCheckJournalTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An update of `device` (any token names a device of its own) at a fixed time.
    static func update(_ state: DeviceCheckState, device: Int, bit0: Bool) async throws -> Int {
        let token = Data("device-\(device)".utf8).base64EncodedString()
        let request: [String: DeviceCheckServer.Field] = [
            "device_token": .string(token), "transaction_id": .string("t"), "timestamp": .integer(1), "bit0": .bool(bit0),
        ]
        return try await state.handle(
            .updateTwoBits, request: request, team: "TEAM", authorized: true,
            at: Date(timeIntervalSince1970: 1_700_000_000)
        ).status
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

    /// 300 updates of 20 devices with a 1 KiB compaction floor: the journal
    /// is folded into the snapshot several times, stays small, and a reopen
    /// (as after a kill) has every device's last state.
    @Test func compactionKeepsEveryUpdate() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bits.json")
        let state = try DeviceCheckState(stateFile: file, compactionFloor: 1024)
        for round in 0..<15 {
            for device in 0..<20 { #expect(try await Self.update(state, device: device, bit0: (round + device) % 3 == 0) == 200) }
        }
        await state.settle()
        let expected = await state.states
        #expect(expected.count == 20)
        // 300 lines of about 90 bytes were written; compaction kept the journal near the floor.
        let snapshotBytes = Self.size(file.path), journalBytes = Self.size(file.path + ".journal")
        #expect(
            snapshotBytes > 0 && journalBytes >= 0 && journalBytes < max(1024, snapshotBytes) + 200,
            "snapshot \(snapshotBytes), journal \(journalBytes)")
        let snapshot = try JSONDecoder().decode(DeviceCheckJournal.StoredState.self, from: Data(contentsOf: file))
        #expect(snapshot.format == "trustsuite-devicecheck-state/1" && !snapshot.devices.isEmpty)
        let reopened = try DeviceCheckState(stateFile: file)
        #expect(await reopened.states == expected)
    }

    /// The layouts a kill can leave during a compaction: an old snapshot
    /// with the rotated journal and the new one (before the snapshot is
    /// replaced), or the new snapshot with the rotated journal still there
    /// (before it is removed). Each recovers the last state of every device.
    @Test func everyCompactionStepRecovers() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bits.json").path
        let old = DeviceCheckServer.State(bit0: false, bit1: false, month: "2026-01")
        let middle = DeviceCheckServer.State(bit0: true, bit1: false, month: "2026-02")
        let last = DeviceCheckServer.State(bit0: true, bit1: true, month: "2026-03")
        let rotated = DeviceCheckJournal.line(key: "a", state: middle) + DeviceCheckJournal.line(key: "b", state: middle)
        let current = DeviceCheckJournal.line(key: "a", state: last)
        let expected = ["a": last, "b": middle, "c": old]
        let layouts: [(snapshot: [String: DeviceCheckServer.State], previous: [UInt8]?, journal: [UInt8]?)] = [
            (["a": old, "b": old, "c": old], rotated, current),  // killed before the new snapshot
            (["a": middle, "b": middle, "c": old], rotated, current),  // killed before journal.1 was removed
            (["a": middle, "b": middle, "c": old], nil, current),  // killed after
            (["a": old, "b": old, "c": old], nil, rotated + current),  // killed before any compaction
        ]
        for (index, layout) in layouts.enumerated() {
            for suffix in ["", ".journal", ".journal.1"] { unlink(path + suffix) }
            _ = try DeviceCheckJournal.writeSnapshot(layout.snapshot, to: path).get()
            if let previous = layout.previous { try Data(previous).write(to: URL(fileURLWithPath: path + ".journal.1")) }
            if let journal = layout.journal { try Data(journal).write(to: URL(fileURLWithPath: path + ".journal")) }
            let (journal, states) = try DeviceCheckJournal.open(path)
            journal.closeJournal()
            #expect(states == expected, "layout \(index)")
            // The recovery folded the journals into the snapshot.
            #expect(!FileManager.default.fileExists(atPath: path + ".journal.1") && Self.size(path + ".journal") == 0, "layout \(index)")
        }
    }

    /// A last line cut short by a kill was never acknowledged: dropped. A
    /// complete line that does not parse is damage: the start is refused.
    @Test func tornTailIsDroppedDamageIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bits.json").path
        let state = DeviceCheckServer.State(bit0: true, bit1: false, month: "2026-11")
        let good = DeviceCheckJournal.line(key: "a", state: state)
        let torn = Array(DeviceCheckJournal.line(key: "b", state: state).dropLast(5))
        try Data(good + torn).write(to: URL(fileURLWithPath: path + ".journal"))
        let (journal, states) = try DeviceCheckJournal.open(path)
        journal.closeJournal()
        #expect(states == ["a": state])

        try Data(good + Array("{\"key\":\"b\"}\n".utf8) + good).write(to: URL(fileURLWithPath: path + ".journal"))
        #expect(throws: StateFileError.self) { try DeviceCheckJournal.open(path) }
    }

    /// A journal line or a snapshot whose `month` is not `YYYY-MM` is damage
    /// (issue 52, item 7): the start is refused, one line naming it, where
    /// before the month was answered back as `last_update_time`.
    @Test(arguments: ["2026-13", "2026-00", "2026-1", "26-11", "2026/11", "2026-11-01", "", "abcd-ef", "2026-1\u{0663}"])
    func aMonthThatIsNotYYYYMMIsRefused(_ month: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bits.json").path
        let bad = DeviceCheckServer.State(bit0: true, bit1: false, month: month)
        try Data(DeviceCheckJournal.line(key: "a", state: bad)).write(to: URL(fileURLWithPath: path + ".journal"))
        #expect {
            try DeviceCheckJournal.open(path)
        } throws: { error in
            "\(error)".contains("line 1 has month") && "\(error)".contains("not YYYY-MM")
        }
        try? FileManager.default.removeItem(atPath: path + ".journal")
        let snapshot = DeviceCheckJournal.StoredState(devices: ["a": bad])
        try JSONEncoder().encode(snapshot).write(to: URL(fileURLWithPath: path))
        #expect {
            try DeviceCheckJournal.open(path)
        } throws: { error in
            "\(error)".contains("not YYYY-MM")
        }
    }

    @Test func aGoodMonthLoads() throws {
        #expect(DeviceCheckJournal.isMonth("2026-11") && DeviceCheckJournal.isMonth("0001-01") && DeviceCheckJournal.isMonth("9999-12"))
    }

    /// A round-2 state file (the snapshot alone, no journal) loads as it is.
    @Test func roundTwoStateFileLoads() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bits.json").path
        let text =
            "{\"devices\":{\"TEAM\\u0000device:AAAA\":{\"bit0\":true,\"bit1\":false,\"month\":\"2025-06\"}},"
            + "\"format\":\"trustsuite-devicecheck-state/1\"}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let (journal, states) = try DeviceCheckJournal.open(path)
        journal.closeJournal()
        #expect(states == ["TEAM\u{0}device:AAAA": DeviceCheckServer.State(bit0: true, bit1: false, month: "2025-06")])
    }
}
