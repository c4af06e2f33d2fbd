import FuzzTargets

/// libFuzzer entry point: `FuzzTargets.attestation` on each input (see its oracle).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttestation(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzTargets.libFuzzerEntry(start, count, name: "FuzzAttestation", FuzzTargets.attestation)
}
