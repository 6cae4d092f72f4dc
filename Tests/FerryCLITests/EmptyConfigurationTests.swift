import Foundation
import SyncKernelTesting
import Testing

/// An empty config.yaml is allowed, but never silently: a warning says the defaults are
/// used and no plugin is enabled, and the command goes on.
@Suite("empty configuration", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct EmptyConfigurationTests {
    @Test(arguments: ["", "# nothing here yet\n\n# still nothing\n"])
    func anEmptyFileWarnsAndTheCommandGoesOn(text: String) async throws {
        let ferry = try FerryExecutable.configured(text)
        let result = try await ferry.run(["config", "check"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("warning: config.yaml is empty"), "\(result.error)")
        #expect(result.error.contains("the defaults are used and no plugin is enabled"), "\(result.error)")
        #expect(result.output.contains("plugins: none enabled"))
    }

    @Test func aFileThatSetsSomethingGetsNoWarning() async throws {
        let ferry = try FerryExecutable.configured("server: http://127.0.0.1:9\nplugins:\n  recipes: {}\n")
        let result = try await ferry.run(["config", "check"])
        #expect(result.status == 0)
        #expect(!result.error.contains("warning"), "\(result.error)")
    }
}
