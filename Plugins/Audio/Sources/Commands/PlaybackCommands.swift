import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry audio play TRACK [--next TRACK...]`, `--album ID`, `--collection ID`.
struct PlayCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Say what would play, record the play, and cache the next tracks ahead (on Wi-Fi).",
        discussion: Examples.discussion(examples: [
            "ferry audio play trk_demo-a1-t1 --next trk_demo-a1-t2 --next trk_demo-a1-t3", "ferry audio play --album alb_demo_1",
        ])
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The track's id.", valueName: "track-id")) var track: String?
    @Option(
        help: ArgumentHelp(
            "A track that plays next (repeatable); up to plugins.audio.cache_ahead are cached ahead.",
            valueName: "track-id"
        )
    )
    var next: [String] = []
    @Option(help: ArgumentHelp("Play an album instead: what each of its tracks would play from.", valueName: "album-id"))
    var album: String?
    @Option(help: ArgumentHelp("Play a collection instead.", valueName: "collection-id")) var collection: String?

    /// What `--json` prints for a track: where it plays from, and how many tracks were
    /// queued for caching ahead (null for an album or a collection).
    struct Played: Encodable {
        let track: String
        var title: String? = nil
        let source: SourceView
        var queuedAhead: Int? = nil
    }

    func run(in runtime: FerryRuntime) async throws {
        let audio = try AudioLibrary(runtime: runtime)
        if let album { return try show(try await audio.play(album: album)) }
        if let collection { return try show(try await audio.play(collection: collection)) }
        guard let track else {
            throw FerryError(.usage, "name a track (`ferry audio play TRACK`), or pass --album ID or --collection ID")
        }
        let (source, queued) = try await audio.play(track: track, next: next)
        if global.json {
            try global.output.printJSON(Played(track: track, source: SourceView(source), queuedAhead: queued))
            if case .unavailable = source { throw CommandFailure(.unavailable) }
            return
        }
        print(ResolveCommand.describe(source))
        if queued > 0 { Output.warn("\(queued) track(s) queued for caching ahead; they download on Wi-Fi") }
        if case .unavailable = source { throw CommandFailure(.unavailable) }
    }

    private func show(_ sources: [(track: AudioTrack, source: PlaybackSource)]) throws {
        if global.json {
            return try global.output.printJSON(
                ["tracks": sources.map { Played(track: $0.track.id, title: $0.track.title, source: SourceView($0.source)) }]
            )
        }
        Output(json: false).table(
            ["TRACK", "TITLE", "PLAYS FROM"],
            sources.map { [$0.track.id, $0.track.title, ResolveCommand.describe($0.source)] }
        )
    }
}

/// `ferry audio resolve TRACK`.
struct ResolveCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Say where a track plays from: the downloaded file, else the server, else nowhere (exit 69).",
        discussion: Examples.discussion(examples: ["ferry audio resolve trk_demo-a1-t1"])
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The track's id.", valueName: "track-id")) var track: String

    func run(in runtime: FerryRuntime) async throws {
        let source = try await AudioLibrary(runtime: runtime).resolve(track: track)
        if case .unavailable(let reason) = source {
            throw FerryError(.requiresConnection, "\(track) is unavailable: \(reason); download it while online")
        }
        if global.json { return try global.output.printJSON(PlayCommand.Played(track: track, source: SourceView(source))) }
        print(Self.describe(source))
    }

    static func describe(_ source: PlaybackSource) -> String {
        switch source {
        case .local(let url): "local \(url.path)"
        case .remote(let url): "remote \(url)"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}

/// Where a track plays from, for `--json`: `kind` is `local` (with `path`), `remote` (with
/// `url`) or `unavailable` (with `reason`); the other fields are null.
struct SourceView: Encodable {
    let kind: String
    var path, url, reason: String?

    init(_ source: PlaybackSource) {
        switch source {
        case .local(let file): (kind, path) = ("local", file.path)
        case .remote(let url): (kind, self.url) = ("remote", url)
        case .unavailable(let reason): (kind, self.reason) = ("unavailable", reason)
        }
    }
}
