/// The outcome of `body`, success or failure, for tests that race two calls.
func attempt<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
