import ConformanceKit

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

    /// The oracle run on each input: the problems found (empty when fine).
    public var run: @Sendable ([UInt8]) -> [String] {
        switch self {
        case .cbor: FuzzTargets.cbor
        case .attestation: FuzzTargets.attestation
        case .assertion: FuzzTargets.assertion
        case .receipt: FuzzTargets.receipt
        case .acl: FuzzTargets.aclEvaluate
        }
    }

    /// The vector family whose inputs seed this harness.
    public var family: Family {
        switch self {
        case .cbor: .cbor
        case .attestation: .appAttestAttestation
        case .assertion: .appAttestAssertion
        case .receipt: .appAttestReceipt
        case .acl: .keychainACL
        }
    }

    /// The libFuzzer dictionary under `Fuzz/Dictionaries/`.
    public var dictionary: String {
        switch self {
        case .cbor, .attestation, .assertion: "cbor.dict"
        case .receipt: "der.dict"
        case .acl: "acl.dict"
        }
    }

    /// The libFuzzer entry for this harness (what its `@_cdecl` function calls).
    public func entry(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        FuzzTargets.libFuzzerEntry(start, count, name: rawValue, run)
    }
}
