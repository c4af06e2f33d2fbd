import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// A toy adapter whose behaviour is chosen by each vector's `cborHex`, and
/// helpers to run it.
enum ToyAdapter {
    /// Behaviours: `00` exit 3, `0e` SIGSEGV, `01` hang, `17` garbage line,
    /// `18` wrong id, `0d` answer twice, `0b` a 4 MiB reply, `0c` a 3 MiB
    /// reply (over a 2 MiB limit), `0a` 1.5 MiB of stderr then a marker line,
    /// `ff` invalid, `0f` a wrong output, else valid. Each case writes one
    /// stderr line naming its input. Arguments: `--ignore-term` (ignores
    /// SIGTERM and stdin closing, and starts a sleeper grandchild),
    /// `--grade-outputs`, `--families a,b`.
    static let script = """
        import sys, json, os, time, signal, subprocess
        args = sys.argv[1:]
        marker = args[0]
        families = ["cbor", "no-such-family"]
        if "--families" in args: families = args[args.index("--families") + 1].split(",")
        hello = {"adapter": "toy", "version": "0.1", "families": families}
        if "--grade-outputs" in args: hello["gradeOutputs"] = True
        sleeper = [sys.executable, "-c", "import time, signal; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)", marker]
        if "--setsid-daemon" in args:
            # The classic daemon: fork, setsid, fork again; the grandchild leaves group and session.
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0: os.execv(sys.executable, sleeper)
                os._exit(0)
        if "--setpgid-child" in args:
            subprocess.Popen(sleeper, preexec_fn=lambda: os.setpgid(0, 0))
        if "--ignore-term" in args:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            subprocess.Popen([sys.executable, "-c", "import time, signal; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)", marker])
        print(json.dumps(hello), flush=True)
        def reply(req, result, **extra):
            print(json.dumps(dict({"id": req["id"], "result": result}, **extra)), flush=True)
        for line in sys.stdin:
            req = json.loads(line)
            h = req["input"]["cborHex"]
            print("case " + h, file=sys.stderr, flush=True)
            if h == "00": os._exit(3)
            if h == "0e": os.kill(os.getpid(), signal.SIGSEGV)
            if h == "01": time.sleep(600)
            if h == "17": print("garbage", flush=True); continue
            if h == "18": print(json.dumps({"id": "nope", "result": "valid"}), flush=True); continue
            if h == "0d": reply(req, "valid"); reply(req, "valid"); continue
            if h == "0b": reply(req, "valid", output={"diagnostic": "x" * (4 << 20)}); continue
            if h == "0c": reply(req, "valid", output={"diagnostic": "x" * (3 << 20)}); continue
            if h == "0a":
                sys.stderr.write(("y" * 1023 + "\\n") * 1536)
                print("last stderr line", file=sys.stderr, flush=True)
            if h == "0f": reply(req, "valid", output={"diagnostic": "wrong"}); continue
            reply(req, "invalid" if h == "ff" else "valid", error="bad")
        if "--ignore-term" in args: time.sleep(600)
        """

    /// Writes the script to a fresh file whose path carries a unique marker.
    static func install() throws -> (path: String, marker: String) {
        let marker = "toy-adapter-\(UUID().uuidString)"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(marker).py")
        try Data(script.utf8).write(to: url)
        return (url.path, marker)
    }

    static func vector(
        _ tcId: Int, _ hex: String, _ result: ExpectedResult, family: Family = .cbor,
        output: JSONValue? = nil
    ) -> Vector {
        Vector(
            family: family, file: "a.json", tcId: tcId, id: "t::\(tcId)", comment: "", flags: [],
            input: .object(["cborHex": .string(hex)]), result: result,
            error: result == .invalid ? "unexpectedBreak" : nil, output: output)
    }
}

