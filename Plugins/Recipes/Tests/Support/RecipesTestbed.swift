import Foundation
import GRDB
import RecipesPlugin
import SyncKernel
import SyncKernelTesting

/// A runtime with only the recipes plugin, an in-memory store, a test clock and a
/// temporary data folder, talking to `server`; `sync` is the YAML of its `sync:` section.
struct RecipesTestbed {
    let test: TestRuntime
    let folder: URL

    var runtime: FerryRuntime { test.runtime }
    var book: RecipeBook { get throws { try RecipeBook(runtime: test.runtime) } }

    static func make(
        server: String,
        token: String?,
        credentials: (any CredentialProvider)? = nil,
        yaml: String = "",
        sync: String? = nil
    ) async throws -> RecipesTestbed {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let test = try await TestRuntime.make(
            server: server,
            yaml: "data_dir: \(folder.path)\n\(sync.map { "sync:\n\($0)\n" } ?? "")plugins:\n  recipes: {\(yaml)}\n",
            plugins: [RecipesPlugin.self],
            credentials: credentials ?? StaticCredentials(token: token)
        )
        return RecipesTestbed(test: test, folder: folder)
    }

    /// The plugin's photo folder.
    var photos: URL { folder.appendingPathComponent("recipes/photos") }

    /// Kinds of the outbox's operations, oldest first, as `kind:entity`.
    func queue() async throws -> [String] {
        try await test.operations().map { "\($0.kind):\($0.entity)" }
    }

    /// Writes `text` to a file in the temporary folder and returns its path.
    func file(_ name: String, _ contents: Data) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url)
        return url.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A tiny valid PNG (a 1x1 image), different for each `seed`.
func samplePNG(_ seed: UInt8 = 1) -> Data {
    Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8,
        2, 0, 0, 0, seed,
    ])
}
