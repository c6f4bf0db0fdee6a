import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real server process on 127.0.0.1 for the duration of a test: python3's http.server,
/// pyftpdlib's FTP server (installed by `make deps`), an HTTP server that answers every
/// request with a body dripped a byte every half second, for ever, python3's http.server
/// that answers 503 to the first request for each takedown (`flaky`), or a bucket whose
/// listing never ends: the same page and token (`endless`), or the same page under a new
/// token each time (`repeating`).
final class LocalServer: @unchecked Sendable {
    let port: Int
    private let process = Process()
    private let log: String

    enum Kind { case http, ftp, drip, flaky, endless, repeating }

    init(_ kind: Kind, serving folder: String) throws {
        port = Self.freePort()
        log = folder + ".server.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        switch kind {
        case .http:
            process.arguments = ["python3", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", folder]
        case .ftp:
            process.arguments = ["python3", "-m", "pyftpdlib", "-i", "127.0.0.1", "-p", "\(port)", "-d", folder]
        case .flaky:
            process.arguments = ["python3", "-c", """
                import functools, http.server
                failed = set()
                class Handler(http.server.SimpleHTTPRequestHandler):
                    def do_GET(self):
                        if self.path.endswith(".takedown.yaml") and self.path not in failed:
                            failed.add(self.path)
                            self.send_error(503)
                            return
                        super().do_GET()
                http.server.ThreadingHTTPServer(("127.0.0.1", \(port)),
                    functools.partial(Handler, directory=\"\(folder)\")).serve_forever()
                """]
        case .endless, .repeating:
            process.arguments = ["python3", "-c", """
                import http.server, itertools
                counter = itertools.count()
                class Handler(http.server.BaseHTTPRequestHandler):
                    def do_GET(self):
                        token = "same" if \(kind == .endless ? "True" : "False") else "t%d" % next(counter)
                        body = ("<ListBucketResult><IsTruncated>true</IsTruncated><NextContinuationToken>%s"
                                "</NextContinuationToken><Contents><Key>inbox/a.json</Key><Size>1</Size><ETag>\\"e\\"</ETag>"
                                "</Contents></ListBucketResult>" % token).encode()
                        self.send_response(200)
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                        print(self.path, flush=True)
                    def log_message(self, *arguments):
                        pass
                http.server.ThreadingHTTPServer(("127.0.0.1", \(port)), Handler).serve_forever()
                """]
        case .drip:
            process.arguments = ["python3", "-c", """
                import socket, threading, time
                server = socket.socket()
                server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                server.bind(("127.0.0.1", \(port)))
                server.listen(8)
                def drip(connection):
                    try:
                        connection.recv(4096)
                        connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 100000\\r\\n\\r\\n")
                        while True:
                            connection.sendall(b"x")
                            time.sleep(0.5)
                    except OSError:
                        pass
                while True:
                    connection, _ = server.accept()
                    threading.Thread(target=drip, args=(connection,), daemon=True).start()
                """]
        }
        let handle = FileHandle(forWritingAtPath: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try waitUntilListening()
    }

    var url: String { "127.0.0.1:\(port)" }

    /// What the server logged: one line per request.
    var requests: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    func stop() {
        if process.isRunning {
            // SIGKILL: the test process's blocked signal mask can reach the child, so it may
            // never see a SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    private func waitUntilListening() throws {
        for _ in 0..<100 {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        throw Failure(message: "server did not start on port \(port): \(requests)")
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static func accepts(_ port: Int) -> Bool {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A port the kernel says is free now.
    private static func freePort() -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
