import CommandSupport
import Testing
@testable import geofence

/// Each `geofence` subcommand's declared options against the `--names` of its help text.
@Suite struct SubcommandOptionsTests {
    @Test func helpAndOptionsAgree() {
        for command in GeofenceTool.subcommands {
            let declared = Set(command.options.map(\.name))
            let documented = Arguments.optionNames(mentionedIn: command.help)
            #expect(
                declared == documented,
                "\(command.name): declared-only \(declared.subtracting(documented).sorted()), documented-only \(documented.subtracting(declared).sorted())"
            )
        }
    }
}

/// `geofence poi ACTION --help` shows that action's help, naming exactly the options it takes.
@Suite struct PoiActionHelpTests {
    @Test func eachActionHasItsOwnHelp() {
        for action in PoiCommand.Action.allCases {
            let text = PoiCommand.help(forPositionals: [action.rawValue])
            #expect(text.hasPrefix("USAGE: geofence poi \(action.rawValue) "))
            #expect(Arguments.optionNames(mentionedIn: text) == PoiCommand.options(of: action), "\(action)")
        }
        #expect(PoiCommand.help(forPositionals: []) == PoiCommand.help)
        #expect(PoiCommand.help(forPositionals: ["frob"]) == PoiCommand.help)
        #expect(DistanceCommand.help(forPositionals: ["x"]) == DistanceCommand.help)
    }
}
