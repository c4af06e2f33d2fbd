import FuzzTargets

/// libFuzzer entry point of the `attestationVerify` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttestationVerify(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.attestationVerify.entry(start, count)
}
