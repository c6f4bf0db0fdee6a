import Foundation
import Glibc
import Testing

/// Runs `teardown serve` on a scratch copy of the demo site and talks to it with curl.
@Suite("teardown serve", .serialized)
struct ServeTests {
    final class Server: @unchecked Sendable {
        private(set) var process = Process()
        private(set) var port = 0
        let site: URL
        let log: URL

        /// `prepare` changes the site before the server starts.
        init(polling: Bool = false, prepare: (URL) throws -> Void = { _ in }) throws {
            site = TeardownBinary.temporaryFolder()
            try FileManager.default.copyItem(at: TeardownBinary.packageRoot.appendingPathComponent("content"),
                                             to: site.appendingPathComponent("content"))
            try prepare(site)
            log = site.appendingPathComponent("serve.log")
            // Another test's server or client can take a port between the probe and serve's
            // bind: serve then refuses it, and the server starts again on another.
            for _ in 0..<5 {
                port = Self.unusedPort()
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
                process = Process()
                process.executableURL = TeardownBinary.url
                process.arguments = ["serve", "--site", site.path, "--port", "\(port)"] + (polling ? ["--poll"] : [])
                let handle = try FileHandle(forWritingTo: log)
                process.standardOutput = handle
                process.standardError = handle
                try process.run()
                // The first build of the demo takes seconds, and many more beside the other tests on
                // two cores: wait up to two minutes, or until serve gives up.
                for _ in 0..<1200 where process.isRunning && !output.contains("Serving on") {
                    usleep(100_000)
                }
                guard !process.isRunning, output.contains("is in use") else { return }
                process.waitUntilExit()
            }
        }

        /// A port that nothing listens on, below the kernel's range for outgoing connections
        /// (32768 and up), so that no test's client takes it by chance.
        static func unusedPort() -> Int {
            while true {
                let port = Int.random(in: 10000...32000)
                let socket = ServeTests.listen(port: port)
                if socket >= 0 {
                    close(socket)
                    return port
                }
            }
        }

        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        func curl(_ arguments: [String]) throws -> String {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = ["curl", "-s", "--path-as-is"] + arguments
            let pipe = Pipe()
            curl.standardOutput = pipe
            try curl.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            curl.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        /// Stops the server as a person does, with Ctrl-C (SIGINT). One that is still running
        /// 10 s later is killed, and the test fails.
        func stop(sourceLocation: SourceLocation = #_sourceLocation) {
            kill(process.processIdentifier, SIGINT)
            for _ in 0..<100 where process.isRunning { usleep(100_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                Issue.record("teardown serve did not stop within 10 s of Ctrl-C\n\(output)", sourceLocation: sourceLocation)
                process.waitUntilExit()
                return
            }
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && output.hasSuffix("Stopped\n"), "\(output)", sourceLocation: sourceLocation)
        }

        /// Collects server-sent events while `change` runs, until `until` appears or 10 s pass.
        func events(until marker: String, while change: () throws -> Void) throws -> String {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = ["curl", "-s", "-N", "--max-time", "10", url("/__teardown/events")]
            let file = site.appendingPathComponent("events-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            curl.standardOutput = try FileHandle(forWritingTo: file)
            try curl.run()
            defer { curl.terminate(); kill(curl.processIdentifier, SIGKILL); curl.waitUntilExit() }
            var text = ""
            for _ in 0..<50 where !text.contains(": connected") {
                usleep(50_000)
                text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            }
            try change()
            for _ in 0..<100 where !text.contains(marker) {
                usleep(100_000)
                text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            }
            // What came while `change` ran, when the marker was there before it.
            return (try? String(contentsOf: file, encoding: .utf8)) ?? text
        }
    }

    /// A socket listening on 127.0.0.1:port, or -1 when the port is taken.
    static func listen(port: Int) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(socket, 1) == 0 else {
            close(socket)
            return -1
        }
        return socket
    }

