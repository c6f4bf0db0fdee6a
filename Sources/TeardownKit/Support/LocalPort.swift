/// Whether `teardown serve` and `teardown intake` can listen where they are asked to, checked
/// before a build of minutes rather than after it.
public enum LocalPort {
    /// What stands in the way of listening on host:port, said for a person; nil when nothing does.
    public static func problem(host: String, port: Int) -> String? {
        if let outOfRange = outOfRange(port) { return outOfRange }
        guard let problem = FileSystem.portProblem(host: host, port: port) else { return nil }
        if problem.inUse { return "port \(port) is in use on \(host); try --port \(port == 65535 ? port - 1 : port + 1)" }
        return "cannot listen on \(host):\(port): \(problem.reason)"
    }

    /// Why `port` cannot be a TCP port at all; nil when it can.
    public static func outOfRange(_ port: Int) -> String? {
        (1...65535).contains(port) ? nil : "port \(port) is not a TCP port (1 to 65535)"
    }
}
