import FuzzTargets

/// libFuzzer entry point of the `x509Differential` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzX509Differential(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.x509Differential.entry(start, count)
}
