import Foundation

/// Reads Linux's view of the network interfaces from `/sys/class/net`.
struct NetworkInterfaces: Sendable {
    let root: String

    /// Reads the interfaces under `root` (another folder in tests).
    public init(root: String = "/sys/class/net") {
        self.root = root
    }

    /// The best interface that is up: wired before Wi-Fi before cellular, or `.other`
    /// when the system does not say (containers, other platforms); `.none` when no interface
    /// but loopback is up.
    public func primaryKind() -> InterfaceKind {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return .other }
        let kinds = names.filter { $0 != "lo" && isUp($0) }.map(kind(of:))
        for preferred in [InterfaceKind.wired, .wifi, .cellular, .other] where kinds.contains(preferred) {
            return preferred
        }
        return names.isEmpty ? .other : .none
    }

    func kind(of name: String) -> InterfaceKind {
        let path = "\(root)/\(name)"
        if FileManager.default.fileExists(atPath: "\(path)/wireless")
            || FileManager.default.fileExists(atPath: "\(path)/phy80211")
        {
            return .wifi
        }
        if name.hasPrefix("wwan") || name.hasPrefix("rmnet") || name.hasPrefix("ppp") { return .cellular }
        if FileManager.default.fileExists(atPath: "\(path)/device") || name.hasPrefix("en") || name.hasPrefix("eth") {
            return .wired
        }
        return .other
    }

    func isUp(_ name: String) -> Bool {
        guard let state = try? String(contentsOfFile: "\(root)/\(name)/operstate", encoding: .utf8) else {
            return false
        }
        let value = state.trimmingCharacters(in: .whitespacesAndNewlines)
        return value == "up" || value == "unknown"
    }
}
