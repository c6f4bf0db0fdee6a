/// Whether `teardown serve` and `teardown intake` can listen where they are asked to, checked
/// before a build of minutes rather than after it.
public enum LocalPort {
    /// What stands in the way of listening on host:port, said for a person; nil when nothing does.
    public static func problem(host: String, port: Int) -> String? {
        if let outOfRange = outOfRange(port) { return outOfRange }
        guard let problem = FileSystem.portProblem(host: host, port: port) else { return nil }
        if problem.inUse {
            guard let free = freePort(host: host, near: port) else { return "port \(port) is in use on \(host)" }
            return "port \(port) is in use on \(host); port \(free) is free: try --port \(free)"
        }
        return "cannot listen on \(host):\(port): \(problem.reason)"
    }

    /// The first port after `port` (then before it) that is free now: the next one up was often
    /// taken too (a second preview beside a first on 8081).
    package static func freePort(host: String, near port: Int) -> Int? {
        let candidates = Array(stride(from: port + 1, through: min(65535, port + 100), by: 1))
            + Array(stride(from: port - 1, through: max(1024, port - 100), by: -1))
        return candidates.first { FileSystem.portProblem(host: host, port: $0) == nil }
    }

    /// Why `port` cannot be a TCP port at all; nil when it can.
    public static func outOfRange(_ port: Int) -> String? {
        (1...65535).contains(port) ? nil : "port \(port) is not a TCP port (1 to 65535)"
    }
}
