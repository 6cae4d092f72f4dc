import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

@testable import SyncKernel

@Suite("Connectivity: probe, interfaces and forced settings")
struct ConnectivityTests {
    @Test func wiredIsPreferredOverWifiAndDownInterfacesDoNotCount() throws {
        #expect(
            try FakeInterfaces.make([("lo", true, false), ("eth0", true, false), ("wlan0", true, true)]).primaryKind()
                == .wired
        )
        #expect(
            try FakeInterfaces.make([("lo", true, false), ("eth0", false, false), ("wlan0", true, true)]).primaryKind()
                == .wifi
        )
        #expect(try FakeInterfaces.make([("lo", true, false), ("wwan0", true, false)]).primaryKind() == .cellular)
        #expect(try FakeInterfaces.make([("lo", true, false), ("eth0", false, false)]).primaryKind() == .none)
    }

    @Test func theProbeAsksTheHealthEndpointOfAServerThatAnswersAndOneThatDoesNot() async throws {
        try await TestPluginServer.with { server, url in
            let up = ProbeConnectivity(
                remotes: { [url] },
                timeout: patientProbeTimeout,
                interfaces: try FakeInterfaces.make([("eth0", true, false)]),
                clock: TestClock()
            )
            #expect(await up.current().reachable)
            #expect(server.requests == ["GET /v1/health"])
        }
        let down = ProbeConnectivity(
            remotes: { ["http://127.0.0.1:9/"] },
            interfaces: try FakeInterfaces.make([("eth0", true, false)]),
            clock: TestClock()
        )
        #expect(await down.current().reachable == false)
    }

    @Test func aCellularLinkIsMetered() async throws {
        let probe = ProbeConnectivity(
            remotes: { [] },
            interfaces: try FakeInterfaces.make([("wwan0", true, false)]),
            clock: TestClock()
        )
        let state = await probe.current()
        #expect(state.reachable && state.metered && state.interface == .cellular)
    }

    @Test func aProbeResultIsReusedUntilItsIntervalOrAnUnreachableReport() async throws {
        let clock = TestClock()
        try await TestPluginServer.with { server, url in
            let probe = ProbeConnectivity(
                remotes: { [url] },
                interval: 15,
                timeout: patientProbeTimeout,
                interfaces: try FakeInterfaces.make([("eth0", true, false)]),
                clock: clock
            )
            _ = await probe.current()
            _ = await probe.current()
            #expect(server.count("GET /v1/health") == 1)
            clock.advance(by: 16)
            _ = await probe.current()
            #expect(server.count("GET /v1/health") == 2)
            await probe.reportUnreachable()
            _ = await probe.current()
            #expect(server.count("GET /v1/health") == 3)
            // An answered request renews the result: no probe for another interval.
            clock.advance(by: 10)
            await probe.reportReachable()
            clock.advance(by: 10)
            _ = await probe.current()
            #expect(server.count("GET /v1/health") == 3)
        }
    }

    /// A result holds only on the link it was found on: a link that turns from Wi-Fi to
    /// cellular is metered at once (no download meant for Wi-Fi goes on it), one that goes
    /// down is unreachable at once, and one that comes back is probed at once.
    @Test func aChangeOfLinkCountsAtOnce() async throws {
        let clock = TestClock()
        try await TestPluginServer.with { server, url in
            let interfaces = try FakeInterfaces.make([("wlan0", true, true), ("wwan0", false, false)])
            func set(_ name: String, up: Bool) throws {
                try (up ? "up\n" : "down\n").write(
                    toFile: "\(interfaces.root)/\(name)/operstate",
                    atomically: true,
                    encoding: .utf8
                )
            }
            let probe = ProbeConnectivity(remotes: { [url] }, interval: 15, timeout: patientProbeTimeout, interfaces: interfaces, clock: clock)
            #expect(
                await probe.current()
                    == ConnectivityState(reachable: true, interface: .wifi, metered: false, source: "probe")
            )
            try set("wlan0", up: false)
            try set("wwan0", up: true)
            let cellular = await probe.current()
            #expect(cellular.reachable && cellular.metered && cellular.interface == .cellular)
            #expect(server.count("GET /v1/health") == 2)
            try set("wwan0", up: false)
            #expect(await probe.current().reachable == false)
            await probe.reportReachable()
            #expect(await probe.current().reachable == false, "an answer is no link")
            try set("wlan0", up: true)
            #expect(await probe.current().reachable)
            #expect(server.count("GET /v1/health") == 3)
            // An answer over a link that changed since renews nothing of the old link.
            try set("wlan0", up: false)
            try set("wwan0", up: true)
            await probe.reportReachable()
            #expect(await probe.current().metered)
            #expect(server.count("GET /v1/health") == 3)
        }
    }

    /// A result found at a time the clock has gone back from is probed again, not trusted
    /// until the clock catches up with it.
    @Test func aResultFromBeforeTheClockWentBackIsProbedAgain() async throws {
        let clock = TestClock()
        try await TestPluginServer.with { server, url in
            let probe = ProbeConnectivity(
                remotes: { [url] },
                interval: 15,
                timeout: patientProbeTimeout,
                interfaces: try FakeInterfaces.make([("eth0", true, false)]),
                clock: clock
            )
            _ = await probe.current()
            clock.advance(by: -3600)
            _ = await probe.current()
            #expect(server.count("GET /v1/health") == 2)
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

    @Test func networkModeInTheConfigurationIsTheStartingPin() async throws {
        for (mode, reachable, isMetered) in [("metered", true, true), ("offline", false, false)] {
            let test = try await TestRuntime.make(
                server: "http://127.0.0.1:9",
                yaml: "network: {mode: \(mode)}\nplugins:\n  items: {}\n",
                connectivity: ManualConnectivity(ConnectivityState(reachable: true, interface: .wifi))
            )
            let state = await test.runtime.connectivity.current()
            #expect(state.reachable == reachable && state.metered == isMetered, "\(mode)")
        }
    }
}
