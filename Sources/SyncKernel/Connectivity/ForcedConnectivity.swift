import Foundation

/// A setting that pins connectivity, kept in the store so that every process sees it
/// (`ferry network offline|online|auto`, `ferry network metered|unmetered|auto`).
public enum NetworkOverride: String, Codable, Sendable, CaseIterable {
    case auto
    case online
    case offline
    case metered
    case unmetered
}

/// Wraps another monitor and applies the overrides stored in the settings table.
public struct ForcedConnectivity: ConnectivityMonitor {
    let base: any ConnectivityMonitor
    let settings: SettingsStore

    public init(base: any ConnectivityMonitor, settings: SettingsStore) {
        self.base = base
        self.settings = settings
    }

    public func current() async -> ConnectivityState {
        let reachability = (try? await settings.value(NetworkOverride.self, for: SettingsKey.reachability)) ?? .auto
        let metering = (try? await settings.value(NetworkOverride.self, for: SettingsKey.metering)) ?? .auto
        if reachability == .offline { return ConnectivityState(reachable: false, interface: .none, source: "forced") }
        var state = await base.current()
        if reachability == .online, !state.reachable {
            state = ConnectivityState(reachable: true, interface: .other, source: "forced")
        }
        switch metering {
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

    public func reportUnreachable() async {
        await base.reportUnreachable()
    }

    public func reportReachable() async {
        await base.reportReachable()
    }

    enum SettingsKey {
        static let reachability = "network.reachability"
        static let metering = "network.metering"
    }
}
