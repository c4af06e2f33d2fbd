import ConformanceKit
import Foundation
import Testing
import TestSupport

/// Whether python3 can import cbor2.
let cbor2Available: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "python3 -c 'import cbor2' 2>/dev/null"]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

/// A real third-party decoder (Python cbor2, installed by .ci/run) behind the
/// adapter protocol: every cbor vector gets a verdict, none errors.
@Suite(.enabled(if: cbor2Available, "python3 with cbor2 not found (pip install cbor2)"))
struct ThirdPartyAdapterTests {
    @Test func cbor2GetsAScorecard() async throws {
        let script = Locations.packageRoot.appendingPathComponent("Tests/Adapters/cbor2_adapter.py").path
        let subject = try await AdapterSubject.launch(command: "python3 \(script)")
        #expect(subject.adapterName == "cbor2")
        #expect(subject.families == [.cbor])
        let vectors = FixtureVectors.cases(.cbor).map(\.vector)
        let report = await Runner(subject: subject).run(vectors)
        await subject.stop()
        #expect(report.cases.count == vectors.count)
        #expect(report.count(.error) == 0, "adapter protocol errors: \(report.cases.filter { $0.grade == .error }.prefix(3).map(\.message))")
        #expect(report.count(.pass) > vectors.count / 2)
        // cbor2 does not enforce shortest form: the scorecard must show it.
        #expect(report.cases.contains { $0.acceptedInvalid && $0.vector.error == "nonMinimalEncoding" })
    }
}
