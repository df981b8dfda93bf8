import CommandSupport
import Testing
@testable import geofence

/// Each `geofence` subcommand's declared options against the `--names` of its help text.
@Suite struct SubcommandOptionsTests {
    @Test func helpAndOptionsAgree() {
        for command in GeofenceTool.subcommands {
            let declared = Set(command.options.map(\.name))
            let documented = Arguments.optionNames(mentionedIn: command.help)
            #expect(declared == documented, "\(command.name): declared-only \(declared.subtracting(documented).sorted()), documented-only \(documented.subtracting(declared).sorted())")
        }
    }
}
