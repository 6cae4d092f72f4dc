/// Where the tasks that the kernel and its plugins start apart from their caller run: a
/// sign-in or a token refresh that concurrent sends share, a batch's send, a download that
/// concurrent readers share.
///
/// Swift puts a `Task { }` on its global pool, whatever executor the task that made it
/// preferred. A host that runs a runtime's work on an executor of its own sets `executor`
/// around that work, and these tasks follow it: ferry-sim runs each simulated world on one
/// thread, so that a seed's sends interleave the same way every time. Unset, as in every
/// `ferry` command, they run where `Task { }` would.
public enum TaskPlacement {
    /// The executor for tasks started apart from their caller; nil for Swift's global pool.
    @TaskLocal public static var executor: (any TaskExecutor)?
}

extension Task where Failure == any Error {
    /// Starts `operation` apart from the caller, on ``TaskPlacement/executor`` when one is set.
    @discardableResult
    public static func apart(_ operation: sending @escaping () async throws -> Success) -> Task<Success, any Error> {
        Task(executorPreference: TaskPlacement.executor, operation: operation)
    }
}

extension Task where Failure == Never {
    /// Starts `operation` apart from the caller, on ``TaskPlacement/executor`` when one is set.
    @discardableResult
    public static func apart(_ operation: sending @escaping () async -> Success) -> Task<Success, Never> {
        Task(executorPreference: TaskPlacement.executor, operation: operation)
    }
}
