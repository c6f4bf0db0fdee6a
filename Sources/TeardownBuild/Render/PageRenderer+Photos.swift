import Foundation
import TeardownBase
import TeardownContent
import TeardownMedia

extension PageRenderer {
    func photoModel(_ photo: Photo, owner: URLPath, at url: URLPath) -> PhotoModel {
        let processed = images.photo(photo.file.absolutePath)!
        let largest = processed.variants.last!
        let file = { (name: String) in Routes.photoFile(photo, under: owner, name).relative(from: url) }
        return PhotoModel(
            url: Routes.photo(photo, under: owner).relative(from: url),
            picture: picture(processed, alt: alt(photo), sizes: "(min-width: 40em) 14rem, 50vw") {
                file(PhotoFiles.variant(photo, $0, $1))
            },
            large: file(PhotoFiles.variant(photo, largest.width, "webp")),
            largeWidth: largest.width, largeHeight: largest.height,
            caption: photo.caption, credit: credit(photo), license: photo.license, date: photo.date?.day)
    }

    package func alt(_ photo: Photo) -> String { photo.caption ?? "Photo \(photo.file.stem)" }

    /// "Photo by <author>", then the sidecar's credit unless it already names the author.
    package func credit(_ photo: Photo) -> String? {
        let by = photo.author.map { "Photo by \($0)" }
        switch (by, photo.credit) {
        case (let by?, let credit?): return credit.contains(photo.author!) ? credit : "\(by) · \(credit)"
        case (let by, let credit): return by ?? credit
        }
    }

    /// `<picture>` sources from a processed image; `link` gives the URL of the copy of a width
    /// and a file extension ("webp", "jpg").
    package func picture(_ processed: ProcessedPhoto, alt: String, sizes: String, fallbackWidth: Int = 640,
                         link: (Int, String) -> String) -> PictureModel {
        picture(processed.variants.map { PixelSize(width: $0.width, height: $0.height) }, alt: alt, sizes: sizes,
                fallbackWidth: fallbackWidth, link: link)
    }

    /// A picture of copies of these sizes, narrowest first.
    package func picture(_ variants: [PixelSize], alt: String, sizes: String, fallbackWidth: Int = 640,
                         link: (Int, String) -> String) -> PictureModel {
        let fallback = variants.last { $0.width <= fallbackWidth } ?? variants[0]
        return PictureModel(
            webp: variants.map { "\(link($0.width, "webp")) \($0.width)w" }.joined(separator: ", "),
            jpeg: variants.map { "\(link($0.width, "jpg")) \($0.width)w" }.joined(separator: ", "),
            src: link(fallback.width, "jpg"), width: fallback.width, height: fallback.height, sizes: sizes, alt: alt)
    }

    package func sharingImage(_ cover: ProcessedPhoto, of machine: MachineView) -> SharingImageModel {
        Self.sharingImage(cover, of: machine, baseURL: baseURL)
    }

    package static func sharingImage(_ cover: ProcessedPhoto, of machine: some MachineAddressable, baseURL: String) -> SharingImageModel {
        let variant = cover.variants.last!
        return sharingImage(PixelSize(width: variant.width, height: variant.height), of: machine, baseURL: baseURL)
    }

    /// The cover's copy of `size` (its largest), as a shared link previews it.
    package static func sharingImage(_ size: PixelSize, of machine: some MachineAddressable, baseURL: String) -> SharingImageModel {
        SharingImageModel(url: baseURL + Routes.cover(machine, file: PhotoFiles.cover(size.width, "jpg")).value.dropFirst(),
                          width: size.width, height: size.height)
    }

    /// A photo as a shared link previews it: the largest copy up to 1280 pixels wide.
    package func photoSharingImage(_ photo: Photo, owner: URLPath) -> SharingImageModel? {
        guard let processed = images.photo(photo.file.absolutePath) else { return nil }
        let shared = processed.variants.last { $0.width <= 1280 } ?? processed.variants.last!
        return SharingImageModel(
            url: baseURL + Routes.photoFile(photo, under: owner, PhotoFiles.variant(photo, shared.width, "jpg")).value.dropFirst(),
            width: shared.width, height: shared.height)
    }

    /// Photos of a machine or part with the page each belongs under, in gallery order.
    package static func photos(of machineIndex: Int, part partIndex: Int?, in content: ContentView)
        -> [(photo: Photo, owner: URLPath)] {
        let machine = content.machines[machineIndex]
        if let partIndex {
            let part = machine.parts[partIndex]
            return part.community.photos.map { ($0, Routes.part(part, of: machine)) }
        }
        return machine.community.photos.map { ($0, Routes.machine(machine)) }
            + machine.parts.flatMap { part in part.community.photos.map { ($0, Routes.part(part, of: machine)) } }
    }

