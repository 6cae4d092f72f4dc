import AuthPlugin
import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting

/// The simulation `ferry-sim` runs: devices with the shipped plugins and a domain declared
/// in YAML, all signed in as the demo user, against the reference server.
public enum ShippedSimulation {
    /// The declared domain the simulation exercises beside the plugins.
    static let notes = "notes"

    /// The devices' set-up: auth, recipes (photos left out: they are files, not sync) and
    /// the `notes` domain, last write wins.
    static let setup = DeviceSetup(
        pluginTypes: [AuthPlugin.self, RecipesPlugin.self],
        yaml: """
            plugins:
              auth: {}
              recipes: {download_photos: false}
            domains:
              \(notes): {}
            """,
        signIn: { runtime in
            // What `ferry auth login` does when the person keeps the writes made while
            // signed out: they go as the account that signed in, and held queues resume.
            let session = try await runtime.plugin(AuthPlugin.self).login(username: "demo", password: "demo-password")
            _ = try await runtime.adoptSignedOutWork(for: session.user.id)
            _ = try await runtime.adoptLocalData(for: session.user.id)
            try await runtime.resumeAfterLogin()
        }
    )

    /// The simulation of `options`.
    public static func simulation(_ options: Simulation.Options) -> Simulation {
        Simulation(options: options, setup: setup, server: SimulatedFerryServer.start) {
            [RecipesWorkload(), DeclaredDomainWorkload(domain: notes)]
        }
    }
}
