/// What kind of link carries traffic.
public enum InterfaceKind: String, Codable, Sendable {
    case wifi
    case wired
    case cellular
    case other
    case none
}

/// Whether the remotes can be reached, over what, and whether the link costs money.
public struct ConnectivityState: Sendable, Equatable, Codable {
    public var reachable: Bool
    public var interface: InterfaceKind
    public var metered: Bool
    /// Where the answer came from: `probe`, `forced` or `manual`.
    public var source: String

    public init(reachable: Bool, interface: InterfaceKind = .other, metered: Bool = false, source: String = "manual") {
        self.reachable = reachable
        self.interface = interface
        self.metered = metered
        self.source = source
    }

    public static let online = ConnectivityState(reachable: true, interface: .wired)
    public static let offline = ConnectivityState(reachable: false, interface: .none)

    /// Whether an operation with `requirement` may be sent now.
    public func satisfies(_ requirement: NetworkRequirement) -> Bool {
        switch requirement {
        case .network: reachable
        case .unmetered: reachable && !metered
        }
    }

    /// One line for `ferry status`.
    public var summary: String {
        guard reachable else { return "offline (\(source))" }
        return "online via \(interface.rawValue)\(metered ? ", metered" : "") (\(source))"
    }
}
