import BenchmarkInputs
import Foundation
import StrictCBOR

// Timing loops for Benchmarks/compare.sh. Every line of output is
// "kind name value…", read by the script:
//   cbor NAME BYTES NS_PER_DECODE            (StrictCBOR, best of 5 rounds)
//   cbor-walk NAME BYTES NS                  (decode and read every integer)
//   peak NAME BYTES KIB                      (VmHWM after one decode, own process)
//   sig NAME NS                              (one verification)
//   raw NAME NS                              (the raw ECDSA checks it must do, summed)

func decodeAndWalk(_ item: CBORItem) -> UInt64 {
    var sum: UInt64 = 0
    var stack = [item]
    while let next = stack.popLast() {
        switch next.content {
        case .unsigned(let n): sum &+= n
        case .array(let items): stack.append(contentsOf: items)
        case .map(let entries): for entry in entries { stack.append(entry.value) }
        case .tag(_, let content): stack.append(content)
        case .bytes: sum &+= UInt64(next.byteSlice?.count ?? 0)
        default: break
        }
    }
    return sum
}

func cbor(_ names: [String]) {
    for name in names {
        let bytes = Locations.payload(name)
        let decoder = CBORDecoder(mode: .wellFormed)
        let ns = Timing.nanoseconds { _ = try? decoder.decode(bytes) }
        let label = name.split(separator: "/").last.map(String.init) ?? name
        print("cbor \(label) \(bytes.count) \(ns)")
        if let item = try? decoder.decode(bytes) {
            let walk = Timing.nanoseconds(rounds: 3) { _ = decodeAndWalk(item) }
            print("cbor-walk \(label) \(bytes.count) \(ns + walk)")
        }
    }
}

/// Peak resident set (VmHWM) of this process, in KiB.
func peakKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

func peak(_ name: String) {
    let bytes = Locations.payload(name)
    let item = try? CBORDecoder(mode: .wellFormed).decode(bytes)
    print("peak \(name) \(bytes.count) \(peakKiB()) \(item == nil ? "rejected" : "decoded")")
}

/// Passes of the verification timings: each pass times the full
/// verification and then its raw checks for one round each, so both sides
/// see the same load; the best round of each side is kept.
let verificationPasses = 5

func signatures() async {
    if let assertion = AssertionWorkload() {
        guard assertion.verify(), assertion.raw.verify() else { fail("the assertion workload does not verify") }
        var (full, raw) = (Double.infinity, Double.infinity)
        for _ in 0..<verificationPasses {
            full = min(full, Timing.nanoseconds(rounds: 1) { _ = assertion.verify() })
            raw = min(raw, Timing.nanoseconds(rounds: 1) { _ = assertion.raw.verify() })
        }
        print("sig assertion \(full)")
        print("raw assertion \(raw)")
    }
    if let attestation = AttestationWorkload() {
        guard await attestation.verify() else { fail("the attestation workload does not verify") }
        guard attestation.rawChecks.allSatisfy({ $0.verify() }) else { fail("a raw signature check does not verify") }
        var full = Double.infinity
        var checks = [Double](repeating: .infinity, count: attestation.rawChecks.count)
        for _ in 0..<verificationPasses {
            full = min(full, await asyncNanoseconds(rounds: 1) { _ = await attestation.verify() })
            for (index, check) in attestation.rawChecks.enumerated() {
                checks[index] = min(checks[index], Timing.nanoseconds(rounds: 1) { _ = check.verify() })
            }
        }
        print("sig attestation \(full)")
        for (check, ns) in zip(attestation.rawChecks, checks) {
            print("raw-check \(check.label.replacingOccurrences(of: " ", with: "_")) \(ns)")
        }
        print("raw attestation \(checks.reduce(0, +))")
    }
    if let receipt = ReceiptWorkload() {
        print("sig receipt \(await asyncNanoseconds { _ = await receipt.verify() })")
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("compare-timing: \(message)\n".utf8))
    exit(1)
}

/// The best of `rounds` rounds of 0.3 s of an async body.
func asyncNanoseconds(rounds: Int = 5, _ body: () async -> Void) async -> Double {
    let clock = ContinuousClock()
    var best = Double.infinity
    for _ in 0..<rounds {
        var calls = 0
        let start = clock.now
        while clock.now - start < .milliseconds(300) {
            await body()
            calls += 1
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds / Double(calls))
    }
    return best * 1e9
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "cbor": cbor(arguments.count > 1 ? Array(arguments.dropFirst()) : Locations.cborPayloads)
case "loop":
    // For profilers: decode one payload N times (wellFormed, or the mode given).
    let bytes = Locations.payload(arguments.count > 1 ? arguments[1] : "attestation.cbor")
    let times = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
    let mode = arguments.count > 3 ? CBORMode(rawValue: arguments[3]) ?? .wellFormed : .wellFormed
    var accepted = 0
    for _ in 0..<times where (try? CBORDecoder(mode: mode).decode(bytes)) != nil { accepted += 1 }
    print("loop \(accepted)/\(times)")
case "assertion-loop", "attestation-loop":
    // For callgrind: N verifications, full or their raw signature checks alone.
    let times = arguments.count > 1 ? Int(arguments[1]) ?? 1 : 1
    let raw = arguments.count > 2 && arguments[2] == "raw"
    let verify: () async -> Bool
    if arguments[0] == "assertion-loop", let assertion = AssertionWorkload() {
        verify = { raw ? assertion.raw.verify() : assertion.verify() }
    } else if arguments[0] == "attestation-loop", let attestation = AttestationWorkload() {
        verify = { raw ? attestation.rawChecks.allSatisfy { $0.verify() } : await attestation.verify() }
    } else {
        fail("no workload for \(arguments[0])")
    }
    var verified = 0
    for _ in 0..<times where await verify() { verified += 1 }
    print("\(arguments[0]) \(verified)/\(times)")
case "peak": peak(arguments.count > 1 ? arguments[1] : "ints-10m.cbor")
case "signatures": await signatures()
case "runner":
    let inProcess = await RunnerWorkload.inProcess()
    print("runner in-process \(RunnerWorkload.vectors.count) \(inProcess.seconds) \(inProcess.passed)")
    if arguments.count > 1, let adapter = await RunnerWorkload.throughAdapter(arguments[1]) {
        print("runner adapter \(RunnerWorkload.vectors.count) \(adapter.seconds) \(adapter.passed)")
    }
default:
    print(
        "usage: compare-timing cbor [PAYLOAD…] | peak [PAYLOAD] | signatures | runner [ADAPTER-COMMAND] | assertion-loop N [raw] | attestation-loop N [raw]"
    )
}
