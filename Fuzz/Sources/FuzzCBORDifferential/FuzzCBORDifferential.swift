import FuzzTargets

/// libFuzzer entry point of the `cborDifferential` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBORDifferential(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.cborDifferential.entry(start, count)
}
