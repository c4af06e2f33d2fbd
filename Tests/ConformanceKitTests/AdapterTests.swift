import ConformanceKit
import Foundation
import Testing

/// The adapter runner isolates a third-party implementation: a crash, a hang
/// or a garbage line is graded `error` for that vector, the adapter is
/// restarted and the run goes on.
@Suite struct AdapterTests {
    /// A toy adapter: exits on `00`, hangs on `01`, prints garbage on `17`,
    /// answers with the wrong id on `18`, else `valid` (stderr gets a line).
    static let script = """
        import sys, json, os, time
        print(json.dumps({"adapter": "toy", "version": "0.1", "families": ["cbor", "no-such-family"]}), flush=True)
        for line in sys.stdin:
            req = json.loads(line)
            h = req["input"]["cborHex"]
            if h == "00": os._exit(3)
            if h == "01": time.sleep(30)
            if h == "17":
                print("garbage", flush=True)
                continue
            if h == "18":
                print(json.dumps({"id": "nope", "result": "valid"}), flush=True)
                continue
            print("checked " + h, file=sys.stderr, flush=True)
            print(json.dumps({"id": req["id"], "result": "invalid" if h == "ff" else "valid", "error": "bad"}), flush=True)
        """

    static func vector(_ tcId: Int, _ hex: String, _ result: ExpectedResult, family: Family = .cbor) -> Vector {
        Vector(family: family, file: "a.json", tcId: tcId, id: "t::\(tcId)", comment: "", flags: [],
               input: .object(["cborHex": .string(hex)]), result: result,
               error: result == .invalid ? "unexpectedBreak" : nil, output: nil)
    }

    static func scriptPath() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("toy-adapter-\(UUID().uuidString).py")
        try Data(script.utf8).write(to: url)
        return url.path
    }

    @Test func crashHangAndGarbageAreIsolated() async throws {
        let path = try Self.scriptPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(command: "python3 \(path)", timeout: .milliseconds(1500))
        #expect(subject.name == "toy 0.1")
        #expect(subject.families == [.cbor])
        #expect(!subject.gradesErrorCodes)
        let vectors = [
            Self.vector(1, "02", .valid), Self.vector(2, "00", .valid), Self.vector(3, "03", .valid),
            Self.vector(4, "01", .valid), Self.vector(5, "ff", .invalid), Self.vector(6, "17", .valid),
            Self.vector(7, "18", .valid), Self.vector(8, "04", .invalid), Self.vector(9, "05", .valid, family: .laRight),
            Self.vector(10, "06", .valid),
        ]
        let report = await Runner(subject: subject).run(vectors)
        await subject.stop()
        #expect(report.cases.map(\.grade) == [.pass, .error, .pass, .error, .pass, .error, .error, .fail, .unsupported, .pass])
        #expect(report.cases[1].message.contains("crashed"))
        #expect(report.cases[3].message.contains("did not answer"))
        #expect(report.cases[7].acceptedInvalid)
        #expect(await subject.stderrText().contains("checked 06"))
    }

    @Test func anAdapterThatCannotStartIsReported() async {
        await #expect(throws: AdapterError.self) { try await AdapterSubject.launch(command: "exit 1", timeout: .seconds(2)) }
        await #expect(throws: AdapterError.self) { try await AdapterSubject.launch(command: "echo hello", timeout: .seconds(2)) }
    }
}
