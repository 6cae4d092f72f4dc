import FamilyPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// A device that never showed the group: names come after one read, and `act-as` is
/// checked against the group.
@Suite("Family: a second device")
struct SecondDeviceTests {
    @Test func aRoundShowsMemberNamesOnADeviceThatNeverShowedItsGroup() async throws {
        try await FamilyTestServer.with { server in
            let device = try await server.device()
            let view = try await device.family.round(FamilyTestServer.round).value
            let named = view.memberIDs
            #expect(named.isSuperset(of: ["mem_demo", "mem_sam"]))
            let members = await device.family.members(of: FamilyTestServer.group) {
                named.isSubset(of: Set($0.map(\.id)))
            }
            let text = FamilyTestRender.round(view, members: members)
            #expect(text.contains("Attendees: Demo User, Sam"), "\(text)")
            #expect(!text.contains("mem_demo"), "\(text)")

            // Offline afterwards, the names come from the group now cached.
            device.offline()
            let cached = await device.family.members(of: FamilyTestServer.group) { _ in false }
            #expect(cached.map(\.displayName).contains("Kiddo"))
        }
    }

    @Test func actingAsIsCheckedAgainstTheGroupAndSaysWhenItCannotBe() async throws {
        try await FamilyTestServer.with { server in
            let device = try await server.device()
            device.credentials.setAccount("u_demo")
            #expect(await device.runtime.checkActingAs("mem_kid") == [.allowed(name: "Kiddo")])
            guard case .refused(let notMine)? = await device.runtime.checkActingAs("mem_sam").first else {
                Issue.record("acting as another user's member was not refused")
                return
            }
            #expect(notMine.contains("Sam"))
            guard case .refused(let unknown)? = await device.runtime.checkActingAs("mem_nobody").first else {
                Issue.record("an unknown member was not refused")
                return
            }
            #expect(unknown.contains("not a member of any of your groups"))

            let fresh = try await server.device()
            fresh.credentials.setAccount("u_demo")
            fresh.offline()
            guard case .unchecked(let why)? = await fresh.runtime.checkActingAs("mem_kid").first else {
                Issue.record("an offline device with nothing cached claimed to have checked")
                return
            }
            #expect(why.contains("cannot be reached"))
        }
    }
}
