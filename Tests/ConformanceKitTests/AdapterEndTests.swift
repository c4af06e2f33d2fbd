import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport

/// What an adapter started dies when the runner stops it at the normal end
/// too, even a daemon that left its session and cleared its environment
/// (so it carries no token and its parent chain no longer leads to the
/// adapter): the watchdog it was reparented to kills it (issue 44, item 8).
@Suite(.timeLimit(.minutes(10))) struct AdapterEndTests {
    @Test func everyDaemonDiesWhenAHungAdapterIsStopped() async throws {
        let marker = "escaping-adapter-\(UUID().uuidString)"
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("\(marker).ready").path
        defer { try? FileManager.default.removeItem(atPath: ready) }
        let script = Locations.packageRoot.appendingPathComponent("Tests/Adapters/escaping_adapter.py").path
        let subject = try await AdapterSubject.launch(command: "python3 \(script) \(marker) \(ready)", timeout: .milliseconds(1500))
        let report = await Runner(subject: subject).run([ToyAdapter.vector(1, "02", .valid)])
        #expect(report.cases.map(\.grade) == [.error], "the adapter hangs on its first request")
        #expect(FileManager.default.fileExists(atPath: ready))
        await subject.stop()
        let left = await Waiting.gone(marker)
        #expect(left == [], "outlived the stopped adapter")
    }
}
