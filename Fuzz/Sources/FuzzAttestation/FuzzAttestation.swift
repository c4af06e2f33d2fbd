import FuzzTargets

/// libFuzzer entry point of the `attestation` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttestation(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.attestation.entry(start, count)
}