    @Test("A port in use is refused before the build, with a free port to try; a port out of range is refused")
    func ports() throws {
        let server = try Server()
        defer { server.stop() }
        let site = server.site.path
        // The next port up is taken too: the one suggested is free.
        let next = Self.listen(port: server.port + 1)
        defer { if next >= 0 { close(next) } }
        let taken = try TeardownBinary.run(["serve", "--site", site, "--port", "\(server.port)"])
        #expect(taken.status == 1)
        let suggested = taken.stderr.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        #expect(taken.stderr == "error: port \(server.port) is in use on 127.0.0.1; port \(suggested) is free: try --port \(suggested)\n",
                "\(taken.stderr)")
        #expect(suggested != server.port + 1 || next < 0, "the taken port \(server.port + 1) is not suggested")
        let probe = Self.listen(port: suggested)
        #expect(probe >= 0, "port \(suggested) is free")
        if probe >= 0 { close(probe) }
        #expect(!taken.stdout.contains("Built"), "refused before building")
        let intake = try TeardownBinary.run(["intake", "--site", site, "--inbox", site + "/inbox", "--port", "\(server.port)"])
        #expect(intake.status == 1)
        #expect(intake.stderr.contains("port \(server.port) is in use"), "\(intake.stderr)")
        let range = try TeardownBinary.run(["serve", "--site", site, "--port", "99999"])
        #expect(range.status != 0)
        #expect(range.stderr.contains("port 99999 is not a TCP port (1 to 65535)"), "\(range.stderr)")
        #expect(!range.stdout.contains("Serving on"))
    }

    @Test("Pages are served with the reload script, the right types, and the site's 404 page")
    func serves() throws {
        let server = try Server()
        defer { server.stop() }
        #expect(server.output.contains("Built"), "\(server.output)")
        #expect(try server.curl([server.url("/")]).contains("Teardown demo catalog"), "the home page")
        let page = try server.curl([server.url("/machines/desk-fan/")])
        #expect(page.contains("Desk fan"))
        #expect(page.contains("/__teardown/live.js"))
        let css = try server.curl(["-o", "/dev/null", "-w", "%{http_code} %{content_type}", server.url("/assets/style.css")])
        #expect(css == "200 text/css; charset=utf-8")
        let redirect = try server.curl(["-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", server.url("/machines/desk-fan")])
        #expect(redirect.hasPrefix("301 ") && redirect.hasSuffix("/machines/desk-fan/"))
        // `..` is refused outright (400, by Hummingbird's FileMiddleware); a missing page gets the site's 404 page.
        for (path, expected) in [("/../content/site.yaml", "400"), ("/%2e%2e/content/site.yaml", "400"), ("/nowhere/", "404")] {
            let status = try server.curl(["-o", "/dev/null", "-w", "%{http_code}", server.url(path)])
            #expect(status == expected, "\(path)")
            #expect(!(try server.curl([server.url(path)])).contains("title:"), "\(path)")
        }
        #expect(try server.curl([server.url("/nowhere/")]).contains("Page not found"))
        // One style of log: the web server's routine lines ("Server started and listening",
        // timestamped) are not printed between the command's own.
        let starts = ["note: ", "Built ", "Watching ", "Serving on "]
        for line in server.output.split(separator: "\n") {
            #expect(starts.contains { line.hasPrefix($0) }, "a line in another style: \(line)")
        }
    }

    @Test("A first build that fails serves a page that shows its errors, and the site once it is fixed")
    func firstBuildFails() throws {
        var good = ""
        let server = try Server { site in
            let machine = site.appendingPathComponent("content/machines/desk-fan/machine.yaml")
            good = try String(contentsOf: machine, encoding: .utf8)
            try (good + "canvas: [\n").write(to: machine, atomically: true, encoding: .utf8)
        }
        defer { server.stop() }
        #expect(server.output.contains("nothing is built yet"), "\(server.output)")
        #expect(!server.output.contains("last good build"))
        let status = try server.curl(["-o", "/dev/null", "-w", "%{http_code}", server.url("/")])
        #expect(status == "503")
        let page = try server.curl([server.url("/machines/desk-fan/")])
        #expect(page.contains("Nothing is built yet") && page.contains("/__teardown/live.js"), "\(page)")
        let failure = try server.events(until: "event: failure") {}
        #expect(failure.contains("machine.yaml"), "a page opened now shows the errors: \(failure)")
        let fixed = try server.events(until: "event: reload") {
            try good.write(to: server.site.appendingPathComponent("content/machines/desk-fan/machine.yaml"),
                           atomically: true, encoding: .utf8)
        }
        #expect(fixed.contains("event: reload"))
        #expect(try server.curl([server.url("/machines/desk-fan/")]).contains("Desk fan"))
    }

    @Test("A build's warnings reach the pages opened after it, until a build without them")
    func warningsReachTheBrowser() throws {
        let server = try Server()
        defer { server.stop() }
        // A page hears what the server holds for it as soon as it connects.
        let quiet = { try server.events(until: ": connected") { usleep(300_000) } }
        #expect(!(try quiet()).contains("event: warnings"), "the demo builds without warnings")
        let machine = server.site.appendingPathComponent("content/machines/desk-fan/machine.yaml")
        let good = try String(contentsOf: machine, encoding: .utf8)
        _ = try server.events(until: "event: reload") {
            try (good + "colour: blue\n").write(to: machine, atomically: true, encoding: .utf8)
        }
        // What a page opened now, as the reloaded one is, hears first.
        let opened = try server.events(until: "event: warnings") {}
        #expect(opened.contains("event: warnings") && opened.contains("unknown key 'colour'"), "\(opened)")
        #expect(opened.contains("machine.yaml"))
        _ = try server.events(until: "event: reload") {
            try good.write(to: machine, atomically: true, encoding: .utf8)
        }
        #expect(!(try quiet()).contains("event: warnings"), "warnings fixed are gone")
    }

