import FuzzTargets

/// libFuzzer entry point of the `p256Differential` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzP256Differential(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.p256Differential.entry(start, count)
}
