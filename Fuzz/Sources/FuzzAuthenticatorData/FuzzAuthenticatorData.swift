import FuzzTargets

/// libFuzzer entry point of the `authenticatorData` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthenticatorData(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.authenticatorData.entry(start, count)
}
