/// What kind of link carries traffic.
public enum InterfaceKind: String, Codable, Sendable {
    /// Wi-Fi (the interface has `wireless` or `phy80211`).
    case wifi
    /// A wired link (Ethernet, or another interface backed by a device).
    case wired
    /// A mobile data link (`wwan`, `rmnet`, `ppp`); counted as metered.
    case cellular
    /// A link of a kind the system does not say, or a state set by hand or forced.
    case other
    /// No link: nothing but loopback is up, or the remote is unreachable.
    case none
}

/// Whether the remotes can be reached, over what, and whether the link costs money.
public struct ConnectivityState: Sendable, Equatable, Codable {
    /// Whether a remote can be reached now; the engine sends and pulls only while it can.
    public var reachable: Bool
    /// The kind of link traffic goes over.
    public var interface: InterfaceKind
    /// Whether the link costs money (cellular, or forced); operations that require an
    /// unmetered network wait while it is.
    public var metered: Bool
    /// Where the answer came from: `probe`, `forced` or `manual`.
    public var source: String

    /// Creates a state; by default an unmetered link of another kind, set by hand.
    public init(reachable: Bool, interface: InterfaceKind = .other, metered: Bool = false, source: String = "manual") {
        self.reachable = reachable
        self.interface = interface
        self.metered = metered
        self.source = source
    }

    /// Reachable over an unmetered wired link, set by hand (tests, tools).
    public static let online = ConnectivityState(reachable: true, interface: .wired)
    /// Unreachable, with no link, set by hand.
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
