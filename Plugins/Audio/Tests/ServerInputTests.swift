import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// What a remote sends is checked before it is taken: an album that cannot be right is
/// skipped with a warning and never blocks the rest of the library, and an album this
/// device keeps stays when the remote drops it. (A scripted remote: the reference server
/// never sends such albums.)
@Suite("Audio: what the remote sends")
struct ServerInputTests {
    static let sha = String(repeating: "a", count: 64)

    static func album(_ id: String, size: Int64 = 10, file: String? = nil, url: String? = nil) -> [String: Any] {
        let file = file ?? "\(id).wav"
        return [
            "id": id, "title": id, "tracks": [
                [
                    "id": "trk_\(id)", "title": id, "part_key": file, "byte_size": size, "sha256": sha,
                    "url": url ?? "/v1/audio/files/\(file)",
                ]
            ],
        ]
    }

    static func page(_ changes: [[String: Any]], cursor: String) throws -> RecordingExecutor.Answer {
        let body = try JSONSerialization.data(withJSONObject: ["changes": changes, "cursor": cursor, "has_more": false])
        return .respond(HTTPResponse(status: 200, headers: [:], body: body))
    }

    static func upsert(_ entity: [String: Any]) -> [String: Any] {
        ["type": "upsert", "id": entity["id"] as! String, "entity": entity]
    }

    func runtime(_ executor: RecordingExecutor) async throws -> TestRuntime {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-audio-input-\(UUID().uuidString)")
        return try await TestRuntime.make(
            server: "http://remote.test",
            yaml: "data_dir: \(folder.path)\nplugins:\n  audio: {}\n",
            plugins: [AudioPlugin.self],
            executor: executor
        )
    }

    @Test func albumsThatCannotBeRightAreSkippedAndTheRestIsTaken() async throws {
        let executor = RecordingExecutor()
        executor.enqueue(
            try Self.page(
                [
                    Self.upsert(Self.album("good")),
                    Self.upsert(Self.album("huge", size: .max)),
                    Self.upsert(Self.album("escape", file: "../../etc/passwd")),
                    Self.upsert(Self.album("elsewhere", url: "https://third.test/x.wav")),
                    ["type": "upsert", "id": "garbled", "entity": ["id": "garbled", "tracks": "no"]],
                ],
                cursor: "1"
            ),
            try Self.page([], cursor: "1")
        )
        let test = try await runtime(executor)
        let audio = try AudioLibrary(runtime: test.runtime)
        #expect(try await audio.refresh() == nil)
        #expect(try await audio.albums().map(\.id) == ["good"])
        #expect(try await audio.download(album: "good").queued == 1)
    }

    @Test func anAlbumKeptHereStaysWhenTheRemoteDropsIt() async throws {
        let executor = RecordingExecutor()
        executor.enqueue(
            try Self.page([Self.upsert(Self.album("kept")), Self.upsert(Self.album("other"))], cursor: "1"),
            try Self.page([], cursor: "1")
        )
        let test = try await runtime(executor)
        let audio = try AudioLibrary(runtime: test.runtime)
        try await audio.refresh()
        _ = try await audio.download(album: "kept")
        executor.enqueue(
            try Self.page([["type": "delete", "id": "kept"], ["type": "delete", "id": "other"]], cursor: "2"),
            try Self.page([], cursor: "1")
        )
        try await audio.refresh()
        #expect(try await audio.albums().map(\.id) == ["kept"])
        #expect(try await test.operations().map(\.entity) == ["kept.wav"])
    }
}
