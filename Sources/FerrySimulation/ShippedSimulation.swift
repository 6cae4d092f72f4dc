import AudioPlugin
import AuthPlugin
import FamilyPlugin
import Foundation
import MoviesPlugin
import RecipesPlugin
import SyncKernel
import SyncKernelTesting

/// The simulation `ferry-sim` runs: devices with the shipped plugins and a domain declared
/// in YAML, all signed in as the demo user, against the reference server (and TMDB, in
/// process too).
public enum ShippedSimulation {
    /// The declared domain the simulation exercises beside the plugins.
    static let notes = "notes"

    /// The `plugins:` and `domains:` sections, with `auth` as the auth plugin's settings,
    /// and family's writes queued or, as it ships, online-only.
    static func yaml(auth: String, familyQueued: Bool) -> String {
        let family = """
                operations:
                  round_start: {delivery: queued}
                  round_close: {delivery: queued}
                  suggest: {delivery: queued}
                  vote: {delivery: queued}
                  pick: {delivery: queued}
            """
        return """
            plugins:
              auth: \(auth)
              recipes: {download_photos: false}
              movies:
                tmdb:
                  url: https://\(SimulatedTMDB.apiHost)/3
                  image_base: https://\(SimulatedTMDB.imageHost)
                  token: \(SimulatedTMDB.token)
              family:\(familyQueued ? "\n" + family : " {}")
              audio: {max_size: \(AudioWorkload.cap)}
            domains:
              \(notes): {}
            """
    }

    /// The devices' set-up: auth; recipes (photos left out: they are files, not sync);
    /// movies, enriched on the simulated TMDB; family, its writes queued rather than
    /// online-only, so that the runner carries them through faults, except on the device
    /// set up by its configuration alone, which runs it as it ships (online-only: each
    /// write goes at once or fails); audio, within a small cap; and the `notes` domain,
    /// last write wins.
    static let setup = DeviceSetup(
        pluginTypes: [AuthPlugin.self, RecipesPlugin.self, MoviesPlugin.self, FamilyPlugin.self, AudioPlugin.self],
        yaml: yaml(auth: "{}", familyQueued: true),
        // As the shipped config.yaml: the demo user's username and password, family online-only.
        configuredYAML: yaml(auth: "{username: demo, password: demo-password}", familyQueued: false),
        otherHosts: [SimulatedTMDB.apiHost: SimulatedTMDB(), SimulatedTMDB.imageHost: SimulatedTMDB()],
        // The demo users: the workloads act as `demo`; `sam` signs in on a device now and then.
        accounts: ["demo", "sam"],
        signIn: { runtime, account in
            // What `ferry auth login` does with the person's answer about the writes made
            // while nobody was signed in (the configured device's, before its first sign-in):
            // the workloads' account keeps them, and they go as its own; another account
            // holds them (Enter), as they are not its own. Held queues resume.
            let session = try await runtime.plugin(AuthPlugin.self).login(username: account, password: "\(account)-password")
            if account == "demo" { _ = try await runtime.adoptSignedOutWork(for: session.user.id) }
            _ = try await runtime.adoptLocalData(for: session.user.id)
            try await runtime.resumeAfterLogin()
        }
    )

    /// The names of the workloads, in the order they are drawn from.
    public static let workloads = ["recipes", notes, "movies", "family", "audio"]

    /// The simulation of `options`, with every workload or only those `only` names.
    public static func simulation(_ options: Simulation.Options, only: [String]? = nil) -> Simulation {
        Simulation(options: options, setup: setup, server: SimulatedFerryServer.start) {
            let all: [any SimulationWorkload] = [
                RecipesWorkload(), DeclaredDomainWorkload(domain: notes), MoviesWorkload(), FamilyWorkload(),
                AudioWorkload(),
            ]
            return all.filter { (only ?? workloads).contains($0.name) }
        }
    }
}
