import TeardownBase
import TeardownContent

/// `search/names/<key>.json`: the search page's first answer, from the names of machines and
/// parts, read before Pagefind has loaded (`SiteIndex.NameBucket`).
extension PageRenderer {
    package func searchNames(_ number: Int) -> String {
        let bucket = index.names[number]
        let machines = content.machines
        var json = JSONWriter()
        json.object { json in
            json.key("words")
            json.array(bucket.words.elements) { json, word in
                json.object { json in
                    json.member("count", word.count)
                    json.key("names")
                    json.array(word.items) { json, item in
                        json.object { json in
                            switch item {
                            case .machine(let m):
                                let machine = machines[m]
                                json.member("name", machine.name)
                                json.member("type", "machine")
                                json.member("url", String(Routes.machine(machine).value.dropFirst()))
                            case .part(let address):
                                let machine = machines[address.machine]
                                let part = machine.parts[address.part]
                                json.member("machine", machine.name)
                                json.member("name", part.name)
                                json.member("type", "part")
                                json.member("url", String(Routes.part(part, of: machine).value.dropFirst()))
                            }
                        }
                    }
                    json.member("word", word.word)
                }
            }
        }
        return json.text
    }
}
