import FuzzTargets

/// libFuzzer entry point of the `receipt` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceipt(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.receipt.entry(start, count)
}
