import FuzzTargets

/// libFuzzer entry point: `FuzzTargets.receipt` on each input (see its oracle).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceipt(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzTargets.libFuzzerEntry(start, count, name: "FuzzReceipt", FuzzTargets.receipt)
}
