import AuthPlugin
import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting

/// A real FerryServer on loopback and a runtime with the auth plugin, each with its own clock.
struct AuthHarness {
    let server: RunningFerryServer
    let serverClock: ServerClock
    let test: TestRuntime
    let folder: URL

    var auth: AuthPlugin { get throws { try test.runtime.plugin(AuthPlugin.self) } }

    static func make(
        extraYAML: String = "",
        plugins: [any SyncPlugin.Type] = [AuthPlugin.self],
        auth: String = "{}"
    ) async throws -> AuthHarness {
        let serverClock = ServerClock(now: Date())
        let server = try await DemoFerryServer.start(clock: serverClock)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-auth-\(UUID().uuidString)")
        let yaml = "data_dir: \(folder.path)\nplugins:\n  auth: \(auth)\n" + extraYAML
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: plugins,
            clock: TestClock(now: Date())
        )
        return AuthHarness(server: server, serverClock: serverClock, test: test, folder: folder)
    }

    /// Ends `session` on the server, as another device's logout would, and has the plugin
    /// find out; false if it did not see the session end.
    func endOnTheServer(_ session: Session) async throws -> Bool {
        _ = try await HTTPTransport(baseURL: server.baseURL).send(
            HTTPRequest(
                "POST",
                "/v1/auth/logout",
                headers: [("Authorization", "Bearer \(session.accessToken ?? "")")],
                authenticated: false
            )
        )
        guard case .ended = try await auth.verify() else { return false }
        return true
    }

    /// Requests the server received for `route` (e.g. "POST /v1/auth/refresh").
    func received(_ route: String) async throws -> Int {
        try await server.requestCounts().requests[route, default: 0]
    }

    func finish() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
