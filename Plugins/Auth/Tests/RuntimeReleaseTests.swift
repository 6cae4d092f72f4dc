import AuthPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// A runtime let go lets go of everything it built: the auth plugin, which signs in for
/// every transport, and its own transport, which asks it for credentials, held each other.
@Suite struct RuntimeReleaseTests {
    @Test func aRuntimeLetGoFreesItsPluginsAndTheirTransports() async throws {
        weak var executor: RecordingExecutor?
        do {
            let recording = RecordingExecutor()
            executor = recording
            let test = try await TestRuntime.make(
                server: "http://127.0.0.1:9",
                yaml: "plugins:\n  auth: {}\n",
                plugins: [AuthPlugin.self],
                executor: recording
            )
            _ = try await test.runtime.transport(for: "auth")?.send(HTTPRequest("GET", "/v1/auth/me"))
        }
        #expect(executor == nil, "the executor, and the transports that hold it, stayed in memory")
    }
}
