/// Runs `work` in a new task: the completion-handler forms of the LARight
/// family over their async forms. Apple declares neither the handlers nor
/// these classes `Sendable`, so `work` (which holds the handler, `self` and
/// the arguments) is not either: it is handed to the one task and touched
/// by it alone, as Apple's framework calls a handler once on its own queue.
func inTask(_ work: @escaping () async -> Void) {
    nonisolated(unsafe) let work = work
    Task { await work() }
}
