import Foundation
import Testing

/// A machine's composed picture (its cover and part pages' backdrop) is made in batches of
/// layers: decoded all at once, 400 layers of 1600 x 1200 took 3.2 GB, and 120 took 1 GB.
@Suite("Composing a machine of many large layers")
struct ComposeMemoryTests {
    @Test("Composing 64 layers of 1600 x 1200 holds a batch of them, not all")
    func composeInBatches() throws {
        let site = TeardownBinary.temporaryFolder()
        let machine = site.appendingPathComponent("content/machines/big")
        try FileManager.default.createDirectory(at: machine.appendingPathComponent("parts"), withIntermediateDirectories: true)
        try "title: \"Big\"\n".write(to: site.appendingPathComponent("content/site.yaml"), atomically: true, encoding: .utf8)
        try "name: \"Big\"\ncanvas: {width: 1600, height: 1200}\n".write(to: machine.appendingPathComponent("machine.yaml"),
                                                                           atomically: true, encoding: .utf8)
        let layers = 64
        for index in 0..<layers {
            let part = machine.appendingPathComponent("parts/p\(index)")
            try FileManager.default.createDirectory(at: part, withIntermediateDirectories: true)
            try "name: \"Part \(index)\"\nlayer: {image: layer.svg, z: \(index)}\n".write(
                to: part.appendingPathComponent("part.yaml"), atomically: true, encoding: .utf8)
            // The size of the canvas, each with a small part drawn somewhere on it, as real layers are.
            try """
                <svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">\
                <rect x="\(index * 23 % 1500)" y="\(index * 37 % 1100)" width="100" height="80" fill="#3a7bd5"/></svg>
                """.write(to: part.appendingPathComponent("layer.svg"), atomically: true, encoding: .utf8)
        }
        // The build's peak memory, measured by a parent of its own: the test process runs other
        // children at the same time.
        let measure = Process()
        measure.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        measure.arguments = ["python3", "-c", """
            import resource, subprocess, sys
            build = subprocess.run(sys.argv[1:], capture_output=True, text=True)
            print(build.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            sys.stderr.write(build.stdout + build.stderr)
            """, TeardownBinary.url.path, "build", "--site", site.path]
        var environment = ProcessInfo.processInfo.environment
        environment["TEARDOWN_PAGEFIND"] = ""
        measure.environment = environment
        let out = Pipe(), err = Pipe()
        measure.standardOutput = out
        measure.standardError = err
        try measure.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        measure.waitUntilExit()
        let figures = printed.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(figures.count == 2, "\(printed)\(log)")
        #expect(figures[0] == 0, "the build succeeds: \(log)")
        // All 64 layers at once are 64 x 7.7 MB = 490 MB of pixels; a batch of 16 is 123 MB.
        let megabytes = figures[1] / 1024
        #expect(megabytes < 400, "peak \(megabytes) MB")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/machines/big/index.html").path))
    }
}
