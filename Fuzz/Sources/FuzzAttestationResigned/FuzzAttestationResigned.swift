import FuzzTargets

/// libFuzzer entry point of the `attestationResigned` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttestationResigned(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.attestationResigned.entry(start, count)
}
