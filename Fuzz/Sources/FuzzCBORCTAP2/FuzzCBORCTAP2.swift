import FuzzTargets

/// libFuzzer entry point of the `cborCTAP2` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBORCTAP2(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.cborCTAP2.entry(start, count)
}
