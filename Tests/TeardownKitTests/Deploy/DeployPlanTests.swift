import Foundation
import ZIPFoundation
import Testing
@testable import TeardownBase
@testable import TeardownContent
@testable import TeardownInbox

@Suite("Deploy: targets, credentials, manifests and plans")
struct DeployPlanTests {
    @Test("s3:// targets are read with their prefix; bad bucket names and endpoints are refused")
    func targets() throws {
        let site = try S3Location.parse("s3://catalog/en/site/", endpoint: "http://127.0.0.1:9000/", region: "eu-west-1").get()
        #expect(site.bucket == "catalog" && site.prefix == "en/site/" && site.endpoint == "http://127.0.0.1:9000")
        #expect(site.url(of: "en/site/a b.html") == "http://127.0.0.1:9000/catalog/en/site/a%20b.html")
        let aws = try S3Location.parse("s3://catalog", endpoint: nil, region: "eu-west-1").get()
        #expect(aws.prefix == "" && aws.endpoint == "https://s3.eu-west-1.amazonaws.com")
        for bad in ["catalog", "s3://Catalog", "s3://ab", "s3://catalog/../x", "s3://-catalog"] {
            guard case .failure = S3Location.parse(bad, endpoint: nil, region: "us-east-1") else {
                Issue.record("\(bad) was accepted")
                continue
            }
        }
        guard case .failure(let failure) = S3Location.parse("s3://catalog", endpoint: "ftp://store", region: "us-east-1") else {
            Issue.record("an ftp endpoint was accepted")
            return
        }
        #expect(failure.description.contains("--endpoint ftp://store"))
    }

