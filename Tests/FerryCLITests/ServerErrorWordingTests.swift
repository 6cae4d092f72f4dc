import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// A server error is a server error: never called "offline", and the kernel's warning about
/// it is a plain sentence, not a timestamped log line.
@Suite("server errors in messages", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct ServerErrorWordingTests {
    @Test func aFailedPullOn500IsSaidOnceAndNeverCalledOffline() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            "data_dir: data\nserver: \(server.baseURL)\nlog_level: warning\nplugins:\n  auth: {}\n  recipes: {}\n"
        )
        let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
        try #require(login.status == 0, "\(login.error)")
        server.setFaults(FaultSettings(failNext: .init(kind: .internalError, count: 1000), pathPrefix: "/v1/recipes"))

        let run = try await ferry.run(["run", "--once"])
        #expect(run.status == 1, "\(run.output)\(run.error)")
        #expect(run.output.contains("recipes: pull failed: 500"), "\(run.output)")
        let said = (run.output + run.error).components(separatedBy: "pull failed").count - 1
        #expect(said == 1, "the failed pull is said once: \(run.output)\(run.error)")
        #expect(!run.error.contains("[SyncKernel]") && !run.error.contains(" warning ferry:"), "\(run.error)")
        #expect(!run.output.contains("offline") && !run.error.contains("offline"), "\(run.output)\(run.error)")
        await server.stop()
    }

    @Test func familyReadsWithoutACacheSayTheServerFailedNotThatAConnectionIsNeeded() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            "data_dir: data\nserver: \(server.baseURL)\nplugins:\n  auth: {}\n  family: {}\n"
        )
        let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
        try #require(login.status == 0, "\(login.error)")
        server.setFaults(FaultSettings(failNext: .init(kind: .internalError, count: 1000), pathPrefix: "/v1/groups"))

        let groups = try await ferry.run(["family", "groups"])
        #expect(groups.status == 69, "\(groups.error)")
        #expect(groups.error.contains("the remote is unavailable (500"), "\(groups.error)")
        #expect(!groups.error.contains("connection") && !groups.error.contains("offline"), "\(groups.error)")
        await server.stop()
    }

    @Test func withoutALogLevelAWarningIsAPlainSentence() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            "data_dir: data\nserver: \(server.baseURL)\nplugins:\n  auth: {}\n  recipes: {}\n"
        )
        let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
        try #require(login.status == 0, "\(login.error)")
        try #require(try await ferry.run(["recipes", "list", "--refresh"]).status == 0)
        server.setFaults(FaultSettings(failNext: .init(kind: .internalError, count: 1000), pathPrefix: "/v1/recipes"))

        let list = try await ferry.run(["recipes", "list", "--refresh"])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.error.contains("warning: "), "\(list.error)")
        #expect(!list.error.contains("[SyncKernel]") && !list.error.contains(" warning ferry:"), "\(list.error)")
        await server.stop()
    }
}