    func gallery(_ machineIndex: Int, part partIndex: Int?, at url: URLPath) -> GalleryPageModel {
        let machine = content.machines[machineIndex]
        let models = Self.photos(of: machineIndex, part: partIndex, in: content).map { photoModel($0.photo, owner: $0.owner, at: url) }
        let part = partIndex.map { machine.parts[$0] }
        return GalleryPageModel(
            title: "Photos of the \(part.map { "\($0.name) of the " } ?? "")\(machine.name)",
            machine: LinkModel(title: machine.name, url: Routes.machine(machine).relative(from: url)),
            part: part.map { LinkModel(title: $0.name, url: Routes.part($0, of: machine).relative(from: url)) },
            photos: models, hasPhotos: !models.isEmpty,
            count: models.isEmpty ? "" : Plural.count(models.count, "photo"), pagination: nil)
    }

    func siteGallery(page number: Int, at url: URLPath) -> GalleryPageModel {
        let all = allPhotos
        let perPage = Pagination.photosPerPage
        let pageCount = Pagination.pageCount(all.count, perPage)
        let models = all.dropFirst((number - 1) * perPage).prefix(perPage).map { photoModel($0.photo, owner: $0.owner, at: url) }
        return GalleryPageModel(title: number > 1 ? "All photos, page \(number)" : "All photos", machine: nil, part: nil,
                                photos: models, hasPhotos: !models.isEmpty,
                                count: all.isEmpty ? "" : Plural.count(all.count, "photo"),
                                pagination: Self.pagination(pageCount, current: number) { Routes.photos(page: $0).relative(from: url) })
    }

    func photoPage(_ address: PhotoAddress, at url: URLPath) -> (PhotoPageModel, SharingImageModel) {
        let machine = content.machines[address.machine]
        let part = address.part.map { machine.parts[$0] }
        let owner = part.map { Routes.part($0, of: machine) } ?? Routes.machine(machine)
        let siblings = (part?.community ?? machine.community).photos
        let photo = siblings[address.photo]
        let processed = images.photo(photo.file.absolutePath)!
        let file = { (name: String) in Routes.photoFile(photo, under: owner, name) }
        let largest = processed.variants.last!
        let download = PhotoFiles.download(photo, processed)
        let bytes = FileSystem.size(of: images.path(processed.key, processed.original ?? "")) ?? 0
        func neighbour(_ index: Int) -> LinkModel? {
            siblings.indices.contains(index)
                ? LinkModel(title: siblings[index].caption ?? siblings[index].file.stem,
                            url: Routes.photo(siblings[index], under: owner).relative(from: url))
                : nil
        }
        let metadata = processed.metadata
        var location: LocationModel?
        if photo.showsLocation, let latitude = metadata.latitude, let longitude = metadata.longitude {
            location = LocationModel(text: Self.position(latitude, longitude),
                                     map: "https://www.openstreetmap.org/?mlat=\(Self.degrees(latitude))&mlon=\(Self.degrees(longitude))"
                                         + "#map=16/\(Self.degrees(latitude))/\(Self.degrees(longitude))")
        }
        let model = PhotoPageModel(
            title: photo.caption ?? "Photo \(photo.file.stem)",
            picture: picture(processed, alt: alt(photo), sizes: "(min-width: 64em) 60rem, 100vw", fallbackWidth: 1280) {
                file(PhotoFiles.variant(photo, $0, $1)).relative(from: url)
            },
            large: file(PhotoFiles.variant(photo, largest.width, "webp")).relative(from: url),
            caption: photo.caption, author: nil, credit: credit(photo), license: photo.license,
            date: photo.date?.day, dateTime: photo.date?.text, taken: metadata.taken, camera: metadata.camera,
            location: location,
            machine: LinkModel(title: machine.name, url: Routes.machine(machine).relative(from: url)),
            part: part.map { LinkModel(title: $0.name, url: Routes.part($0, of: machine).relative(from: url)) },
            gallery: LinkModel(title: "Photos of the \(part?.name ?? machine.name)", url: Routes.gallery(owner).relative(from: url)),
            download: LinkModel(
                title: "Download the photo (\(processed.format.fileExtension.uppercased()), \(processed.width) × \(processed.height), "
                    + "\(Self.humanSize(bytes)), without location or camera data)",
                url: file(download).relative(from: url)),
            previous: neighbour(address.photo - 1), next: neighbour(address.photo + 1))
        return (model, photoSharingImage(photo, owner: owner)!)
    }

    package static func position(_ latitude: Double, _ longitude: Double) -> String {
        "\(degrees(abs(latitude)))° \(latitude < 0 ? "S" : "N"), \(degrees(abs(longitude)))° \(longitude < 0 ? "W" : "E")"
    }

    static func degrees(_ value: Double) -> String { String(format: "%.5f", value) }

    /// Decimal units, like file managers and browsers show.
    package static func humanSize(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        let units = ["kB", "MB", "GB"]
        var value = Double(bytes) / 1000, unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
    }
}
