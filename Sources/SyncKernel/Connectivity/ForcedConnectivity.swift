import Foundation

/// A setting that pins connectivity, kept in the store so that every process sees it
/// (`ferry network offline|online|auto`, `ferry network metered|unmetered|auto`).
public enum NetworkOverride: String, Codable, Sendable, CaseIterable {
    /// No pin: the monitor's own answer stands.
    case auto
    /// Reachable, even when the probe says otherwise.
    case online
    /// Unreachable: nothing is sent or pulled, and no probe goes out.
    case offline
    /// The link counts as metered: operations that require `unmetered` wait.
    case metered
    /// The link counts as unmetered, even a cellular one.
    case unmetered
}

/// Wraps another monitor and applies the overrides stored in the settings table.
///
/// Reachability (`offline`, `online`) and metering (`metered`, `unmetered`) are two
/// settings, each `auto` until set; they are read on every `current()`, so a pin set by
/// another process applies at once. The engine's leases read them inside their own write
/// instead (`current(under:)`, `LeaseTerms`).
struct ForcedConnectivity: ConnectivityMonitor {
    let base: any ConnectivityMonitor
    let settings: SettingsStore

    /// Wraps `base`, reading the overrides from `settings`.
    public init(base: any ConnectivityMonitor, settings: SettingsStore) {
        self.base = base
        self.settings = settings
    }

    /// The base monitor's state with the stored overrides applied; `offline` answers without
    /// asking the base monitor.
    public func current() async -> ConnectivityState {
        await current(under: (try? await storedOverrides()) ?? NetworkOverrides())
    }

    /// The overrides stored now, from their own read.
    func storedOverrides() async throws -> NetworkOverrides {
        try await settings.store.read { db in try NetworkOverrides.stored(in: db) }
    }

    /// The base monitor's state with `overrides` applied; `offline` answers without asking
    /// the base monitor. The engine passes the overrides its last lease read, and checks
    /// them again inside the next lease's write (`LeaseTerms`).
    func current(under overrides: NetworkOverrides) async -> ConnectivityState {
        if overrides.reachability == .offline {
            return ConnectivityState(reachable: false, interface: .none, source: "forced")
        }
        var state = await base.current()
        if overrides.reachability == .online, !state.reachable {
            state = ConnectivityState(reachable: true, interface: .other, source: "forced")
        }
        switch overrides.metering {
        case .metered:
            state.metered = true
            state.source = "forced"
        case .unmetered:
            state.metered = false
            state.source = "forced"
        default: break
        }
        return state
    }

    /// Passes the report to the base monitor.
    public func reportUnreachable() async {
        await base.reportUnreachable()
    }

    /// Passes the report to the base monitor.
    public func reportReachable() async {
        await base.reportReachable()
    }

    enum SettingsKey {
        static let reachability = "network.reachability"
        static let metering = "network.metering"
    }
}
