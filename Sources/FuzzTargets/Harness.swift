#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ConformanceKit
import Foundation
import VectorContract
import TrustSuiteSupport
import StrictCBOR

#if os(Linux)
import SecuritySimulation
#endif

/// The registry of libFuzzer harnesses: each is a folder `Fuzz/Sources/<name>`
/// holding a thin `LLVMFuzzerTestOneInput` over `run`, a seed corpus in
/// `Fuzz/Corpus/<name>`, a dictionary and committed findings in
/// `Fuzz/FailCases/<name>`. `swift test` replays the findings and seeds of
/// every case here; `Fuzz/Package.swift` builds every folder, and a test
/// checks that the folders and this list agree.
public enum Harness: String, CaseIterable, Sendable {
    case cbor = "FuzzCBOR"
    case attestation = "FuzzAttestation"
    case assertion = "FuzzAssertion"
    case receipt = "FuzzReceipt"
    case acl = "FuzzACL"
    case cborDeterministic = "FuzzCBORDeterministic"
    case cborCTAP2 = "FuzzCBORCTAP2"
    case authenticatorData = "FuzzAuthenticatorData"
    case coseKey = "FuzzCOSEKey"
    case deviceCheck = "FuzzDeviceCheck"
    case vectorFile = "FuzzVectorFile"
    case attestationVerify = "FuzzAttestationVerify"
    case attestationResigned = "FuzzAttestationResigned"
    case attestationStructured = "FuzzAttestationStructured"
    case nonceExtension = "FuzzNonceExtension"
    case receiptVerify = "FuzzReceiptVerify"
    case adapterReply = "FuzzAdapterReply"
    case keychainFlow = "FuzzKeychainFlow"
    case laRight = "FuzzLARight"
    case p256Differential = "FuzzP256Differential"
    case x509Differential = "FuzzX509Differential"
    case cborDifferential = "FuzzCBORDifferential"
    case secItemDifferential = "FuzzSecItemDifferential"

    /// An oracle: the problems found in one input (empty when fine). The
    /// verifiers are async (chain validation is); the rest run inline.
    public enum Oracle: Sendable {
        case sync(@Sendable ([UInt8]) -> [String])
        case async(@Sendable ([UInt8]) async -> [String])
    }

    /// The oracle run on each input.
    public var oracle: Oracle {
        switch self {
        case .cbor: .sync(FuzzTargets.cbor)
        case .attestation: .sync(FuzzTargets.attestation)
        case .assertion: .sync(FuzzTargets.assertion)
        case .receipt: .sync(FuzzTargets.receipt)
        case .acl: .sync(FuzzTargets.aclEvaluate)
        case .cborDeterministic: .sync(FuzzTargets.cborStrict(.deterministic))
        case .cborCTAP2: .sync(FuzzTargets.cborStrict(.ctap2))
        case .authenticatorData: .sync(FuzzTargets.authenticatorData)
        case .coseKey: .sync(FuzzTargets.coseKey)
        case .deviceCheck: .sync(FuzzTargets.deviceCheck)
        case .vectorFile: .sync(FuzzTargets.vectorFile)
        case .attestationVerify: .async(FuzzTargets.attestationVerify)
        case .attestationResigned: .async(FuzzTargets.attestationResigned)
        // The structure-aware harness's inputs come from its mutator
        // (`StructuredAttestation`); its oracle is full verification.
        case .attestationStructured: .async(FuzzTargets.attestationVerify)
        case .nonceExtension: .sync(FuzzTargets.nonceExtension)
        case .receiptVerify: .async(FuzzTargets.receiptVerify)
        case .adapterReply: .sync(FuzzTargets.adapterReply)
        case .keychainFlow: .sync(FuzzTargets.keychainFlow)
        case .laRight: .async(FuzzTargets.laRight)
        case .p256Differential: .sync(FuzzTargets.p256Differential)
        case .x509Differential: .async(FuzzTargets.x509Differential)
        #if TRUSTSUITE_LIBCBOR
        case .cborDifferential: .sync(FuzzTargets.cborDifferential)
        #else
        case .cborDifferential: .sync { _ in [Harness.libcborMissing] }
        #endif
        #if os(Linux)
        // In the simulation's session gate: the replay tests run inputs in
        // parallel with each other and with the Apple API tests, which share
        // the one simulation (a race there made the API and the model disagree).
        case .secItemDifferential: .async { bytes in await Simulation.shared.session { FuzzTargets.secItemDifferential(bytes) } }
        #else
        case .secItemDifferential: .sync { _ in [Harness.appleAPIMissing] }
        #endif
        }
    }

    static let appleAPIMissing = "FuzzSecItemDifferential needs this package's Security module, built on Linux only"

    static let libcborMissing =
        "the libcbor oracle is not built in: apt-get install libcbor-dev, then build with TRUSTSUITE_LIBCBOR=1 (.ci/run does)"

    /// Why this harness's oracle cannot run in this build (nil when it can):
    /// FuzzCBORDifferential needs libcbor, built in only with TRUSTSUITE_LIBCBOR=1.
    public var unavailableReason: String? {
        #if !os(Linux)
        if self == .secItemDifferential { return Harness.appleAPIMissing }
        #endif
        #if TRUSTSUITE_LIBCBOR
        return nil
        #else
        return self == .cborDifferential ? Harness.libcborMissing : nil
        #endif
    }

    /// Runs the oracle on `bytes` (what the replay tests call).
    public func check(_ bytes: [UInt8]) async -> [String] {
        switch oracle {
        case .sync(let run): run(bytes)
        case .async(let run): await run(bytes)
        }
    }

    /// The libFuzzer dictionary under `Fuzz/Dictionaries/`.
    public var dictionary: String {
        switch self {
        case .cbor, .attestation, .assertion, .cborDeterministic, .cborCTAP2, .authenticatorData, .coseKey,
            .attestationVerify, .attestationResigned, .attestationStructured, .cborDifferential:
            "cbor.dict"
        case .receipt, .nonceExtension, .receiptVerify, .p256Differential, .x509Differential: "der.dict"
        case .acl: "acl.dict"
        case .deviceCheck: "devicecheck.dict"
        case .vectorFile, .adapterReply: "vectors.dict"
        case .keychainFlow, .laRight: "traces.dict"
        case .secItemDifferential: "secitem.dict"
        }
    }

    /// The exit status of a harness whose oracle is not in its build
    /// (``unavailableReason``): neither libFuzzer's crash status nor a clean end.
    public static let unavailableStatus: Int32 = 3

    /// Ends a harness that cannot run in this build, on its first input,
    /// with one line on stderr and ``unavailableStatus`` (issue 61, item
    /// 10). `_exit`: libFuzzer's exit hook and its death callback never run,
    /// so no crash file is saved for an input that found nothing (before:
    /// FuzzCBORDifferential without libcbor aborted on its first input and
    /// libFuzzer kept that input as a "crash").
    package static func refuseToStart(_ name: String, _ reason: String) -> Never {
        FileHandle.standardError.write(Data("\(name): cannot run in this build: \(reason)\n".utf8))
        _exit(unavailableStatus)
    }

    /// The libFuzzer entry for this harness (what its `@_cdecl` function calls).
    public func entry(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        if let unavailableReason { Harness.refuseToStart(rawValue, unavailableReason) }
        switch oracle {
        case .sync(let run):
            return FuzzTargets.libFuzzerEntry(start, count, name: rawValue, run)
        case .async(let run):
            return FuzzTargets.libFuzzerEntry(start, count, name: rawValue, async: run)
        }
    }
}