    @Test("Credentials come from the environment first, then the profile's section of the shared file")
    func credentials() throws {
        let folder = NSTemporaryDirectory() + "teardown-creds-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = s1\n\n[site]\naws_access_key_id=AKIASITE\naws_secret_access_key=s2\naws_session_token = t2\n"
            .write(toFile: folder + "/credentials", atomically: true, encoding: .utf8)
        let file = ["AWS_SHARED_CREDENTIALS_FILE": folder + "/credentials"]
        #expect(try S3Credentials.find(environment: file).get().keyID == "AKIADEFAULT")
        let site = try S3Credentials.find(environment: file.merging(["AWS_PROFILE": "site"]) { $1 }).get()
        #expect(site.keyID == "AKIASITE" && site.sessionToken == "t2")
        let variables = try S3Credentials.find(environment: file.merging(["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "s3"]) { $1 }).get()
        #expect(variables.keyID == "AKIAENV" && variables.sessionToken == nil)
        guard case .failure(let failure) = S3Credentials.find(environment: ["AWS_SHARED_CREDENTIALS_FILE": folder + "/none", "AWS_PROFILE": "x"]) else {
            Issue.record("no credentials were found, yet none was reported")
            return
        }
        #expect(failure.description.contains("profile 'x'"))
    }

    @Test("A manifest reads back as itself; anything else is not a manifest")
    func manifests() {
        let manifest = DeployManifest(entries: ["index.html": .init(sha256: String(repeating: "a", count: 64), size: 12),
                                                "machines/a b/index.html": .init(sha256: String(repeating: "b", count: 64), size: 0)])
        #expect(DeployManifest.parse(manifest.serialized()) == manifest)
        #expect(DeployManifest.parse(Data("<html>".utf8)) == nil)
        #expect(DeployManifest.parse(Data("teardown-deploy 1\nabc 12 index.html\n".utf8)) == nil)
    }

    @Test("A manifest naming a key outside the site, or not a plain path, is damaged: the bucket is listed instead")
    func manifestKeys() {
        let digest = String(repeating: "c", count: 64)
        for key in ["../victim.txt", "/victim.txt", "../../otherbucket/precious.txt", "a/./b.html", "a//b.html", "a/..", ".",
                    "a\\b", "tab\there"] {
            #expect(DeployManifest.parse(Data("teardown-deploy 1\n\(digest) 3 \(key)\n".utf8)) == nil, "\(key)")
            #expect(DeployShards.parseShard(Data("teardown-deploy-shard 1\n\(digest) 3 \(key)\n".utf8)) == nil, "\(key)")
        }
        #expect(DeployManifest.parse(Data("teardown-deploy 1\n\(digest) 3 .well-known/a b.txt\n".utf8)) != nil)
    }

    @Test("The manifest's shards: a path's shard never changes between versions, and the index reads back as itself")
    func shards() {
        // FNV-1a of the path's bytes: a deploy by another version must find the same shards.
        #expect(DeployShards.shard(of: "index.html") == 0x22 && DeployShards.shard(of: "") == 0xc5)
        #expect(DeployShards.name(of: 0x6d) == "6d" && DeployShards.name(of: 0) == "00")
        let index = DeployShards(digests: [0: String(repeating: "a", count: 32), 0xff: String(repeating: "b", count: 32)])
        #expect(DeployShards.parse(index.serialized()) == index)
        #expect(DeployShards.parse(DeployManifest(entries: [:]).serialized()) == nil, "a one-object manifest is not an index")
        #expect(DeployShards.parse(Data("teardown-deploy 2\n6d short\n".utf8)) == nil)
        let entries = [("b.html", DeployManifest.Entry(sha256: String(repeating: "d", count: 64), size: 4)),
                       ("a.html", DeployManifest.Entry(sha256: String(repeating: "e", count: 64), size: 5))]
        let shard = DeployShards.serialized(entries)
        #expect(String(decoding: shard, as: UTF8.self).hasPrefix("teardown-deploy-shard 1\n\(String(repeating: "e", count: 64)) 5 a.html\n"))
        #expect(DeployShards.parseShard(shard)?.count == 2)
    }

    @Test("A plan uploads the new and the changed, assets before pages, the search index after them, and deletes what is gone")
    func plan() {
        let digest = { (letter: Character) in String(repeating: letter, count: 64) }
        let index = [
            LocalOutputs.File(path: "search/index.html", size: 1, sha256: digest("1")),
            LocalOutputs.File(path: "pagefind/shard-03/pagefind-entry.json", size: 1, sha256: digest("2")),
            LocalOutputs.File(path: "pagefind/shard-03/pagefind.en_1.pf_meta", size: 1, sha256: digest("3")),
        ]
        #expect(DeployPlan.make(local: index + [LocalOutputs.File(path: "machines/fan/index.html", size: 1, sha256: digest("4"))],
                                manifest: DeployManifest(entries: [:]), listing: [:], stored: { _ in nil }).uploads.map(\.path)
                == ["machines/fan/index.html", "pagefind/shard-03/pagefind.en_1.pf_meta", "pagefind/shard-03/pagefind-entry.json",
                    "search/index.html"], "the page first, then the index's files, then what names them")
        let local = [
            LocalOutputs.File(path: "index.html", size: 10, sha256: digest("a")),
            LocalOutputs.File(path: "machines/fan/index.html", size: 20, sha256: digest("b")),
            LocalOutputs.File(path: "machines/fan/layer.svg", size: 30, sha256: digest("c")),
            LocalOutputs.File(path: "assets/style.css", size: 40, sha256: digest("d")),
        ]
        let remote = DeployManifest(entries: [
            "index.html": .init(sha256: digest("a"), size: 10),
            "machines/fan/index.html": .init(sha256: digest("0"), size: 20),
            "machines/old/index.html": .init(sha256: digest("e"), size: 50),
        ])
        let plan = DeployPlan.make(local: local, manifest: remote, listing: [:], stored: { _ in nil })
        #expect(plan.uploads.map(\.path) == ["assets/style.css", "machines/fan/layer.svg", "machines/fan/index.html"])
        #expect(plan.uploads.map(\.action) == [.upload, .upload, .replace])
        #expect(plan.deletions.map(\.path) == ["machines/old/index.html"])
        #expect(plan.unchanged == 1 && plan.uploadBytes == 90 && !plan.listed)
    }

    @Test("Headers: types by extension, and caching by kind")
    func headers() {
        let headers = ObjectHeaders()
        #expect(ObjectHeaders.contentType(of: "machines/fan/index.html") == "text/html; charset=utf-8")
        #expect(ObjectHeaders.contentType(of: "layer.SVG") == "image/svg+xml")
        #expect(ObjectHeaders.contentType(of: "pagefind/fragment/en_1a2b.pf_fragment") == "application/octet-stream")
        #expect(headers.cacheControl(of: "pagefind/fragment/en_1a2b.pf_fragment") == "public, max-age=31536000, immutable")
        #expect(headers.cacheControl(of: "catalog.json") == "public, max-age=60")
        #expect(headers.cacheControl(of: "downloads/comments/press.zip") == "public, max-age=60", "changes with every comment")
        #expect(headers.cacheControl(of: "downloads/press.zip") == "public, max-age=3600")
        #expect(headers.cacheControl(of: "assets/style.css") == "public, max-age=3600")
    }

    @Test("Text is stored gzip-compressed, and the manifest tells a compressed object from a plain one")
    func compression() throws {
        var headers = ObjectHeaders()
        #expect(headers.contentEncoding(of: "machines/fan/index.html") == "gzip")
        #expect(headers.contentEncoding(of: "assets/search.js") == "gzip")
        #expect(headers.contentEncoding(of: "layer.SVG") == "gzip")
        #expect(headers.contentEncoding(of: "pagefind/fragment/en_1a2b.pf_fragment") == nil, "Pagefind compresses its own")
        #expect(headers.contentEncoding(of: "machines/fan/photos/a-640.jpg") == nil)
        #expect(headers.contentEncoding(of: "downloads/fan.zip") == nil)
        let digest = String(repeating: "a", count: 64)
        let page = LocalOutputs.File(path: "index.html", size: 10, sha256: digest)
        let photo = LocalOutputs.File(path: "a.jpg", size: 10, sha256: digest)
        let compressed = headers.recorded(page)
        #expect(compressed.sha256 != page.sha256 && compressed.size == page.size)
        #expect(headers.recorded(photo).sha256 == photo.sha256)
        headers.compress = false
        #expect(headers.contentEncoding(of: "index.html") == nil)
        #expect(headers.recorded(page).sha256 == page.sha256, "switching compression off uploads the text again")

        // The bytes are gzip's: a header without a time, zlib's deflate, then CRC-32 and size.
        let text = Data(String(repeating: "<p>Fan blade, 120 mm.</p>\n", count: 400).utf8)
        let gzip = try #require(Gzip.compress(text))
        #expect(gzip.count < text.count / 10)
        #expect(Array(gzip.prefix(4)) == [0x1F, 0x8B, 8, 0] && Gzip.compress(text) == gzip)
        let deflated = gzip.subdata(in: 10..<gzip.count - 8)
        var inflated = Data()
        _ = try Data.decompress(size: Int64(deflated.count), bufferSize: 4096, skipCRC32: false, provider: { position, size in
            // Decoding asks for whole buffers, past the end too.
            deflated.subdata(in: min(Int(position), deflated.count)..<min(Int(position) + size, deflated.count))
        }, consumer: { inflated.append($0) })
        #expect(inflated == text)
        let trailer = Array(gzip.suffix(8))
        #expect(trailer[4..<8].elementsEqual(withUnsafeBytes(of: UInt32(text.count).littleEndian, Array.init)))
        #expect(try #require(Gzip.compress(Data())).count == 20)
    }
}
