import Mustache

// Templates look values up by name. Without these conformances swift-mustache finds them
// with Mirror, which decodes type metadata on every lookup and took most of a build's time.
// A test checks that every stored property of every model is reachable here.

extension LayoutModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "siteTitle": siteTitle
        case "language": language
        case "pageTitle": pageTitle
        case "shareTitle": shareTitle
        case "partsIndex": partsIndex
        case "tags": tags
        case "feeds": feeds
        case "twitterCard": twitterCard
        case "description": description
        case "canonical": canonical
        case "home": home
        case "help": help
        case "stylesheet": stylesheet
        case "icon": icon
        case "iconType": iconType
        case "generator": generator
        case "bugReport": bugReport
        case "photos": photos
        case "scripts": scripts
        case "image": image
        case "search": search
        case "searchFilters": searchFilters
        default: nil
        }
    }
}

extension SharingImageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "url": url
        case "width": width
        case "height": height
        default: nil
        }
    }
}

extension PictureModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "webp": webp
        case "jpeg": jpeg
        case "src": src
        case "width": width
        case "height": height
        case "sizes": sizes
        case "alt": alt
        default: nil
        }
    }
}

extension LocationModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "map": map
        default: nil
        }
    }
}

extension PhotoPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "picture": picture
        case "large": large
        case "caption": caption
        case "author": author
        case "credit": credit
        case "license": license
        case "date": date
        case "dateTime": dateTime
        case "taken": taken
        case "camera": camera
        case "location": location
        case "machine": machine
        case "part": part
        case "gallery": gallery
        case "download": download
        case "previous": previous
        case "next": next
        default: nil
        }
    }
}

extension GalleryPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "machine": machine
        case "part": part
        case "photos": photos
        case "hasPhotos": hasPhotos
        case "count": count
        case "pagination": pagination
        default: nil
        }
    }
}

extension PageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        default: nil
        }
    }
}

extension LinkModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "url": url
        default: nil
        }
    }
}

extension StackLayerModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": url
        case "z": z
        case "left": left
        case "top": top
        case "width": width
        case "height": height
        case "current": current
        default: nil
        }
    }
}

extension StackModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "width": width
        case "height": height
        case "layers": layers
        default: nil
        }
    }
}

extension BackdropModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "width": width
        case "height": height
        case "style": style
        default: nil
        }
    }
}

extension MachineCardModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": url
        case "summary": summary
        case "tags": tags
        case "partCount": partCount
        case "commentCount": commentCount
        case "photoCount": photoCount
        case "cover": cover
        case "backdrop": backdrop()
        default: nil
        }
    }
}

extension CatalogModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "machines": machines
        case "hasMachines": hasMachines
        case "collections": collections
        default: nil
        }
    }
}

extension EntryModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "author": author
        case "date": date
        case "dateTime": dateTime
        case "html": html
        case "isDesigner": isDesigner
        case "anchor": anchor
        default: nil
        }
    }
}

extension PaginationModel.PageLink: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "number": number
        case "url": url
        case "current": current
        default: nil
        }
    }
}

extension PaginationModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "pages": pages
        case "previous": previous
        case "next": next
        default: nil
        }
    }
}

extension DiscussionModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "entries": entries
        case "hasEntries": hasEntries
        case "hasComments": hasComments
        case "commentCount": commentCount
        case "pagination": pagination
        default: nil
        }
    }
}

extension PhotoModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "url": url
        case "picture": picture
        case "large": large
        case "largeWidth": largeWidth
        case "largeHeight": largeHeight
        case "caption": caption
        case "credit": credit
        case "license": license
        case "date": date
        default: nil
        }
    }
}

extension PartLinkModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": url
        case "counts": counts
        default: nil
        }
    }
}

extension SpecModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "value": value
        case "note": note
        case "conversions": conversions
        default: nil
        }
    }
}

extension SpecConversionModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "relation": relation
        case "text": text
        case "note": note
        case "system": system
        default: nil
        }
    }
}

extension MachinePageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "summary": summary
        case "designer": designer
        case "license": license
        case "updated": updated
        case "tags": tags
        case "stack": stack
        case "parts": parts
        case "discussion": discussion
        case "photos": photos
        case "hasPhotos": hasPhotos
        case "gallery": gallery
        case "data": data
        case "download": download
        case "feed": feed
        case "manual": manual
        case "intake": intake
        default: nil
        }
    }
}

extension IntakeFormModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "commentAction": commentAction
        case "photoAction": photoAction
        case "machine": machine
        case "part": part
        case "back": back
        case "authorMin": authorMin
        case "authorMax": authorMax
        case "commentMin": commentMin
        case "commentMax": commentMax
        case "photoMax": photoMax
        case "held": held
        default: nil
        }
    }
}

extension PartPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "machine": machine
        case "backdrop": backdrop
        case "layer": layer
        case "specs": specs
        case "hasSpecs": hasSpecs
        case "unitSwitch": unitSwitch
        case "tags": tags
        case "discussion": discussion
        case "photos": photos
        case "hasPhotos": hasPhotos
        case "gallery": gallery
        case "intake": intake
        default: nil
        }
    }
}

extension SearchFilterModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "value": value
        default: nil
        }
    }
}

extension ManualPageModel.NavItem: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "url": url
        case "current": current
        case "kind": kind
        case "opens": opens
        case "closes": closes
        default: nil
        }
    }
}

extension ManualPageModel.TocItem: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "url": url
        case "level": level
        default: nil
        }
    }
}

extension ManualPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "manualTitle": manualTitle
        case "html": html
        case "toc": toc
        case "hasToc": hasToc
        case "navigation": navigation
        case "hasNavigation": hasNavigation
        case "navigationData": navigationData
        case "contents": contents
        case "breadcrumbs": breadcrumbs
        case "hasBreadcrumbs": hasBreadcrumbs
        case "previous": previous
        case "next": next
        case "edit": edit
        case "bugReport": bugReport
        case "print": print
        case "indexed": indexed
        case "isContents": isContents
        default: nil
        }
    }
}

extension ManualPrintModel.Section: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "html": html
        default: nil
        }
    }
}

extension ManualPrintModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "manual": manual
        case "sections": sections
        default: nil
        }
    }
}

extension SearchPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "index": index
        case "merge": merge
        case "unavailable": unavailable
        default: nil
        }
    }
}

extension NotFoundModel: MustacheParent {
    func child(named name: String) -> Any? {
        name == "home" ? home : nil
    }
}

extension CollectionLinkModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "url": url
        case "description": description
        case "count": count
        default: nil
        }
    }
}

extension PartEntryModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": url
        case "machine": machine
        default: nil
        }
    }
}

extension LetterTabModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "url": url
        case "current": current
        case "count": count
        default: nil
        }
    }
}

extension PartsIndexModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "tabs": tabs
        case "parts": parts
        case "hasParts": hasParts
        case "count": count
        default: nil
        }
    }
}

extension TagLinkModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "url": url
        case "count": count
        default: nil
        }
    }
}

extension TagsModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "tags": tags
        case "hasTags": hasTags
        default: nil
        }
    }
}

extension TagPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "machines": machines
        case "hasMachines": hasMachines
        case "parts": parts
        case "hasParts": hasParts
        case "all": all
        default: nil
        }
    }
}

extension CollectionPageModel: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "description": description
        case "machines": machines
        case "hasMachines": hasMachines
        default: nil
        }
    }
}
