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
            _ = try await runtime.plugin(AuthPlugin.self).login(username: "demo", password: "demo-password")
            // As `ferry auth login` does when the person keeps the default answer: the
            // writes made while signed out go as the account that signed in.
            if let account = await runtime.credentials.account() { _ = try await runtime.adoptSignedOutWork(for: account) }
        }
    )

    /// The simulation of `options`.
    public static func simulation(_ options: Simulation.Options) -> Simulation {
        Simulation(options: options, setup: setup, server: SimulatedFerryServer.start) {
            [RecipesWorkload(), DeclaredDomainWorkload(domain: notes)]
        }
    }
}
