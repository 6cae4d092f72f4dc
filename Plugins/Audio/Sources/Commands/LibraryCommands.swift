import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry audio albums [--refresh]`.
struct AlbumsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List the library's albums and what this device holds of each.",
        discussion: Examples.discussion(examples: ["ferry audio albums", "ferry audio albums --refresh --json"])
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Pull the library from the server first.") var refresh = false

    func run(in runtime: FerryRuntime) async throws {
        let audio = try AudioLibrary(runtime: runtime)
        if refresh, let stale = try await audio.refresh() { Output.warn(stale) }
        let albums = try await audio.albums()
        if global.json { return try Output(json: true).printJSON(["albums": albums]) }
        guard !albums.isEmpty else { return print("no albums yet; `ferry audio albums --refresh` pulls them") }
        Output(json: false).table(
            ["ID", "TITLE", "ARTIST", "TRACKS", "SIZE", "ON THIS DEVICE"],
            albums.map { [$0.id, $0.title, $0.artist ?? "", "\($0.tracks)", "\(ByteCount($0.bytes))", Self.held($0)] }
        )
    }

    static func held(_ album: AlbumView) -> String {
        let kept =
            album.explicit
            ? "downloaded" : album.collections.isEmpty ? "" : "via \(album.collections.joined(separator: ", "))"
        let count = album.downloaded == 0 ? "" : "\(album.downloaded)/\(album.tracks) tracks"
        return [kept, count].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// `ferry audio collections [--refresh]`.
struct CollectionsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "collections",
        abstract: "List the library's collections; a refresh reconciles the downloaded ones.",
        discussion: Examples.discussion(examples: ["ferry audio collections", "ferry audio collections --refresh"])
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Pull the library from the server first, and reconcile downloaded collections.") var refresh = false

    func run(in runtime: FerryRuntime) async throws {
        let audio = try AudioLibrary(runtime: runtime)
        if refresh, let stale = try await audio.refresh() { Output.warn(stale) }
        let collections = try await audio.collections()
        if global.json { return try Output(json: true).printJSON(["collections": collections]) }
        guard !collections.isEmpty else {
            return print("no collections yet; `ferry audio collections --refresh` pulls them")
        }
        Output(json: false).table(
            ["ID", "NAME", "ALBUMS", "ON THIS DEVICE"],
            collections.map { [$0.id, $0.name, $0.albums.joined(separator: ", "), $0.downloaded ? "downloaded" : ""] }
        )
    }
}
