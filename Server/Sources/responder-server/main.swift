#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport
import Geodesy
import ResponderService
import Responders

let help = """
    usage: responder-server --listen HOST:PORT --store sqlite:FILE|postgresql://... --tokens FILE
                            [--instance NAME] [--threads N] [--regions FILE] [--fleets FILE]

    The responder backend as an HTTP service (API in docs/SERVICE.md).
      --listen HOST:PORT   IPv4 address and port to listen on (port 0: any free port; the port
                           is printed on stdout as "listening on HOST:PORT")
      --store S            sqlite:FILE (one instance) or postgresql://user@host:port/db (several)
      --tokens FILE        CSV responder,token: the phones' bearer tokens
      --instance NAME      name reported by /v1/status (default HOST:PORT)
      --threads N          HTTP threads and store connections (default 4)
      --regions FILE       CSV name,lat,lon,radius_m: alert regions (metric responders_by_region)
      --fleets FILE        JSON: per-fleet intervals, liveness thresholds, ACK timeout and sender
                           backoff (format in docs/SERVICE.md; default: the memo's numbers for all)
    Runs until SIGTERM or SIGINT.
    """

/// The service, set once it exists (requests before that get 503).
final class ServiceHolder: @unchecked Sendable {
    var service: ResponderService?
}

func fail(_ message: String) -> Never {
    logLine("responder-server: \(message)")
    exit(2)
}

do {
    let args = try Arguments(
        Array(CommandLine.arguments.dropFirst()),
        options: [
            .value("listen"), .value("store"), .value("tokens"), .value("instance"), .value("threads"), .value("regions"), .value("fleets")
        ])
    if args.wantsHelp {
        print(help)
        exit(0)
    }
    let listen = try args.required("listen")
    guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else {
        throw UsageError("--listen: expected HOST:PORT, found '\(listen)'")
    }
    let host = String(listen[..<colon])
    let threads = try args.int("threads", default: 4, in: 1...64)
    let tokens = try TokenTable(path: try args.required("tokens"))
    let regions = try args.string("regions").map { try AlertRegionsFile.read(path: $0) } ?? []
    let fleets = try args.string("fleets").map { try FleetFile.read(path: $0) } ?? FleetTable()
    let store = try ServiceStore(try args.required("store"), poolSize: threads)
    let holder = ServiceHolder()
    let server = try HTTPServer(host: host, port: port, threads: threads) { request in
        holder.service?.handle(request) ?? HTTPResponse(status: 503, body: "{\"error\": \"starting\", \"field\": \"\"}")
    }
    let service = ResponderService(
        instance: args.string("instance") ?? "\(host):\(server.port)", store: store, tokens: tokens,
        regions: regions, fleets: fleets)
    holder.service = service
    service.start()
    print("listening on \(host):\(server.port)")
    fflush(nil)
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGINT)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    var received: Int32 = 0
    sigwait(&signals, &received)
    server.stop()
    service.stop()
    exit(0)
} catch let error as UsageError {
    fail("\(error)\n\(help)")
} catch {
    fail("\(error)")
}