    @Test("An edit reloads open pages; a broken edit shows its error, and fixing it reloads", arguments: [false, true])
    func liveReload(polling: Bool) throws {
        let server = try Server(polling: polling)
        defer { server.stop() }
        let description = server.site.appendingPathComponent("content/machines/desk-fan/description.md")
        let original = try String(contentsOf: description, encoding: .utf8)
        let reload = try server.events(until: "event: reload") {
            try (original + "\nFreshly edited line.\n").write(to: description, atomically: true, encoding: .utf8)
        }
        #expect(reload.contains("event: reload"), "\(reload)\n\(server.output)")
        #expect(try server.curl([server.url("/machines/desk-fan/")]).contains("Freshly edited line."))

        let machine = server.site.appendingPathComponent("content/machines/desk-fan/machine.yaml")
        let good = try String(contentsOf: machine, encoding: .utf8)
        let failure = try server.events(until: "event: failure") {
            try (good + "canvas: [\n").write(to: machine, atomically: true, encoding: .utf8)
        }
        #expect(failure.contains("event: failure"))
        #expect(failure.contains("machine.yaml"))
        #expect(try server.curl([server.url("/machines/desk-fan/")]).contains("Freshly edited line."), "the last good build is served")

        let fixed = try server.events(until: "event: reload") {
            try good.write(to: machine, atomically: true, encoding: .utf8)
        }
        #expect(fixed.contains("event: reload"))
        if polling { #expect(server.output.contains("watching by polling")) }

        // Once the files are older than the racy window, bundles come from the content cache:
        // edits of other bundles, twice, keep the desk fan's edit and show their own.
        for round in 1...2 {
            Thread.sleep(forTimeInterval: 2.2)
            let kettle = server.site.appendingPathComponent("content/machines/electric-kettle/description.md")
            let text = try String(contentsOf: kettle, encoding: .utf8)
            let reloaded = try server.events(until: "event: reload") {
                try (text + "\nKettle edit \(round).\n").write(to: kettle, atomically: true, encoding: .utf8)
            }
            #expect(reloaded.contains("event: reload"), "\(reloaded)\n\(server.output)")
            #expect(try server.curl([server.url("/machines/electric-kettle/")]).contains("Kettle edit \(round)."))
            #expect(try server.curl([server.url("/machines/desk-fan/")]).contains("Freshly edited line."))
        }
    }

    @Test("A sync while serve runs: the preview builds apart from public/, so neither rewrites the other's whole site")
    func syncWhileServing() throws {
        let server = try Server()
        defer { server.stop() }
        let site = server.site.path
        #expect(!FileManager.default.fileExists(atPath: site + "/public"), "serve left public/ alone")
        #expect(FileManager.default.fileExists(atPath: site + "/.teardown-cache/preview/index.html"))
        let build = try TeardownBinary.run(["build", "--site", site])
        #expect(build.status == 0, "\(build.stderr)")
        for number in 1...2 {
            let inbox = server.site.appendingPathComponent("inbox-\(number)")
            try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
            try Data("---\nmachine: desk-fan\npart: blades\nauthor: Ada\ndate: 2025-03-0\(number)\n---\nComment \(number).\n".utf8)
                .write(to: inbox.appendingPathComponent("c\(number).comment.md"))
            let builds = server.output.components(separatedBy: "Built").count
            let sync = try TeardownBinary.run(["sync", "--site", site, "--from", inbox.path])
            #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
            let written = try #require(ExecutableLinkTests.written(sync.stdout), "\(sync.stdout)")
            #expect(written < 60, "one comment wrote \(written) outputs of public/")
            // serve saw the filed comment and rebuilt its preview, which must not touch public/.
            for _ in 0..<600 where server.output.components(separatedBy: "Built").count == builds { usleep(100_000) }
            #expect(server.output.components(separatedBy: "Built").count > builds, "\(server.output)")
        }
        let home = try String(contentsOfFile: site + "/public/index.html", encoding: .utf8)
        #expect(!home.contains(":\(server.port)/"), "public/ keeps site.yaml's base URL")
    }
}
