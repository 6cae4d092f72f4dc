@testable import FamilyPlugin

/// The human rendering of family data, for tests that check what people see.
enum FamilyTestRender {
    static func round(_ view: FamilyRoundView, members: [FamilyMember] = []) -> String {
        FamilyPrinter.round(view, members: members)
    }

    /// The rendering of `view` as if its attendees were `attendees`.
    static func round(_ view: FamilyRoundView, attendees: [String], members: [FamilyMember] = []) -> String {
        var view = view
        view.attendees = attendees
        return FamilyPrinter.round(view, members: members)
    }

    static func group(_ detail: FamilyGroupDetail) -> String {
        FamilyPrinter.group(detail)
    }
}
