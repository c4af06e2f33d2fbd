import FuzzTargets

/// libFuzzer entry point of the `cborDeterministic` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBORDeterministic(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.cborDeterministic.entry(start, count)
}
