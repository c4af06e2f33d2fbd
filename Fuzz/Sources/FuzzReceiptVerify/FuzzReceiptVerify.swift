import FuzzTargets

/// libFuzzer entry point of the `receiptVerify` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceiptVerify(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.receiptVerify.entry(start, count)
}