/// The adapter runner isolates a third-party implementation: a crash, a hang
/// or a garbage line is graded `error` for that vector, with the exit status
/// or signal and that case's stderr; the adapter is restarted and the run
/// goes on; no adapter process outlives the run.
@Suite(.serialized) struct AdapterTests {
    @Test func crashHangAndGarbageAreIsolated() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker)", timeout: .seconds(3))
        #expect(subject.name == "toy 0.1")
        #expect(subject.families == [.cbor])
        #expect(subject.unknownFamilies == ["no-such-family"])
        #expect(!subject.gradesErrorCodes)
        let vectors = [
            ToyAdapter.vector(1, "02", .valid), ToyAdapter.vector(2, "00", .valid), ToyAdapter.vector(3, "03", .valid),
            ToyAdapter.vector(4, "01", .valid), ToyAdapter.vector(5, "ff", .invalid), ToyAdapter.vector(6, "17", .valid),
            ToyAdapter.vector(7, "18", .valid), ToyAdapter.vector(8, "04", .invalid),
            ToyAdapter.vector(9, "05", .valid, family: .laRight), ToyAdapter.vector(10, "06", .valid),
            ToyAdapter.vector(11, "0e", .valid),
        ]
        let report = await Runner(subject: subject).run(vectors)
        await subject.stop()
        #expect(report.unknownFamilies == ["no-such-family"])
        #expect(Reports.scorecard(report).contains("this suite does not know, so none of their vectors ran: no-such-family"))
        #expect(Reports.json(report).contains("\"unknownFamilies\""))
        #expect(report.cases.map(\.grade) == [.pass, .error, .pass, .error, .pass, .error, .error, .fail, .unsupported, .pass, .error])
        #expect(report.cases[1].message.contains("exited with status 3"), "\(report.cases[1].message)")
        #expect(report.cases[10].message.contains("signal 11 (SIGSEGV)"), "\(report.cases[10].message)")
        #expect(report.cases[3].message.contains("did not answer"))
        #expect(report.cases[7].acceptedInvalid)
        // Each case carries its own stderr, not the tail of everything so far.
        #expect(report.cases[1].stderr == "case 00\n")
        #expect(report.cases[2].stderr == "case 03\n")
        #expect(report.cases[10].stderr == "case 0e\n")
        // Restarted after 00, 01, 17 and 18; the run ends at 0e.
        #expect(await subject.restarts() == 4)
        #expect(await subject.stderrText().contains("case 06"))
    }

    @Test func noAdapterProcessOutlivesTheRun() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Through a nested shell, ignoring SIGTERM and stdin closing, with a
        // grandchild that ignores SIGTERM too, and hung on the last vector.
        let command = "sh -c 'python3 \(path) \(marker) --ignore-term'"
        let subject = try await AdapterSubject.launch(command: command, timeout: .milliseconds(2500))
        #expect(!Processes.mentioning(marker).isEmpty, "the adapter and its sleeper run")
        let report = await Runner(subject: subject).run([
            ToyAdapter.vector(1, "02", .valid), ToyAdapter.vector(2, "01", .valid),
            ToyAdapter.vector(3, "03", .valid),
        ])
        #expect(report.cases.map(\.grade) == [.pass, .error, .pass])
        await subject.stop()
        #expect(Processes.mentioning(marker) == [])
    }

    /// Descendants that leave the adapter's process group (`setpgid`) or its
    /// session (`setsid`, double fork) are killed with it (the audit found 4
    /// such daemons alive after two runs).
    @Test(arguments: ["--setsid-daemon", "--setpgid-child"])
    func escapedDescendantsAreKilled(_ escape: String) async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(command: "python3 \(path) \(marker) \(escape)", timeout: .milliseconds(2500))
        let report = await Runner(subject: subject).run([ToyAdapter.vector(1, "02", .valid)])
        #expect(report.cases.map(\.grade) == [.pass])
        let deadline = ContinuousClock.now + .seconds(5)
        while Processes.mentioning(marker).count < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(Processes.mentioning(marker).count >= 2, "the adapter and its escaped sleeper run: \(Processes.mentioning(marker))")
        await subject.stop()
        #expect(Processes.mentioning(marker) == [])
    }

    @Test func aDoubledReplyIsNotTakenForTheNextVector() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker)", timeout: .seconds(5))
        // The second reply to vector 1 says "valid"; vector 2's own answer is "invalid".
        let report = await Runner(subject: subject).run([
            ToyAdapter.vector(1, "0d", .valid), ToyAdapter.vector(2, "ff", .invalid),
            ToyAdapter.vector(3, "02", .valid),
        ])
        await subject.stop()
        #expect(report.cases.map(\.grade) == [.pass, .pass, .pass])
        #expect(report.cases[1].answer?.verdict == .invalid)
        #expect(await subject.restarts() == 0)
    }

    @Test(.timeLimit(.minutes(10))) func longRepliesAreReadAndOverlongOnesAreRefused() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(
            command: "exec python3 \(path) \(marker)", timeout: .seconds(5),
            maxLineBytes: 2 << 20)
        let report = await Runner(subject: subject).run([ToyAdapter.vector(1, "0c", .valid), ToyAdapter.vector(2, "02", .valid)])
        await subject.stop()
        #expect(report.cases[0].grade == .error)
        #expect(report.cases[0].message.contains("reply too long"), "\(report.cases[0].message)")
        #expect(report.cases[1].grade == .pass)

        let roomy = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker)", timeout: .seconds(5))
        let big = await Runner(subject: roomy).run([ToyAdapter.vector(1, "0b", .valid)])
        await roomy.stop()
        #expect(big.cases[0].grade == .pass, "\(big.cases[0].message)")
        // Read whole and graded (pass); what the run keeps of it is the marked cut (issue 44: bounded reports).
        let kept = big.cases[0].answer?.output?.stringValue ?? ""
        let size = Int(kept.split(separator: " ").dropFirst(2).first ?? "") ?? 0
        #expect(kept.hasPrefix("[output of ") && size > 4 << 20, "\(kept)")
    }

    /// Reading a line is linear in its length (issue 44): a 4 MiB line fed
    /// in 4 KiB chunks has each byte searched for its newline once.
    /// Counted, not timed (the case above reads one through a real pipe).
    @Test func aLongLineIsSearchedOnce() {
        let channel = LineChannel(maxLineBytes: 8 << 20)
        let line = [UInt8](repeating: 0x78, count: 4 << 20) + [0x0A]
        var offset = 0
        while offset < line.count {
            channel.feed(line[offset..<min(offset + 4096, line.count)])
            offset += 4096
        }
        #expect(channel.poll() == .line(String(repeating: "x", count: 4 << 20)))
        #expect(channel.bytesScanned == line.count, "\(channel.bytesScanned) bytes searched for \(line.count)")
    }

    @Test func stderrKeepsTheMostRecentOutput() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker)", timeout: .seconds(5))
        let report = await Runner(subject: subject).run([ToyAdapter.vector(1, "0a", .valid), ToyAdapter.vector(2, "03", .valid)])
        await subject.stop()
        #expect(report.cases.map(\.grade) == [.pass, .pass])
        let kept = await subject.stderrText()
        #expect(kept.contains("last stderr line"))
        #expect(kept.hasSuffix("case 03\n"))
        #expect(report.cases[1].stderr == "case 03\n")
    }

    @Test func outputsAreGradedOnlyWhenTheAdapterAsks() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected: JSONValue = .object(["diagnostic": .string("1")])
        let vectors = [ToyAdapter.vector(1, "0f", .valid, output: expected), ToyAdapter.vector(2, "02", .valid, output: expected)]
        let shown = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker)")
        let lenient = await Runner(subject: shown).run(vectors)
        await shown.stop()
        #expect(!shown.gradesOutputs)
        #expect(lenient.cases.map(\.grade) == [.pass, .pass])
        #expect(lenient.cases[0].answer?.output?["diagnostic"]?.stringValue == "wrong")

        let graded = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker) --grade-outputs")
        let strict = await Runner(subject: graded).run(vectors)
        await graded.stop()
        #expect(graded.gradesOutputs)
        #expect(strict.cases.map(\.grade) == [.fail, .fail])
        #expect(strict.cases[0].message.contains("diagnostic"))
        #expect(strict.cases[1].message.contains("missing"))
    }

    @Test func aRunThatGradedNothingIsNotAPass() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker) --families keychain-acl")
        let report = await Runner(subject: subject).run([ToyAdapter.vector(1, "02", .valid)])
        await subject.stop()
        #expect(report.cases.map(\.grade) == [.unsupported])
        #expect(report.exitCode == 1)
        #expect(Reports.scorecard(report).contains("NOTHING TESTED"))
        #expect(await Runner(subject: subject).run([]).exitCode == 1)
    }

    @Test func anAdapterThatCannotStartIsReported() async {
        await #expect(throws: AdapterError.self) { try await AdapterSubject.launch(command: "exit 1", timeout: .seconds(2)) }
        await #expect(throws: AdapterError.self) { try await AdapterSubject.launch(command: "echo hello", timeout: .seconds(2)) }
        await #expect(throws: AdapterError.self) { try await AdapterSubject.launch(command: "sleep 30", timeout: .milliseconds(300)) }
    }
}

/// The hello is read as the contract's `AdapterHello`: a first line of the
/// wrong shape is refused, saying which field is wrong.
@Suite struct AdapterHelloTests {
    @Test(arguments: [
        (#"{"version": "1", "families": ["cbor"]}"#, "no \"adapter\""),
        (#"{"adapter": "x", "version": 1, "families": ["cbor"]}"#, "\"version\" has the wrong type"),
        (#"{"adapter": "x", "families": "cbor"}"#, "\"families\" has the wrong type"),
    ])
    func aHelloOfTheWrongShapeIsRefused(_ hello: String, _ problem: String) async throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("hello-\(UUID().uuidString).py")
        try Data("import sys\nprint(sys.argv[1], flush=True)\nsys.stdin.readline()\n".utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let quoted = "'" + hello.replacingOccurrences(of: "'", with: "'\\''") + "'"
        do {
            let subject = try await AdapterSubject.launch(command: "exec python3 \(script.path) \(quoted)")
            await subject.stop()
            Issue.record("the hello \(hello) was taken")
        } catch {
            #expect("\(error)".contains(problem), "\(error)")
        }
    }
}
