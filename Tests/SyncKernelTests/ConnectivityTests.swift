import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Connectivity: probe, interfaces and forced settings")
struct ConnectivityTests {
    /// A fake /sys/class/net with the given interfaces: (name, up, wireless).
    func interfaces(_ entries: [(String, Bool, Bool)]) throws -> NetworkInterfaces {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("net-\(UUID().uuidString)")
        for (name, up, wireless) in entries {
            let folder = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (up ? "up\n" : "down\n").write(
                to: folder.appendingPathComponent("operstate"),
                atomically: true,
                encoding: .utf8
            )
            if wireless {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent("wireless"),
                    withIntermediateDirectories: true
                )
            }
        }
        return NetworkInterfaces(root: root.path)
    }

    @Test func wiredIsPreferredOverWifiAndDownInterfacesDoNotCount() throws {
        #expect(
            try interfaces([("lo", true, false), ("eth0", true, false), ("wlan0", true, true)]).primaryKind() == .wired
        )
        #expect(
            try interfaces([("lo", true, false), ("eth0", false, false), ("wlan0", true, true)]).primaryKind() == .wifi
        )
        #expect(try interfaces([("lo", true, false), ("wwan0", true, false)]).primaryKind() == .cellular)
        #expect(try interfaces([("lo", true, false), ("eth0", false, false)]).primaryKind() == .none)
    }

    @Test func theProbeSeesAServerThatAnswersAndOneThatDoesNot() async throws {
        try await ItemServer.with { _, url in
            let up = ProbeConnectivity(
                probeURLs: { [url + "/items"] },
                interfaces: try interfaces([("eth0", true, false)]),
                clock: TestClock()
            )
            #expect(await up.current().reachable)
        }
        let down = ProbeConnectivity(
            probeURLs: { ["http://127.0.0.1:9/"] },
            interfaces: try interfaces([("eth0", true, false)]),
            clock: TestClock()
        )
        #expect(await down.current().reachable == false)
    }

    @Test func aCellularLinkIsMetered() async throws {
        let probe = ProbeConnectivity(
            probeURLs: { [] },
            interfaces: try interfaces([("wwan0", true, false)]),
            clock: TestClock()
        )
        let state = await probe.current()
        #expect(state.reachable && state.metered && state.interface == .cellular)
    }

    @Test func aProbeResultIsReusedUntilItsIntervalOrAnUnreachableReport() async throws {
        let clock = TestClock()
        try await ItemServer.with { server, url in
            let probe = ProbeConnectivity(
                probeURLs: { [url + "/items"] },
                interval: 15,
                interfaces: try interfaces([("eth0", true, false)]),
                clock: clock
            )
            _ = await probe.current()
            _ = await probe.current()
            #expect(server.count("GET /items") == 1)
            clock.advance(by: 16)
            _ = await probe.current()
            #expect(server.count("GET /items") == 2)
            await probe.reportUnreachable()
            _ = await probe.current()
            #expect(server.count("GET /items") == 3)
        }
    }

    @Test func forcedSettingsOverrideTheProbeForEveryProcess() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        test.connectivity.set(ConnectivityState(reachable: true, interface: .wifi))
        let settings = test.runtime.settings
        try await settings.set(NetworkOverride.offline, for: "network.reachability")
        #expect(await test.runtime.connectivity.current().reachable == false)
        try await settings.set(NetworkOverride?.none, for: "network.reachability")
        try await settings.set(NetworkOverride.metered, for: "network.metering")
        let metered = await test.runtime.connectivity.current()
        #expect(metered.reachable && metered.metered && metered.source == "forced")
    }
}
